/**
 * A titled modal dialog: the backdrop, the card (`role="dialog"`, labelled by its title) and a
 * header with the title and a close button, wired by `use-modal-dialog.ts` (focus taken and given
 * back, Tab kept inside, Esc and a backdrop click close). With a `footer` (the dialog's buttons)
 * the card is framed: header and footer stay in view, the body between them scrolls, so the
 * buttons are never scrolled out of a short window.
 */
import type { ReactNode } from 'react';
import { useId, useRef } from 'react';
import { useModalDialog } from './use-modal-dialog';

export function ModalDialog(props: {
  title: string;
  closeLabel: string;
  onClose(): void;
  /** Classes of the card (e.g. `dialog-card shortcut-help`). */
  className: string;
  /** Classes of the backdrop; default `overlay dialog-overlay`. */
  overlayClassName?: string;
  /** `data-testid` of the card, of the backdrop and of the close button. */
  testId?: string;
  overlayTestId?: string;
  closeTestId: string;
  /** The buttons at the foot, always in view (the body scrolls above them). */
  footer?: ReactNode;
  children: ReactNode;
}): ReactNode {
  const dialog = useRef<HTMLDivElement>(null);
  const backdrop = useModalDialog(dialog, props.onClose);
  const titleId = useId();
  return (
    <div
      className={props.overlayClassName ?? 'overlay dialog-overlay'}
      data-testid={props.overlayTestId}
      {...backdrop}
    >
      <div
        ref={dialog}
        className={
          props.footer === undefined ? props.className : `${props.className} dialog-framed`
        }
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={props.testId}
      >
        <header className="panel-header">
          <h1 id={titleId}>{props.title}</h1>
          <button
            type="button"
            className="button ghost"
            data-testid={props.closeTestId}
            onClick={props.onClose}
          >
            ✕ {props.closeLabel}
          </button>
        </header>
        {props.footer === undefined ? (
          props.children
        ) : (
          <>
            <div className="dialog-body">{props.children}</div>
            <footer className="dialog-footer">{props.footer}</footer>
          </>
        )}
      </div>
    </div>
  );
}
