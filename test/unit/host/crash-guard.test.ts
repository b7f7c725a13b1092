/**
 * The crash guard of the long-running hosts (issue 11, finding 2): an error nobody listened for
 * is logged and the process keeps running; a burst of them ends in `onFatal` once. A real child
 * process shows the guard holding against an unhandled 'error' event.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installCrashGuard } from '../../../src/main/host/crash-guard';
import { recordingLogger } from '../../support/turn-harness';

describe('crash guard', () => {
  it('logs caught errors and keeps going; a burst calls onFatal once', () => {
    const target = new EventEmitter();
    const logger = recordingLogger();
    const fatal: unknown[] = [];
    const notices: string[] = [];
    let clock = 0;
    const remove = installCrashGuard({
      logger,
      onFatal: (error) => fatal.push(error),
      notice: (text) => notices.push(text),
      maxPerMinute: 3,
      now: () => clock,
      target: target as never,
    });
    target.emit('uncaughtException', new Error('connect ENETUNREACH 2a01::1:80'));
    target.emit('unhandledRejection', 'a string reason');
    expect(fatal).toEqual([]);
    expect(notices[0]).toContain('ENETUNREACH');
    // Spread over time: never fatal.
    for (let index = 0; index < 5; index += 1) {
      clock += 61_000;
      target.emit('uncaughtException', new Error(`spread ${index}`));
    }
    expect(fatal).toEqual([]);
    // A burst: fatal once.
    for (let index = 0; index < 6; index += 1) target.emit('uncaughtException', new Error('burst'));
    expect(fatal).toHaveLength(1);
    remove();
    expect(target.listenerCount('uncaughtException')).toBe(0);
    expect(target.listenerCount('unhandledRejection')).toBe(0);
  });

  it('keeps a real process alive through an unhandled error event', () => {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'support', 'crash-guard-child.ts')],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stdout).toContain('still alive after the error');
    expect(child.status).toBe(0);
  });
});
