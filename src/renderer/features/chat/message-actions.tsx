/**
 * The toolbar of a finished message: icon buttons (each with an accessible name and the same text
 * as its tooltip) that show while the pointer is over the message or focus is inside it, always on
 * touch screens and narrow windows, and always for a message that needs attention (`pinned`: a
 * failed answer with Retry). They are only faded out, never removed, so Tab always reaches them.
 *
 * Built in: copy as Markdown (the text the model wrote) or as plain text (what the page shows,
 * without markup), each saying "Copied" for a moment; delete a question with its answer, after a
 * confirming second click. More actions go in as children (`ToolbarButton`s, or any control such
 * as a version switcher): `leading` before the built-in ones, `children` after them.
 */
import type { ReactNode, RefObject } from 'react';
import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { markdownToText } from '../../components/markdown-text';
import { CopyIcon, CopyTextIcon, DeleteIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';

/** How long the delete button waits for its confirming second click. */
const CONFIRM_MS = 4000;

/** One icon button of the toolbar: `label` is its accessible name and its tooltip. */
export function ToolbarButton(props: {
  label: string;
  icon: ReactNode;
  testId: string;
  onClick: () => void;
  /** `danger`: a destructive step waiting for its confirmation. */
  tone?: 'danger';
  disabled?: boolean;
  /** Shown beside the icon (a confirmation question, a count). */
  text?: string;
  /** A longer tooltip than the label. */
  tooltip?: string;
}): ReactNode {
  return (
    <button
      type="button"
      className={`message-action${props.tone === 'danger' ? ' danger' : ''}`}
      data-testid={props.testId}
      aria-label={props.label}
      title={props.tooltip ?? props.label}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      {props.icon}
      {props.text !== undefined && <span className="message-action-text">{props.text}</span>}
    </button>
  );
}

/** Copy as Markdown and, when `rendered` is given, as plain text; Delete when `onDelete`. */
export function MessageActions(props: {
  markdown: string;
  rendered?: RefObject<HTMLElement | null>;
  /** Deletes this question with its answer (asked to confirm first). */
  onDelete?: () => void;
  /** Keep the toolbar shown, not only on hover or focus. */
  pinned?: boolean;
  /** Controls before the built-in actions (a version switcher). */
  leading?: ReactNode;
  /** Further actions after the built-in ones (Retry, regenerate, edit). */
  children?: ReactNode;
}): ReactNode {
  const t = useT();
  return (
    <div
      className={`message-actions${props.pinned ? ' pinned' : ''}`}
      role="group"
      aria-label={t('message.toolbar')}
      data-testid="message-actions"
    >
      {props.leading}
      {props.markdown !== '' && (
        <CopyButton
          className="message-action"
          testId="message-copy"
          label="message.copy"
          icon={<CopyIcon />}
          text={() => props.markdown}
        />
      )}
      {props.markdown !== '' && props.rendered && (
        <CopyButton
          className="message-action"
          testId="message-copy-text"
          label="message.copyText"
          icon={<CopyTextIcon />}
          text={() => shownText(props.rendered?.current ?? null, props.markdown)}
        />
      )}
      {props.children}
      {props.onDelete && <DeleteAction onDelete={props.onDelete} />}
    </div>
  );
}

/** "Delete", then "Delete question and answer?" for a moment: a second click deletes. */
function DeleteAction(props: { onDelete: () => void }): ReactNode {
  const t = useT();
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!asking) return undefined;
    const timer = window.setTimeout(() => setAsking(false), CONFIRM_MS);
    return () => window.clearTimeout(timer);
  }, [asking]);
  const label = t(asking ? 'message.deleteConfirm' : 'message.delete');
  return (
    <ToolbarButton
      label={label}
      icon={<DeleteIcon />}
      testId={asking ? 'message-delete-confirm' : 'message-delete'}
      onClick={() => (asking ? props.onDelete() : setAsking(true))}
      {...(asking ? { tone: 'danger' as const, text: label } : {})}
    />
  );
}

/** The answer's text as shown (its Markdown blocks only, not tool cards or files). */
/**
 * The plain text of the answer: what the page shows, or, when a very long answer shows only its
 * end (`markdown-window.ts`), the text of all of its Markdown.
 */
function shownText(body: HTMLElement | null, markdown: string): string {
  if (body?.querySelector('.markdown[data-partial]')) return markdownToText(markdown);
  return renderedText(body) ?? markdown;
}

function renderedText(body: HTMLElement | null): string | null {
  if (body === null) return null;
  const blocks = Array.from(body.querySelectorAll<HTMLElement>('.markdown'));
  const text = blocks
    .map((block) => block.innerText.trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
  return text === '' ? null : text;
}
