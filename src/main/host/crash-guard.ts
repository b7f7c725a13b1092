/**
 * The long-running hosts (`aivory serve`, the desktop main process) must not die because one
 * tool's socket or one MCP server emitted an error nobody listened for: Node's default is to end
 * the process, taking the user's open turns and a warm sandbox with it. The guard logs such an
 * error and keeps running. If they come in a burst (something is broken, not one bad request),
 * it gives up through `onFatal`, which closes the app context (archiving sandbox workspaces) and
 * exits, rather than spinning in a broken state.
 */
import type { Logger } from '../core/ports';

/** The part of `process` the guard uses (a fake in tests). */
export interface GuardedProcess {
  on(event: 'uncaughtException', listener: (error: unknown) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (error: unknown) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

export interface CrashGuardOptions {
  logger: Logger;
  /** Called once when errors come faster than `maxPerMinute`; should close and exit. */
  onFatal(error: unknown): void;
  /** Where a one-line notice goes (stderr of `aivory serve`). */
  notice?: (text: string) => void;
  maxPerMinute?: number;
  now?: () => number;
  target?: GuardedProcess;
}

const DEFAULT_MAX_PER_MINUTE = 10;

/** Installs the guard; returns its removal. */
export function installCrashGuard(options: CrashGuardOptions): () => void {
  const target = options.target ?? process;
  const now = options.now ?? Date.now;
  const max = options.maxPerMinute ?? DEFAULT_MAX_PER_MINUTE;
  const recent: number[] = [];
  let fatal = false;
  const caught = (kind: string) => (error: unknown) => {
    const at = now();
    recent.push(at);
    while (recent.length > 0 && (recent[0] ?? at) < at - 60_000) recent.shift();
    options.logger.error(`${kind} caught; the app keeps running`, {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    options.notice?.(
      `aivory: an internal error was caught and logged (${oneLine(error)}); still running.\n`,
    );
    if (recent.length > max && !fatal) {
      fatal = true;
      options.onFatal(error);
    }
  };
  const onException = caught('an uncaught exception');
  const onRejection = caught('an unhandled promise rejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
