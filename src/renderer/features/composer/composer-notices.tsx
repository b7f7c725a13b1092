/**
 * What the composer says about its limits, above the text box: text that would make the message
 * too long (with "Attach as a file" when one file may hold it, and "Insert the first N
 * characters"), and the files it did not take, each naming the file and why. Nothing here
 * blocks: each note can be dismissed, and the next addition replaces it.
 */
import type { ReactNode } from 'react';
import { MAX_ATTACHMENT_BYTES, MAX_MESSAGE_CHARS } from '../../../shared/ipc/limits';
import { CloseIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import type { AttachmentProblem } from '../../state/attachment-rules';
import type { OversizedText } from '../../state/message-text-rules';
import { useApp } from '../../state/store';
import { formatBytes } from '../../../shared/byte-size';

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
  /** Its size as a UTF-8 text file. */
  bytes: number;
  room: number;
  onAttach(): void;
  onInsertPart(): void;
  onDismiss(): void;
}): ReactNode {
  const t = useT();
  const number = useNumberFormat();
  const { oversized } = props;
  const { bytes } = props;
  const attachable = bytes <= MAX_ATTACHMENT_BYTES;
  const whole = oversized.length > MAX_MESSAGE_CHARS;
  const params = {
    size: formatBytes(bytes),
    chars: number(oversized.length),
    total: number(oversized.total),
    max: number(MAX_MESSAGE_CHARS),
    maxFile: MAX_ATTACHMENT_BYTES / MIB,
  };
  const message = !attachable
    ? t('composer.paste.tooLargeToAttach', params)
    : t(whole ? 'composer.paste.tooLong' : 'composer.paste.wouldOverflow', params);
  return (
    <div className="composer-notice" role="alert" data-testid="composer-paste-notice">
      <div className="composer-notice-body">
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
        </div>
      </div>
      <DismissButton testId="composer-paste-dismiss" onDismiss={props.onDismiss} />
    </div>
  );
}

/** The × that closes a note. */
function DismissButton(props: { testId: string; onDismiss(): void }): ReactNode {
  const t = useT();
  return (
    <button
      type="button"
      className="notice-dismiss"
      data-testid={props.testId}
      aria-label={t('composer.noticeDismiss')}
      title={t('composer.noticeDismiss')}
      onClick={props.onDismiss}
    >
      <CloseIcon />
    </button>
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
  const only = props.refusals.length === 1 ? props.refusals[0] : undefined;
  return (
    <div className="composer-notice" role="alert" data-testid="composer-refusal-notice">
      {only !== undefined ? (
        <p className="composer-notice-text" data-testid="composer-refusal">
          {t(only.key, only.params)}
        </p>
      ) : (
        <ul className="composer-notice-list">
          {listed.map((refusal, index) => (
            <li key={index} data-testid="composer-refusal">
              {t(refusal.key, refusal.params)}
            </li>
          ))}
          {more > 0 && <li>{t('attach.moreRefused', { count: more })}</li>}
        </ul>
      )}
      <DismissButton testId="composer-refusal-dismiss" onDismiss={props.onDismiss} />
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
