/**
 * The window's recovery from a dead or hung renderer (`src/main/electron/crash-recovery.ts`),
 * driven through a fake webContents and clock: the Electron binary cannot run on the build
 * machines, so the real window is not started here. A gone renderer reloads the app's entry with
 * `?stopped=<reason>` (the page then shows the notice and reopens its conversation); a clean exit
 * (the window closing) does not; a hang is ended and reloaded after the grace period unless it
 * recovers; a page that keeps dying is not reloaded in a loop.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type {
  GoneDetails,
  RecoverableContents,
  RecoveryClock,
} from '../../../src/main/electron/crash-recovery';
import {
  installCrashRecovery,
  MAX_RELOADS,
  RELOAD_WINDOW_MS,
  stoppedUrl,
  UNRESPONSIVE_GRACE_MS,
} from '../../../src/main/electron/crash-recovery';
import { APP_ENTRY_URL } from '../../../src/main/electron/security';

/** A webContents that records loads and crashes; `gone` and `hang` play Chromium's events. */
class FakeContents extends EventEmitter implements RecoverableContents {
  readonly loaded: string[] = [];
  crashes = 0;
  destroyed = false;
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }
  forcefullyCrashRenderer(): void {
    this.crashes++;
    this.gone({ reason: 'killed', exitCode: 9 });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  gone(details: GoneDetails): void {
    this.emit('render-process-gone', {}, details);
  }
}

/** A clock whose timers run when `advance` passes them. */
class FakeClock implements RecoveryClock {
  time = 1_000_000;
  private timers: { at: number; run: () => void; id: number }[] = [];
  private next = 1;
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.push({ at: this.time + ms, run, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }
  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((timer) => timer.at <= this.time);
    this.timers = this.timers.filter((timer) => timer.at > this.time);
    for (const timer of due) timer.run();
  }
}

function setUp(): { contents: FakeContents; clock: FakeClock; logs: string[] } {
  const contents = new FakeContents();
  const clock = new FakeClock();
  const logs: string[] = [];
  installCrashRecovery(contents, APP_ENTRY_URL, (line) => logs.push(line), clock);
  return { contents, clock, logs };
}

describe('electron: a dead or hung renderer is reloaded into the app', () => {
  it('reloads the entry with the reason after an out-of-memory or a crash', () => {
    const { contents, logs } = setUp();
    contents.gone({ reason: 'oom', exitCode: -1 });
    expect(contents.loaded).toEqual([`${APP_ENTRY_URL}?stopped=oom`]);
    contents.gone({ reason: 'crashed', exitCode: 11 });
    expect(contents.loaded.at(-1)).toBe(`${APP_ENTRY_URL}?stopped=crashed`);
    expect(logs[0]).toMatch(/stopped \(oom\); reloading/);
  });

  it('does nothing for a clean exit or a destroyed window', () => {
    const { contents } = setUp();
    contents.gone({ reason: 'clean-exit', exitCode: 0 });
    contents.destroyed = true;
    contents.gone({ reason: 'crashed' });
    expect(contents.loaded).toEqual([]);
  });

  it('ends a hang after the grace period and reloads once, as "unresponsive"', () => {
    const { contents, clock } = setUp();
    contents.emit('unresponsive');
    clock.advance(UNRESPONSIVE_GRACE_MS - 1);
    expect(contents.crashes).toBe(0);
    clock.advance(1);
    expect(contents.crashes).toBe(1);
    // The "killed" report that follows is the same stop: one reload.
    expect(contents.loaded).toEqual([`${APP_ENTRY_URL}?stopped=unresponsive`]);
  });

  it('leaves a hang that recovers alone', () => {
    const { contents, clock } = setUp();
    contents.emit('unresponsive');
    clock.advance(UNRESPONSIVE_GRACE_MS / 2);
    contents.emit('responsive');
    clock.advance(UNRESPONSIVE_GRACE_MS);
    expect(contents.crashes).toBe(0);
    expect(contents.loaded).toEqual([]);
  });

  it('stops reloading a page that keeps dying, and starts again a minute later', () => {
    const { contents, clock, logs } = setUp();
    for (let index = 0; index < MAX_RELOADS + 2; index++) contents.gone({ reason: 'crashed' });
    expect(contents.loaded).toHaveLength(MAX_RELOADS);
    expect(logs.at(-1)).toMatch(/not reloading/);
    clock.advance(RELOAD_WINDOW_MS + 1);
    contents.gone({ reason: 'oom' });
    expect(contents.loaded).toHaveLength(MAX_RELOADS + 1);
  });

  it('puts only a short word in the URL', () => {
    expect(stoppedUrl(APP_ENTRY_URL, 'integrity-failure')).toBe(
      `${APP_ENTRY_URL}?stopped=integrity-failure`,
    );
    expect(stoppedUrl(APP_ENTRY_URL, '<script>')).toBe(`${APP_ENTRY_URL}?stopped=crashed`);
  });
});
