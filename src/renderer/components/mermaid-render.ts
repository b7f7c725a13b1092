/**
 * The lazily loaded half of `mermaid-diagram.tsx`: mermaid in its strict mode (`securityLevel:
 * 'strict'`: no click handlers, no scripts, labels sanitised) with SVG text labels only (no HTML
 * labels, no foreignObject), drawn with mermaid's `neutral` theme for the app's light theme and
 * its `dark` theme for the dark one. Renders are queued one at a time (mermaid is not
 * re-entrant; the theme is set per render). The SVG comes back as a data: URL for an `<img>`: an
 * SVG image document runs no script, loads nothing, and its inner `<style>` stays inside it (the
 * app's CSP has no 'unsafe-inline'); while it draws, `mermaid-csp.ts` keeps its styles out of the
 * CSP's way, so a diagram logs no console error.
 */
import mermaid from 'mermaid';
import { withoutInlineStyles } from './mermaid-csp';

/** The app's theme a diagram is drawn for. */
export type DiagramTheme = 'light' | 'dark';

let initialisedFor: DiagramTheme | null = null;
let queue: Promise<unknown> = Promise.resolve();
let counter = 0;

function initialise(theme: DiagramTheme): void {
  if (initialisedFor === theme) return;
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: 'strict',
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    suppressErrorRendering: true,
    theme: theme === 'dark' ? 'dark' : 'neutral',
    darkMode: theme === 'dark',
  });
  initialisedFor = theme;
}

/** The diagram as a `data:image/svg+xml` URL; rejects when mermaid cannot parse it. */
export function renderMermaidImage(code: string, theme: DiagramTheme): Promise<string> {
  const run = async (): Promise<string> => {
    initialise(theme);
    counter += 1;
    const id = `aivory-mermaid-${counter}`;
    // No CSP report per style attribute or <style> (mermaid-csp.ts).
    const svg = await withoutInlineStyles(async () => (await mermaid.render(id, code)).svg);
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
