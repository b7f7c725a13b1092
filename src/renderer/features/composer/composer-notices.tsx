/**
 * What the composer says about its limits, above the text box: text that would make the message
 * too long (with "Attach as a file" when one file may hold it, and "Insert the first N
 * characters"), and the files it did not take, each naming the file and why. Nothing here
 * blocks: each note can be dismissed, and the next addition replaces it.
 */
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { MAX_ATTACHMENT_BYTES, MAX_MESSAGE_CHARS } from '../../../shared/ipc/limits';
import { useT } from '../../i18n/use-t';
import type { AttachmentProblem } from '../../state/attachment-rules';
import { formatSize } from '../../state/attachment-rules';
import type { OversizedText } from '../../state/message-text-rules';
import { utf8Length } from '../../state/message-text-rules';
import { useApp } from '../../state/store';

/** Refusals listed one by one before the rest are counted. */
const LISTED_REFUSALS = 3;
const MIB = 1024 * 1024;

/** Formats whole numbers the way the UI language writes them (100,000 / 100,000). */
export function useNumberFormat(): (value: number) => string {
  const locale = useApp((state) => state.locale);
  const format = new Intl.NumberFormat(locale);
  return (value) => format.format(value);
}

/** The oversized-text note; `room` is how many characters would still fit. */
export function OversizedTextNotice(props: {
  oversized: OversizedText;
  room: number;
  onAttach(): void;
  onInsertPart(): void;
  onDismiss(): void;
}): ReactNode {
  const t = useT();
  const number = useNumberFormat();
  const { oversized } = props;
  // Megabytes of text: counted once per note, not on every render.
  const bytes = useMemo(() => utf8Length(oversized.text), [oversized.text]);
  const attachable = bytes <= MAX_ATTACHMENT_BYTES;
  const whole = oversized.text.length > MAX_MESSAGE_CHARS;
  const params = {
    size: formatSize(bytes),
    chars: number(oversized.text.length),
    total: number(oversized.total),
    max: number(MAX_MESSAGE_CHARS),
    maxFile: MAX_ATTACHMENT_BYTES / MIB,
  };
  const message = !attachable
    ? t('composer.paste.tooLargeToAttach', params)
    : t(whole ? 'composer.paste.tooLong' : 'composer.paste.wouldOverflow', params);
  return (
    <div className="composer-notice" role="alert" data-testid="composer-paste-notice">
      <p className="composer-notice-text">{message}</p>
      <div className="composer-notice-actions">
        {attachable && (
          <button
            type="button"
            className="button primary"
            data-testid="composer-paste-attach"
            onClick={props.onAttach}
          >
            {t('composer.paste.attach')}
          </button>
        )}
        {props.room > 0 && (
          <button
            type="button"
            className="button ghost"
            data-testid="composer-paste-insert"
            onClick={props.onInsertPart}
          >
            {t('composer.paste.insertPart', { count: number(props.room) })}
          </button>
        )}
        <button
          type="button"
          className="button ghost"
          data-testid="composer-paste-dismiss"
          onClick={props.onDismiss}
        >
          {t('composer.noticeDismiss')}
        </button>
      </div>
    </div>
  );
}

/** The files the latest addition did not take, and why. */
export function RefusalNotice(props: {
  refusals: readonly AttachmentProblem[];
  onDismiss(): void;
}): ReactNode {
  const t = useT();
  if (props.refusals.length === 0) return null;
  const listed = props.refusals.slice(0, LISTED_REFUSALS);
  const more = props.refusals.length - listed.length;
  return (
    <div className="composer-notice" role="alert" data-testid="composer-refusal-notice">
      <ul className="composer-notice-list">
        {listed.map((refusal, index) => (
          <li key={index} data-testid="composer-refusal">
            {t(refusal.key, refusal.params)}
          </li>
        ))}
        {more > 0 && <li>{t('attach.moreRefused', { count: more })}</li>}
      </ul>
      <div className="composer-notice-actions">
        <button
          type="button"
          className="button ghost"
          data-testid="composer-refusal-dismiss"
          onClick={props.onDismiss}
        >
          {t('composer.noticeDismiss')}
        </button>
      </div>
    </div>
  );
}

/** "98,500 / 100,000 characters" once the text nears the limit; a plain sentence at it. */
export function LengthCounter(props: { length: number }): ReactNode {
  const t = useT();
  const number = useNumberFormat();
  if (props.length < MAX_MESSAGE_CHARS * 0.9) return null;
  const full = props.length >= MAX_MESSAGE_CHARS;
  return (
    <span
      className={`composer-count${full ? ' full' : ''}`}
      data-testid="composer-count"
      aria-live="polite"
    >
      {full
        ? t('composer.full', { max: number(MAX_MESSAGE_CHARS) })
        : t('composer.count', { count: number(props.length), max: number(MAX_MESSAGE_CHARS) })}
    </span>
  );
}
