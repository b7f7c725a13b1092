/**
 * A fenced code block of an answer: syntax highlighting (`code-highlighter.ts`, loaded lazily;
 * spans around plain text — never HTML; the plain text shows until it is loaded) and a copy
 * button.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import { CopyButton } from './copy-button';
import type { highlightCode } from './code-highlighter';

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
        <CopyButton
          text={() => props.text}
          label="code.copy"
          className="code-copy"
          testId="code-copy"
        />
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
