/**
 * Asking the user to confirm, inside the app: Electron implements neither `window.confirm` nor
 * `window.prompt` (and the lint rule in eslint.config.js keeps them out). `askConfirm(question)`
 * resolves true when the user confirms and false when they cancel (Cancel, Esc, a click beside the
 * card). One question at a time: a new one answers the open one "no". `<ConfirmDialogHost />`,
 * mounted once by the app shell, shows the open question on `ModalDialog`.
 */
import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import type { Translate } from '../i18n/i18n';
import { useT } from '../i18n/use-t';
import { ModalDialog } from './modal-dialog';

export interface ConfirmQuestion {
  title: string;
  /** The sentence under the title (what happens, whether it can be undone). */
  message: string;
  /** The confirming button's text ("Delete", "Remove"). */
  confirmLabel: string;
  /** A destructive action: the button is red and Cancel has the focus at first. */
  danger?: boolean;
}

interface Open extends ConfirmQuestion {
  answer(confirmed: boolean): void;
}

let open: Open | null = null;
const listeners = new Set<() => void>();

function publish(next: Open | null): void {
  open = next;
  for (const listener of listeners) listener();
}

/** Shows the question; resolves with the user's answer. */
export function askConfirm(question: ConfirmQuestion): Promise<boolean> {
  open?.answer(false);
  return new Promise<boolean>((resolve) => {
    const asked: Open = {
      ...question,
      answer(confirmed) {
        if (open === asked) publish(null);
        resolve(confirmed);
      },
    };
    publish(asked);
  });
}

/** "Remove “name”? This cannot be undone.", the settings pages' question before removing a thing. */
export function askRemove(t: Translate, name: string): Promise<boolean> {
  return askConfirm({
    title: t('dialog.removeTitle'),
    message: t('form.confirmRemove', { name }),
    confirmLabel: t('form.remove'),
    danger: true,
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The open question, if any (mounted once, by the app shell). */
export function ConfirmDialogHost(): ReactNode {
  const t = useT();
  const question = useSyncExternalStore(
    subscribe,
    () => open,
    () => null,
  );
  if (question === null) return null;
  const danger = question.danger === true;
  return (
    <ModalDialog
      title={question.title}
      closeLabel={t('dialog.cancel')}
      onClose={() => question.answer(false)}
      className="dialog-card confirm-dialog"
      testId="confirm-dialog"
      closeTestId="confirm-dialog-close"
    >
      <p className="confirm-message">{question.message}</p>
      <div className="form-actions confirm-actions">
        <button
          type="button"
          className="button"
          data-testid="confirm-cancel"
          data-autofocus={danger ? true : undefined}
          onClick={() => question.answer(false)}
        >
          {t('dialog.cancel')}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'danger' : 'primary'}`}
          data-testid="confirm-accept"
          data-autofocus={danger ? undefined : true}
          onClick={() => question.answer(true)}
        >
          {question.confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
