/**
 * What the window does when its page dies or hangs (no Electron import: unit-tested with a fake
 * webContents, since the Electron binary cannot run on the build machines). A renderer that is
 * gone (out of memory, crashed, killed) leaves a blank window; one that hangs stays frozen. Both
 * are reloaded at the app's entry with `?stopped=<reason>`: the page says "The window stopped
 * (reason) and was reloaded", reopens the conversation it remembers (`aivory.lastConversation`)
 * and, when a file was being opened in the viewer then (`opening-marker.ts`), names it and does
 * not open it again. A hang is given UNRESPONSIVE_GRACE_MS to recover first, then the renderer is
 * ended and reloaded. A page that keeps dying (MAX_RELOADS in RELOAD_WINDOW_MS) is left as it is,
 * rather than reloaded in a loop.
 */

/** A hang this long after Chromium reports it (itself after ~30 s without an answer) is ended. */
export const UNRESPONSIVE_GRACE_MS = 15_000;
/** At most this many reloads in RELOAD_WINDOW_MS; then the window is left alone. */
export const MAX_RELOADS = 3;
export const RELOAD_WINDOW_MS = 60_000;
/** A "killed" report this soon after ending a hung renderer is that same stop. */
const ENDED_HANG_ECHO_MS = 10_000;

/** Why the renderer went, as Electron's `render-process-gone` reports it. */
export interface GoneDetails {
  reason: string;
  exitCode?: number;
}

/** The part of `webContents` recovery needs. */
export interface RecoverableContents {
  on(event: 'render-process-gone', listener: (event: unknown, details: GoneDetails) => void): void;
  on(event: 'unresponsive' | 'responsive', listener: () => void): void;
  loadURL(url: string): Promise<void>;
  forcefullyCrashRenderer(): void;
  isDestroyed(): boolean;
}

/** Timers and the clock, given by the caller (the tests drive them). */
export interface RecoveryClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: RecoveryClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The entry URL with the reason the page stopped (a short lowercase word, nothing else). */
export function stoppedUrl(entryUrl: string, reason: string): string {
  const word = /^[a-z-]{1,32}$/.test(reason) ? reason : 'crashed';
  const url = new URL(entryUrl);
  url.searchParams.set('stopped', word);
  return url.href;
}

/** Reloads the page after its renderer is gone or hung; `log` says what happened. */
export function installCrashRecovery(
  contents: RecoverableContents,
  entryUrl: string,
  log: (message: string) => void,
  clock: RecoveryClock = SYSTEM_CLOCK,
): void {
  const reloads: number[] = [];
  let hang: unknown = null;
  // When this module last ended a hung renderer: the `render-process-gone` ("killed") that may
  // follow is that same stop, already reloaded.
  let endedHangAt = Number.NEGATIVE_INFINITY;

  const reload = (reason: string): void => {
    if (contents.isDestroyed()) return;
    const now = clock.now();
    while (reloads.length > 0 && now - (reloads[0] ?? 0) > RELOAD_WINDOW_MS) reloads.shift();
    if (reloads.length >= MAX_RELOADS) {
      log(`The window stopped again (${reason}); not reloading it (${MAX_RELOADS} in a minute).`);
      return;
    }
    reloads.push(now);
    log(`The window stopped (${reason}); reloading it.`);
    contents.loadURL(stoppedUrl(entryUrl, reason)).catch((error: unknown) => {
      log(`Reloading the window failed: ${String(error)}`);
    });
  };

  contents.on('render-process-gone', (_event, details) => {
    if (hang !== null) clock.clearTimeout(hang);
    hang = null;
    // A window that is closing ends its renderer cleanly: nothing to recover.
    if (details.reason === 'clean-exit') return;
    if (details.reason === 'killed' && clock.now() - endedHangAt < ENDED_HANG_ECHO_MS) return;
    reload(details.reason);
  });
  contents.on('unresponsive', () => {
    if (hang !== null) return;
    hang = clock.setTimeout(() => {
      hang = null;
      if (contents.isDestroyed()) return;
      // As Electron's own example does: end the renderer, then load the page again.
      endedHangAt = clock.now();
      contents.forcefullyCrashRenderer();
      reload('unresponsive');
    }, UNRESPONSIVE_GRACE_MS);
  });
  contents.on('responsive', () => {
    if (hang !== null) clock.clearTimeout(hang);
    hang = null;
  });
}
