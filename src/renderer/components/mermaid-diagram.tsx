/**
 * A closed ```mermaid fence: the diagram, rendered by mermaid (`mermaid-render.ts`, loaded as its
 * own chunk at the first diagram) into an isolated SVG image, in mermaid's dark theme while the
 * app shows its dark theme (`data-theme` on `<html>`, followed live: switching the theme redraws
 * the diagrams). Until it is ready, and when mermaid cannot read the code, the code shows as a
 * code block. A click opens the diagram in the lightbox. Results are cached by theme and source, so a re-render (another message
 * arriving, scrolling back, switching back) does not redo the work.
 */
import type { ReactNode } from 'react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useT } from '../i18n/use-t';
import { CodeBlock } from './code-block';
import { ZoomableImage } from './image-lightbox';
import type { DiagramTheme } from './mermaid-render';

type Rendered = { url: string } | { error: true };

/** Most diagrams kept; the oldest is dropped beyond this. */
const CACHE_LIMIT = 100;
const cache = new Map<string, Rendered>();

function cacheKey(theme: DiagramTheme, code: string): string {
  return `${theme}\n${code}`;
}

function remember(key: string, rendered: Rendered): void {
  cache.set(key, rendered);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
}

/** The diagram for `code`, or the code while it renders or when it cannot. */
export function MermaidDiagram(props: { code: string }): ReactNode {
  const t = useT();
  const theme = useDocumentTheme();
  const key = cacheKey(theme, props.code);
  const [state, setState] = useState<{ key: string; rendered: Rendered | null }>(() => ({
    key,
    rendered: cache.get(key) ?? null,
  }));
  const rendered = state.key === key ? state.rendered : (cache.get(key) ?? null);
  useEffect(() => {
    if (cache.has(key)) return undefined;
    let live = true;
    void import('./mermaid-render')
      .then((module) => module.renderMermaidImage(props.code, theme))
      .then(
        (url): Rendered => ({ url }),
        (): Rendered => ({ error: true }),
      )
      .then((result) => {
        remember(key, result);
        if (live) setState({ key, rendered: result });
      });
    return () => {
      live = false;
    };
  }, [key, props.code, theme]);
  if (rendered !== null && 'url' in rendered) {
    return (
      <figure className="mermaid-diagram">
        <ZoomableImage
          image={{
            src: rendered.url,
            alt: t('markdown.diagram'),
            download: { href: rendered.url, name: 'diagram.svg' },
            dark: theme === 'dark',
          }}
        >
          <img
            src={rendered.url}
            alt={t('markdown.diagram')}
            data-testid="mermaid-diagram"
            data-theme={theme}
          />
        </ZoomableImage>
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

/** The theme shown (`data-theme` on `<html>`, set by `features/theme/theme.ts`), followed live. */
function useDocumentTheme(): DiagramTheme {
  return useSyncExternalStore(subscribeToTheme, documentTheme, () => 'light');
}

function documentTheme(): DiagramTheme {
  return document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
}

const themeListeners = new Set<() => void>();
let themeObserver: MutationObserver | null = null;

function subscribeToTheme(listener: () => void): () => void {
  themeListeners.add(listener);
  if (themeObserver === null) {
    themeObserver = new MutationObserver(() => {
      for (const notify of themeListeners) notify();
    });
    themeObserver.observe(document.documentElement, { attributeFilter: ['data-theme'] });
  }
  return () => {
    themeListeners.delete(listener);
    if (themeListeners.size === 0) {
      themeObserver?.disconnect();
      themeObserver = null;
    }
  };
}
