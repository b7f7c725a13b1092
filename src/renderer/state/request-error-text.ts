/**
 * A failed call as the error banner says it. The host's dispatcher refuses a payload its zod
 * schema rejects with `invalid-input` and "Invalid request for METHOD: PATH: zod text"; that text
 * is for logs, not people, so the banner says in words what the limit is (the composer checks the
 * same limits first, so this is the last line of defence). Every other message — a handler's
 * own, already written for the user — is shown as it came.
 */
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENT_NAME_CHARS,
  MAX_ATTACHMENTS,
  MAX_ATTACHMENTS_TOTAL_BYTES,
  MAX_MESSAGE_CHARS,
} from '../../shared/ipc/limits';
import type { Locale, MessageKey } from '../i18n/i18n';
import { translate } from '../i18n/i18n';

const MIB = 1024 * 1024;
/** The dispatcher's wording of a schema refusal (`dispatcher.ts`). */
const SCHEMA_REFUSAL = /^Invalid request for ([\w.]+): ([\s\S]*)$/;

/** What a refusal of `chat.send`'s field `path` means, or null for no special wording. */
function chatSendRefusal(
  path: string,
  detail: string,
): { key: MessageKey; params: Record<string, number> } | null {
  if (path === 'text') return { key: 'request.textTooLong', params: { max: MAX_MESSAGE_CHARS } };
  if (/^attachments\.\d+\.name$/.test(path)) {
    return { key: 'request.attachmentName', params: { max: MAX_ATTACHMENT_NAME_CHARS } };
  }
  if (/^attachments\.\d+\.dataBase64$/.test(path)) {
    return { key: 'request.attachmentTooLarge', params: { max: MAX_ATTACHMENT_BYTES / MIB } };
  }
  if (path === 'attachments') {
    return /together/.test(detail)
      ? { key: 'request.attachmentsTotal', params: { max: MAX_ATTACHMENTS_TOTAL_BYTES / MIB } }
      : { key: 'request.attachmentTooMany', params: { max: MAX_ATTACHMENTS } };
  }
  return null;
}

/** The words for `error` in `locale`: a schema refusal said plainly, anything else as it came. */
export function requestErrorText(error: unknown, locale: Locale): string {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  const refusal = code === 'invalid-input' ? SCHEMA_REFUSAL.exec(message) : null;
  if (refusal === null) return message;
  const method = refusal[1] ?? '';
  const firstIssue = (refusal[2] ?? '').split('; ')[0] ?? '';
  const separator = firstIssue.indexOf(': ');
  const path = separator === -1 ? '' : firstIssue.slice(0, separator);
  const detail = separator === -1 ? firstIssue : firstIssue.slice(separator + 2);
  const meaning = method === 'chat.send' ? chatSendRefusal(path, detail) : null;
  if (meaning === null) return translate(locale, 'request.invalid');
  const numbers = new Intl.NumberFormat(locale);
  const params = Object.fromEntries(
    Object.entries(meaning.params).map(([name, value]) => [name, numbers.format(value)]),
  );
  return translate(locale, meaning.key, params);
}
