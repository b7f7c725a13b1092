/**
 * Renaming a conversation in place (its sidebar row, the chat header's title): a text field over
 * the title, its text selected. Enter or leaving the field saves, Esc cancels; an empty or
 * unchanged title saves nothing. `onDone` gets the new title, or null when nothing changes.
 */
import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { MAX_TITLE_CHARS } from '../../../shared/ipc/limits';
import { useT } from '../../i18n/use-t';

export function TitleEditor(props: {
  initial: string;
  className: string;
  testId: string;
  onDone(title: string | null): void;
}): ReactNode {
  const t = useT();
  const field = useRef<HTMLInputElement>(null);
  // Enter, Esc and the blur that follows them end the edit once.
  const done = useRef(false);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  const finish = (title: string | null): void => {
    if (done.current) return;
    done.current = true;
    const trimmed = title?.trim() ?? '';
    props.onDone(trimmed === '' || trimmed === props.initial ? null : trimmed);
  };
  return (
    <input
      ref={field}
      className={props.className}
      data-testid={props.testId}
      aria-label={t('rename.label')}
      title={t('rename.hint')}
      defaultValue={props.initial}
      maxLength={MAX_TITLE_CHARS}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
          event.preventDefault();
          finish(event.currentTarget.value);
        } else if (event.key === 'Escape') {
          // Esc here cancels the rename only (it does not stop an answer or close a panel).
          event.preventDefault();
          event.stopPropagation();
          finish(null);
        }
      }}
      onBlur={(event) => finish(event.currentTarget.value)}
    />
  );
}
