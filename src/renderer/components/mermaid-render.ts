/**
 * The lazily loaded half of `mermaid-diagram.tsx`: mermaid in its strict mode (`securityLevel:
 * 'strict'`: no click handlers, no scripts, labels sanitised) with SVG text labels only (no HTML
 * labels, no foreignObject). Renders are queued one at a time (mermaid is not re-entrant). The SVG
 * comes back as a data: URL for an `<img>`: an SVG image document runs no script, loads nothing,
 * and its inner `<style>` stays inside it (the app's CSP has no 'unsafe-inline').
 */
import mermaid from 'mermaid';

let initialised = false;
let queue: Promise<unknown> = Promise.resolve();
let counter = 0;

function initialise(): void {
  if (initialised) return;
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    suppressErrorRendering: true,
    theme: 'neutral',
  });
  initialised = true;
}

/** The diagram as a `data:image/svg+xml` URL; rejects when mermaid cannot parse it. */
export function renderMermaidImage(code: string): Promise<string> {
  const run = async (): Promise<string> => {
    initialise();
    counter += 1;
    const { svg } = await mermaid.render(`aivory-mermaid-${counter}`, code);
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
