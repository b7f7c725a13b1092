/**
 * The `?` help sheet: a modal dialog listing the shortcuts with this platform's keys (⌘ on a Mac,
 * Ctrl elsewhere). Focus is trapped inside; Esc, the close button or a click on the backdrop
 * closes it (`use-modal-dialog.ts`).
 */
import type { ReactNode } from 'react';
import { useRef } from 'react';
import { useModalDialog } from '../../components/use-modal-dialog';
import { useT } from '../../i18n/use-t';
import { SHORTCUT_ORDER, shortcutKeys } from './shortcut-keys';

/** The sheet; `browser` adds the note that a browser tab keeps some keys. */
export function ShortcutHelp(props: {
  mac: boolean;
  browser: boolean;
  onClose(): void;
}): ReactNode {
  const t = useT();
  const dialog = useRef<HTMLDivElement>(null);
  const backdrop = useModalDialog(dialog, props.onClose);
  return (
    <div className="overlay dialog-overlay" {...backdrop}>
      <div
        ref={dialog}
        className="dialog-card shortcut-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcut-help-title"
        tabIndex={-1}
        data-testid="shortcut-help"
      >
        <header className="panel-header">
          <h1 id="shortcut-help-title">{t('shortcuts.title')}</h1>
          <button
            type="button"
            className="button ghost"
            data-testid="shortcut-help-close"
            onClick={props.onClose}
          >
            ✕ {t('shortcuts.close')}
          </button>
        </header>
        <dl className="shortcut-list">
          {SHORTCUT_ORDER.map((action) => (
            <div key={action} className="shortcut-row" data-testid={`shortcut-row-${action}`}>
              <dt>
                {shortcutKeys(action, props.mac).map((key, index) => (
                  <kbd key={index}>{key}</kbd>
                ))}
              </dt>
              <dd>{t(`shortcuts.${action}`)}</dd>
            </div>
          ))}
        </dl>
        {props.browser && !props.mac && <p className="muted">{t('shortcuts.browserNote')}</p>}
      </div>
    </div>
  );
}
