/**
 * The browser's check of what `aivory serve` sends over `/ws` (see ws-frames.ts), by hand rather
 * than with zod so the renderer bundle carries no schema library: a frame is a result
 * (`{ type: 'result', id, result: { ok: true, value } | { ok: false, error: { code, message } } }`)
 * or an event (`{ type: 'event', name, payload }`); anything else is null and dropped.
 */
import type { HostFrame } from './ws-frames';

/** The frame, or null when `value` is not one. */
export function parseHostFrame(value: unknown): HostFrame | null {
  if (!isRecord(value)) return null;
  if (value.type === 'event') {
    return typeof value.name === 'string'
      ? { type: 'event', name: value.name, payload: value.payload }
      : null;
  }
  if (value.type !== 'result' || typeof value.id !== 'number') return null;
  const result = value.result;
  if (!isRecord(result)) return null;
  if (result.ok === true)
    return { type: 'result', id: value.id, result: { ok: true, value: result.value } };
  const error = result.error;
  if (
    result.ok === false &&
    isRecord(error) &&
    typeof error.code === 'string' &&
    typeof error.message === 'string'
  ) {
    return {
      type: 'result',
      id: value.id,
      result: { ok: false, error: { code: error.code, message: error.message } },
    };
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
