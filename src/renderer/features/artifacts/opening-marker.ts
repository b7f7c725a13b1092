/**
 * Which file the viewer is opening, kept in sessionStorage until its read ends. A viewer's worker
 * shares the page's process: a file that takes it down leaves a crashed tab, where no code runs. So
 * the page marks the file before reading it and clears the mark when the read ends (shown, too
 * large, failed) or the viewer closes; a mark still there when the page loads again means the last
 * page ended while opening that file. The reload then names it (`recovery-notice.tsx`) and does not
 * open it again. sessionStorage, not localStorage: it belongs to the tab that crashed (and survives
 * its reload, in the browser and in the desktop window), and another tab has nothing to do with it.
 */

const KEY = 'aivory.viewerOpening';

/** The file a page was opening when it ended. */
export interface OpeningFile {
  name: string;
  path: string;
}

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage refused (some privacy modes): no mark, no notice.
    return null;
  }
}

/** Marks `file` as being opened. */
export function markOpening(file: OpeningFile): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ name: file.name, path: file.path }));
  } catch {
    // A full or refused storage: the notice is lost, nothing else.
  }
}

/** Clears the mark (of `path` only, when given: a later file's mark stays). */
export function clearOpening(path?: string): void {
  const store = storage();
  if (store === null) return;
  if (path !== undefined && readMark(store)?.path !== path) return;
  store.removeItem(KEY);
}

/** The mark a previous page left (then cleared), or null. */
export function takeInterruptedOpening(): OpeningFile | null {
  const store = storage();
  if (store === null) return null;
  const mark = readMark(store);
  store.removeItem(KEY);
  return mark;
}

function readMark(store: Storage): OpeningFile | null {
  try {
    const value: unknown = JSON.parse(store.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { name, path } = value as Record<string, unknown>;
    return typeof name === 'string' && typeof path === 'string'
      ? { name: name.slice(0, 300), path }
      : null;
  } catch {
    return null;
  }
}
