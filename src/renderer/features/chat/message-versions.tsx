/**
 * Versions of a message: the "‹ 2/3 ›" switcher under a message that has other versions (a
 * regenerated answer, an edited question), and the inline editor of a question that is sent
 * again as a new version (the conversation forks there; the old branch stays a version).
 */
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { NextIcon, PreviousIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';

/** Where a message stands among its versions, and how to show a neighbour. */
export interface VersionSwitch {
  /** 1-based. */
  index: number;
  count: number;
  /** Shows that version; absent while a turn runs (switching would hide it). */
  show?: (index: number) => void;
}

/** "‹ 2/3 ›": previous / next version of a message. */
export function VersionSwitcher(props: { versions: VersionSwitch }): ReactNode {
  const t = useT();
  const { index, count, show } = props.versions;
  return (
    <span
      className="version-switcher"
      data-testid="version-switcher"
      role="group"
      aria-label={t('message.versionOf', { index, count })}
    >
      <button
        type="button"
        className="message-action version-step"
        data-testid="version-previous"
        aria-label={t('message.versionPrevious')}
        title={t('message.versionPrevious')}
        disabled={show === undefined || index <= 1}
        onClick={() => show?.(index - 1)}
      >
        <PreviousIcon />
      </button>
      <span className="version-count" data-testid="version-count">
        {index}/{count}
      </span>
      <button
        type="button"
        className="message-action version-step"
        data-testid="version-next"
        aria-label={t('message.versionNext')}
        title={t('message.versionNext')}
        disabled={show === undefined || index >= count}
        onClick={() => show?.(index + 1)}
      >
        <NextIcon />
      </button>
    </span>
  );
}

/**
 * A question being edited: its text in a box (Enter sends, Shift+Enter a new line, Esc cancels),
 * with Send and Cancel. Sending empty text is not possible.
 */
export function QuestionEditor(props: {
  text: string;
  onSend: (text: string) => void;
  onCancel: () => void;
}): ReactNode {
  const t = useT();
  const [text, setText] = useState(props.text);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const send = (): void => {
    if (text.trim() !== '') props.onSend(text.trim());
  };
  return (
    <div className="question-editor" data-testid="question-editor">
      <textarea
        ref={box}
        className="question-editor-text"
        data-testid="question-editor-text"
        aria-label={t('message.editLabel')}
        value={text}
        rows={Math.min(12, Math.max(2, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.nativeEvent.isComposing) return;
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onCancel();
          } else if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            send();
          }
        }}
      />
      <div className="question-editor-actions">
        <span className="muted question-editor-note">{t('message.editNote')}</span>
        <button
          type="button"
          className="button ghost"
          data-testid="question-editor-cancel"
          onClick={props.onCancel}
        >
          {t('message.editCancel')}
        </button>
        <button
          type="button"
          className="button primary"
          data-testid="question-editor-send"
          disabled={text.trim() === ''}
          onClick={send}
        >
          {t('message.editSend')}
        </button>
      </div>
    </div>
  );
}
