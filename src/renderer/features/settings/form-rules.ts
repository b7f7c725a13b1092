/**
 * Field checks of the settings forms (shown next to the field, in the user's language) and the
 * mapping of a host error to the field it names, so a server-side refusal lands where the user
 * typed the value. Pure; no React.
 */
import type { MessageKey } from '../../i18n/i18n';
import { bareHostname, isLoopbackHost, localNameLabel } from '../../../shared/http-url';

/** A translated message key with its parameters, or null when the value is fine. */
export interface FieldProblem {
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** An integer within [min, max], typed as text. */
export function checkInteger(text: string, min: number, max: number): FieldProblem | null {
  const trimmed = text.trim();
  if (trimmed === '') return { key: 'form.required' };
  if (!/^-?\d+$/.test(trimmed)) return { key: 'form.number' };
  const value = Number(trimmed);
  if (value < min || value > max) return { key: 'form.range', params: { min, max } };
  return null;
}

/** An http(s) address; empty passes unless `required`. */
export function checkUrl(text: string, required = false): FieldProblem | null {
  const trimmed = text.trim();
  if (trimmed === '') return required ? { key: 'form.required' } : null;
  return /^https?:\/\/[^\s/]+/i.test(trimmed) ? null : { key: 'form.url' };
}

/** Non-blank text. */
export function checkRequired(text: string): FieldProblem | null {
  return text.trim() === '' ? { key: 'form.required' } : null;
}

/**
 * The field a host error message is about: the first field whose name or one of its aliases
 * appears in the message as a word (`values.execTimeoutSeconds: …`, `Invalid setting
 * sandbox.idleReapSeconds: …`, `A header must look like …`). Null when none does.
 */
export function fieldOfError(
  message: string,
  fields: Readonly<Record<string, readonly string[]>>,
): string | null {
  const lower = message.toLowerCase();
  for (const [field, aliases] of Object.entries(fields)) {
    for (const word of [field, ...aliases]) {
      const pattern = new RegExp(`(^|[^a-z0-9])${escape(word.toLowerCase())}([^a-z0-9]|$)`);
      if (pattern.test(lower)) return field;
    }
  }
  return null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The message of anything thrown by a bridge call. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Hosts a service may only reach as typed (loopback, private LAN, `.local`), for the notice. */
export function localHostOf(url: string): string | null {
  let host: string;
  try {
    host = bareHostname(new URL(url.trim()).hostname);
  } catch {
    return null;
  }
  const local =
    localNameLabel(host) !== null ||
    isLoopbackHost(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^f[cd][0-9a-f]{2}:/i.test(host) ||
    /^fe80:/i.test(host);
  return local ? host : null;
}
