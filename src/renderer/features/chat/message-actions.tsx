/**
 * The actions under a finished message: copy it as Markdown (the text the model wrote) or as plain
 * text (what the page shows, without markup). Each button says "Copied" for a moment.
 */
import type { ReactNode, RefObject } from 'react';
import { useEffect, useState } from 'react';
import { copyText } from '../../components/clipboard';
import { useT } from '../../i18n/use-t';

/** How long "Copied" stays on the button. */
const COPIED_MS = 1500;

/** Copy as Markdown and, when `rendered` is given, as plain text. */
export function MessageActions(props: {
  markdown: string;
  rendered?: RefObject<HTMLElement | null>;
}): ReactNode {
  return (
    <span className="message-actions" data-testid="message-actions">
      <CopyAction testId="message-copy" label="message.copy" text={() => props.markdown} />
      {props.rendered && (
        <CopyAction
          testId="message-copy-text"
          label="message.copyText"
          text={() => renderedText(props.rendered?.current ?? null) ?? props.markdown}
        />
      )}
    </span>
  );
}

function CopyAction(props: {
  testId: string;
  label: 'message.copy' | 'message.copyText';
  text: () => string;
}): ReactNode {
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
      className="message-action"
      data-testid={props.testId}
      data-state={state}
      onClick={() => {
        void copyText(props.text()).then((copied) => setState(copied ? 'copied' : 'failed'));
      }}
    >
      {t(state === 'copied' ? 'code.copied' : state === 'failed' ? 'code.copyFailed' : props.label)}
    </button>
  );
}

/** The answer's text as shown (its Markdown blocks only, not tool cards or files). */
function renderedText(body: HTMLElement | null): string | null {
  if (body === null) return null;
  const blocks = Array.from(body.querySelectorAll<HTMLElement>('.markdown'));
  const text = blocks
    .map((block) => block.innerText.trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
  return text === '' ? null : text;
}
