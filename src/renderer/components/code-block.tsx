/**
 * A fenced code block of an answer: syntax highlighting (`code-highlighter.ts`, loaded lazily;
 * spans around plain text — never HTML; the plain text shows until it is loaded) and a copy
 * button.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import { useT } from '../i18n/use-t';
import { copyText } from './clipboard';
import type { highlightCode } from './code-highlighter';

/** How long "Copied" stays on the button. */
const COPIED_MS = 1500;

interface Highlighter {
  highlightCode: typeof highlightCode;
}

let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./code-highlighter').then((module) => (loaded = module));
  return loading;
}

/** One code block with its language label and copy button. */
export function CodeBlock(props: { language: string; text: string }): ReactNode {
  const highlighter = useHighlighter(props.language !== '');
  const nodes = useMemo(
    () => highlighter?.highlightCode(props.text, props.language) ?? null,
    [highlighter, props.text, props.language],
  );
  return (
    <div className="code-block-frame">
      <div className="code-block-bar">
        <span className="code-language">{props.language}</span>
        <CopyButton text={props.text} />
      </div>
      <pre className="code-block" data-language={props.language || undefined}>
        <code className={nodes === null ? undefined : 'hljs'}>{nodes ?? props.text}</code>
      </pre>
    </div>
  );
}

/** The highlighter once loaded; starts loading it when `wanted`. */
function useHighlighter(wanted: boolean): Highlighter | null {
  const [highlighter, setHighlighter] = useState<Highlighter | null>(loaded);
  useEffect(() => {
    if (!wanted || highlighter !== null) return undefined;
    let live = true;
    void loadHighlighter().then((module) => {
      if (live) setHighlighter(module);
    });
    return () => {
      live = false;
    };
  }, [wanted, highlighter]);
  return highlighter;
}

function CopyButton(props: { text: string }): ReactNode {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = window.setTimeout(() => setState('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="code-copy"
      data-testid="code-copy"
      data-state={state}
      onClick={() => {
        void copyText(props.text).then((copied) => setState(copied ? 'copied' : 'failed'));
      }}
    >
      {t(state === 'copied' ? 'code.copied' : state === 'failed' ? 'code.copyFailed' : 'code.copy')}
    </button>
  );
}
