/**
 * A fenced code block of an answer: syntax highlighting (`code-highlighter.ts` and the block's
 * grammar, each loaded lazily, only for a language we highlight; spans around plain text — never
 * HTML; the plain text shows until they are loaded) and a copy button.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import { CopyButton } from './copy-button';
import type * as CodeHighlighter from './code-highlighter';
import { grammarName } from './code-highlighter-languages';

type Highlighter = typeof CodeHighlighter;

let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./code-highlighter').then((module) => (loaded = module));
  return loading;
}

/** One code block with its language label and copy button. */
export function CodeBlock(props: {
  language: string;
  text: string;
  /** The copy button's test id (`code-copy` unless told: a code cell's is its own). */
  copyTestId?: string;
  /** Shown without highlighting (a long block still streaming: it would be highlighted per frame). */
  plain?: boolean;
}): ReactNode {
  const highlighter = useHighlighter(props.plain ? '' : props.language);
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
          testId={props.copyTestId ?? 'code-copy'}
        />
      </div>
      <pre className="code-block" data-language={props.language || undefined}>
        <code className={nodes === null ? undefined : 'hljs'}>{nodes ?? props.text}</code>
      </pre>
    </div>
  );
}

/**
 * The highlighter once it and `language`'s grammar are loaded (null before, and for a language
 * we do not highlight: nothing is loaded for those).
 */
function useHighlighter(language: string): Highlighter | null {
  const known = grammarName(language) !== null;
  const ready = (): Highlighter | null =>
    known && loaded?.grammarReady(language) === true ? loaded : null;
  const [state, setState] = useState<{ language: string; highlighter: Highlighter | null }>(() => ({
    language,
    highlighter: ready(),
  }));
  const highlighter = state.language === language ? state.highlighter : ready();
  useEffect(() => {
    if (!known || highlighter !== null) return undefined;
    let live = true;
    void loadHighlighter()
      .then(async (module) => ((await module.loadGrammar(language)) ? module : null))
      .then(
        (module) => {
          if (live) setState({ language, highlighter: module });
        },
        () => undefined, // A grammar that fails to load leaves the code plain.
      );
    return () => {
      live = false;
    };
  }, [known, language, highlighter]);
  return highlighter;
}
