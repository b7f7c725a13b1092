/** The composer: a text area (Enter sends, Shift+Enter breaks the line), mode, Send or Stop. */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { TurnMode } from '../../../shared/dto';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

const MODES: readonly TurnMode[] = ['fast', 'normal', 'deep'];

/** The message box; Stop replaces Send while `runningTurnId` runs. */
export function Composer(props: { runningTurnId: string | null }): ReactNode {
  const t = useT();
  const [text, setText] = useState('');
  const send = useApp((state) => state.send);
  const stop = useApp((state) => state.stop);
  const mode = useApp((state) => state.mode);
  const setMode = useApp((state) => state.setMode);
  const sending = useApp((state) => state.sendingText !== null);
  const busy = sending || props.runningTurnId !== null;
  const submit = (): void => {
    if (busy || text.trim() === '') return;
    void send(text);
    setText('');
  };
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <textarea
        data-testid="composer-input"
        value={text}
        placeholder={t('composer.placeholder')}
        rows={3}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="composer-actions">
        <label className="mode-picker">
          <span>{t('composer.mode')}</span>
          <select
            data-testid="mode-picker"
            value={mode}
            onChange={(event) => setMode(event.target.value as TurnMode)}
          >
            {MODES.map((value) => (
              <option key={value} value={value}>
                {t(`mode.${value}`)}
              </option>
            ))}
          </select>
        </label>
        {props.runningTurnId !== null ? (
          <button
            type="button"
            className="button danger"
            data-testid="turn-stop"
            onClick={() => void stop(props.runningTurnId ?? '')}
          >
            ■ {t('composer.stop')}
          </button>
        ) : (
          <button
            type="submit"
            className="button primary"
            data-testid="composer-send"
            disabled={busy || text.trim() === ''}
          >
            {t('composer.send')}
          </button>
        )}
      </div>
    </form>
  );
}
