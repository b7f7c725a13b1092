/**
 * A fenced code block of an answer: light syntax highlighting (`code-highlight.ts`, spans around
 * plain text — never HTML) and a copy button.
 */
import type { ReactNode } from 'react';
import { useEffect, useMemo, useState } from 'react';
import { useT } from '../i18n/use-t';
import { copyText } from './clipboard';
import { highlight } from './code-highlight';

/** How long "Copied" stays on the button. */
const COPIED_MS = 1500;

/** One code block with its language label and copy button. */
export function CodeBlock(props: { language: string; text: string }): ReactNode {
  const tokens = useMemo(() => highlight(props.text, props.language), [props.text, props.language]);
  return (
    <div className="code-block-frame">
      <div className="code-block-bar">
        <span className="code-language">{props.language}</span>
        <CopyButton text={props.text} />
      </div>
      <pre className="code-block" data-language={props.language || undefined}>
        <code>
          {tokens.map((token, index) =>
            token.kind === 'plain' ? (
              token.text
            ) : (
              <span key={index} className={`tok-${token.kind}`}>
                {token.text}
              </span>
            ),
          )}
        </code>
      </pre>
    </div>
  );
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
