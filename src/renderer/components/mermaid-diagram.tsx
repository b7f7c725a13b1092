/**
 * A closed ```mermaid fence: the diagram, rendered by mermaid (`mermaid-render.ts`, loaded as its
 * own chunk at the first diagram) into an isolated SVG image. Until it is ready, and when mermaid
 * cannot read the code, the code shows as a code block. Results are cached by source, so a
 * re-render (another message arriving, scrolling back) does not redo the work.
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { useT } from '../i18n/use-t';
import { CodeBlock } from './code-block';

type Rendered = { url: string } | { error: true };

/** Most diagrams kept; the oldest is dropped beyond this. */
const CACHE_LIMIT = 100;
const cache = new Map<string, Rendered>();

function remember(code: string, rendered: Rendered): void {
  cache.set(code, rendered);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
}

/** The diagram for `code`, or the code while it renders or when it cannot. */
export function MermaidDiagram(props: { code: string }): ReactNode {
  const t = useT();
  const [rendered, setRendered] = useState<Rendered | null>(cache.get(props.code) ?? null);
  useEffect(() => {
    const known = cache.get(props.code);
    if (known !== undefined) {
      setRendered(known);
      return undefined;
    }
    setRendered(null);
    let live = true;
    void import('./mermaid-render')
      .then((module) => module.renderMermaidImage(props.code))
      .then(
        (url): Rendered => ({ url }),
        (): Rendered => ({ error: true }),
      )
      .then((result) => {
        remember(props.code, result);
        if (live) setRendered(result);
      });
    return () => {
      live = false;
    };
  }, [props.code]);
  if (rendered !== null && 'url' in rendered) {
    return (
      <figure className="mermaid-diagram">
        <img src={rendered.url} alt={t('markdown.diagram')} data-testid="mermaid-diagram" />
      </figure>
    );
  }
  return (
    <div className="mermaid-pending">
      {rendered !== null ? (
        <div className="mermaid-error" role="note">
          {t('markdown.diagramFailed')}
        </div>
      ) : null}
      <CodeBlock language="mermaid" text={props.code} />
    </div>
  );
}
