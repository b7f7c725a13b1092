/**
 * The Logger port over a JSON-lines file (`<data dir>/logs/aivory.log`). Every line is redacted.
 * Writes are synchronous appends: log lines are few (not per token) and must survive a crash.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../core/ports';
import { redactText, redactValue } from '../../policy/redact';

/** Past this size the log is rotated once to `aivory.log.1`, bounding disk use. */
const MAX_LOG_BYTES = 5 * 1024 * 1024;

type Level = 'debug' | 'info' | 'warn' | 'error';

export function createFileLogger(path: string, options: { minLevel?: Level } = {}): Logger {
  const order: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };
  const minimum = order[options.minLevel ?? 'info'];
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const write = (level: Level, message: string, fields?: Record<string, unknown>): void => {
    if (order[level] < minimum) return;
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level,
      message: redactText(message),
      ...(fields ? { fields: redactValue(fields) } : {}),
    });
    try {
      if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) {
        renameSync(path, `${path}.1`);
      }
      appendFileSync(path, `${line}\n`, { mode: 0o600 });
    } catch {
      // A log that cannot be written must never take a turn down with it.
    }
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
