/**
 * The actions under a finished message: copy it as Markdown (the text the model wrote) or as plain
 * text (what the page shows, without markup). Each button says "Copied" for a moment.
 */
import type { ReactNode, RefObject } from 'react';
import { CopyButton } from '../../components/copy-button';

/** Copy as Markdown and, when `rendered` is given, as plain text. */
export function MessageActions(props: {
  markdown: string;
  rendered?: RefObject<HTMLElement | null>;
}): ReactNode {
  return (
    <span className="message-actions" data-testid="message-actions">
      <CopyButton
        className="message-action"
        testId="message-copy"
        label="message.copy"
        text={() => props.markdown}
      />
      {props.rendered && (
        <CopyButton
          className="message-action"
          testId="message-copy-text"
          label="message.copyText"
          text={() => renderedText(props.rendered?.current ?? null) ?? props.markdown}
        />
      )}
    </span>
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
