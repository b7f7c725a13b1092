/**
 * The actions under a finished message: copy it as Markdown (the text the model wrote) or as plain
 * text (what the page shows, without markup), each saying "Copied" for a moment; regenerate an
 * answer or edit a question (new versions, `message-versions.tsx`); and delete a question with its
 * answer, after a confirming second click.
 */
import type { ReactNode, RefObject } from 'react';
import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { useT } from '../../i18n/use-t';

/** How long the delete button waits for its confirming second click. */
const CONFIRM_MS = 4000;

/**
 * Copy as Markdown and, when `rendered` is given, as plain text; Regenerate, Edit and Delete when
 * their handlers are given.
 */
export function MessageActions(props: {
  markdown: string;
  rendered?: RefObject<HTMLElement | null>;
  /** Writes a new version of this answer. */
  onRegenerate?: () => void;
  /** Opens this question for editing. */
  onEdit?: () => void;
  /** Deletes this question with its answer (asked to confirm first). */
  onDelete?: () => void;
}): ReactNode {
  const t = useT();
  return (
    <span className="message-actions" data-testid="message-actions">
      {props.markdown !== '' && (
        <CopyButton
          className="message-action"
          testId="message-copy"
          label="message.copy"
          text={() => props.markdown}
        />
      )}
      {props.rendered && props.markdown !== '' && (
        <CopyButton
          className="message-action"
          testId="message-copy-text"
          label="message.copyText"
          text={() => renderedText(props.rendered?.current ?? null) ?? props.markdown}
        />
      )}
      {props.onRegenerate && (
        <button
          type="button"
          className="message-action"
          data-testid="message-regenerate"
          title={t('message.regenerateHelp')}
          onClick={props.onRegenerate}
        >
          {t('message.regenerate')}
        </button>
      )}
      {props.onEdit && (
        <button
          type="button"
          className="message-action"
          data-testid="message-edit"
          title={t('message.editHelp')}
          onClick={props.onEdit}
        >
          {t('message.edit')}
        </button>
      )}
      {props.onDelete && <DeleteAction onDelete={props.onDelete} />}
    </span>
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
  return (
    <button
      type="button"
      className={`message-action${asking ? ' danger' : ''}`}
      data-testid={asking ? 'message-delete-confirm' : 'message-delete'}
      onClick={() => (asking ? props.onDelete() : setAsking(true))}
    >
      {t(asking ? 'message.deleteConfirm' : 'message.delete')}
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
