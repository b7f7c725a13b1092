/**
 * The `?` help sheet: a modal dialog listing the shortcuts with this platform's keys (⌘ on a Mac,
 * Ctrl elsewhere). Focus is trapped inside; Esc, the close button or a click on the backdrop
 * closes it (`use-modal-dialog.ts`).
 */
import type { ReactNode } from 'react';
import { ModalDialog } from '../../components/modal-dialog';
import { useT } from '../../i18n/use-t';
import { SHORTCUT_ORDER, shortcutKeys } from './shortcut-keys';

/** The sheet; `browser` adds the note that a browser tab keeps some keys. */
export function ShortcutHelp(props: {
  mac: boolean;
  browser: boolean;
  onClose(): void;
}): ReactNode {
  const t = useT();
  return (
    <ModalDialog
      title={t('shortcuts.title')}
      closeLabel={t('shortcuts.close')}
      onClose={props.onClose}
      className="dialog-card shortcut-help"
      testId="shortcut-help"
      closeTestId="shortcut-help-close"
    >
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
        {/* The artifact viewer's own keys, while it is open (features/artifacts). */}
        <div className="shortcut-row" data-testid="shortcut-row-artifact-step">
          <dt>
            <kbd>[</kbd>
            <kbd>]</kbd>
          </dt>
          <dd>{t('artifact.keysStep')}</dd>
        </div>
        <div className="shortcut-row" data-testid="shortcut-row-artifact-close">
          <dt>
            {shortcutKeys('stop', props.mac).map((key, index) => (
              <kbd key={index}>{key}</kbd>
            ))}
          </dt>
          <dd>{t('artifact.keysClose')}</dd>
        </div>
      </dl>
      {props.browser && !props.mac && <p className="muted">{t('shortcuts.browserNote')}</p>}
    </ModalDialog>
  );
}
