/**
 * A server's log messages (`notifications/message`) and the level it is asked for
 * (`logging/setLevel`). Messages become one bounded line each, at most MAX_PER_SECOND a second
 * (the rest are counted and reported once in a line of their own), so a flooding server costs a
 * few writes, not a full disk or a busy loop.
 */
import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { McpLogEntry, McpLogLevel } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';

/** Longest logged message (characters). */
export const MAX_LOG_TEXT_CHARS = 2000;
/** Messages kept per second; the rest are counted. */
export const MAX_LOG_MESSAGES_PER_SECOND = 20;
const MAX_LOGGER_CHARS = 100;
/** Longest wait for the answer to logging/setLevel (it never fails the connection). */
export const SET_LEVEL_TIMEOUT_MS = 5000;

/** Hands each of the server's log messages to `onLog`, within the rate. */
export function forwardServerLog(
  client: Client,
  onLog: (entry: McpLogEntry) => void,
  now: () => number = Date.now,
): void {
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  let dropped = 0;
  client.setNotificationHandler('notifications/message', (notification) => {
    const at = now();
    if (at - windowStart >= 1000) {
      if (dropped > 0) {
        deliver(onLog, {
          level: 'warning',
          text: `${dropped} more log message(s) dropped: the server sent more than ${MAX_LOG_MESSAGES_PER_SECOND} a second`,
        });
      }
      windowStart = at;
      inWindow = 0;
      dropped = 0;
    }
    if (inWindow >= MAX_LOG_MESSAGES_PER_SECOND) {
      dropped += 1;
      return;
    }
    inWindow += 1;
    const { level, logger, data } = notification.params;
    const loggerName = typeof logger === 'string' ? oneLine(logger, MAX_LOGGER_CHARS) : '';
    deliver(onLog, {
      level,
      ...(loggerName === '' ? {} : { logger: loggerName }),
      text: oneLine(logText(data), MAX_LOG_TEXT_CHARS),
    });
  });
}

/** A message's data as text: a string as is, anything else as (bounded) JSON. */
function logText(data: unknown): string {
  if (typeof data === 'string') return data.slice(0, MAX_LOG_TEXT_CHARS * 2);
  try {
    return (JSON.stringify(data) ?? String(data)).slice(0, MAX_LOG_TEXT_CHARS * 2);
  } catch {
    return '(unprintable data)';
  }
}

function deliver(onLog: (entry: McpLogEntry) => void, entry: McpLogEntry): void {
  try {
    onLog(entry);
  } catch {
    // A log that cannot be written must not break the connection.
  }
}

/**
 * Asks the server for messages at `level` and above, when it offers logging. Best effort: a
 * server that refuses or does not answer keeps its default, and the connection is fine.
 */
export async function setServerLogLevel(
  client: Client,
  level: McpLogLevel,
  timeoutMs: number,
): Promise<boolean> {
  if (client.getServerCapabilities()?.logging === undefined) return false;
  try {
    await client.request({ method: 'logging/setLevel', params: { level } }, z.looseObject({}), {
      timeout: timeoutMs,
    });
    return true;
  } catch {
    return false;
  }
}
