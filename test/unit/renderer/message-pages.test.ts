/** The renderer's folds of message pages (state/message-pages.ts). */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/shared/dto';
import type { LoadedPath } from '../../../src/renderer/state/message-pages';
import {
  pathOfPage,
  withLatestPage,
  withNewerPage,
  withOlderPage,
  withoutMessages,
} from '../../../src/renderer/state/message-pages';

function message(id: string, parentId: string | null): Message {
  return {
    id,
    conversationId: 'c',
    parentId,
    role: 'user',
    status: 'complete',
    createdAt: 1,
    updatedAt: 1,
    parts: [],
  };
}

/** Messages m<from>…m<to - 1>, each after the one before. */
function range(from: number, to: number): Message[] {
  return Array.from({ length: to - from }, (_, index) =>
    message(`m${from + index}`, from + index === 0 ? null : `m${from + index - 1}`),
  );
}

function page(from: number, to: number, older: string | null) {
  return { messages: range(from, to), turns: [], versions: {}, older };
}

const ids = (path: LoadedPath | null): string[] => path?.messages.map((m) => m.id) ?? [];

describe('message pages', () => {
  it('puts an older page before the loaded ones and moves the cursor', () => {
    const loaded = pathOfPage(page(10, 20, 'm9'));
    const merged = withOlderPage(loaded, page(0, 10, null));
    expect(ids(merged)).toEqual(ids(pathOfPage(page(0, 20, null))));
    expect(merged?.older).toBeNull();
  });

  it('refuses an older page that does not end where the loaded path begins', () => {
    expect(withOlderPage(pathOfPage(page(10, 20, 'm9')), page(0, 8, null))).toBeNull();
  });

  it('keeps the older pages when the latest page is read again after a turn', () => {
    const loaded = withOlderPage(pathOfPage(page(10, 20, 'm9')), page(0, 10, null));
    if (loaded === null) throw new Error('merge failed');
    const again = withLatestPage(loaded, page(12, 22, 'm11'));
    expect(ids(again)).toEqual(ids(pathOfPage(page(0, 22, null))));
    expect(again.older).toBeNull();
  });

  it('takes the latest page alone when it does not continue what was loaded', () => {
    const loaded = pathOfPage(page(10, 20, 'm9'));
    const other = withLatestPage(loaded, page(30, 40, 'm29'));
    expect(ids(other)).toEqual(ids(pathOfPage(page(30, 40, 'm29'))));
    expect(other.older).toBe('m29');
  });

  it('drops deleted messages, so the page after them still continues the loaded path', () => {
    const loaded = pathOfPage(page(0, 20, null));
    const stale = withLatestPage(loaded, { ...page(12, 20, 'm9'), messages: range(12, 20) });
    // m10 and m11 were deleted: without them locally, m12 (now after m9) continues the path.
    expect(ids(stale)).toEqual(ids(pathOfPage(page(12, 20, 'm9'))));
    const pruned = withoutMessages(loaded, ['m10', 'm11']);
    const merged = withLatestPage(pruned, page(12, 20, 'm9'));
    expect(ids(merged)).toEqual([
      ...ids(pathOfPage(page(0, 10, null))),
      ...ids(pathOfPage(page(12, 20, 'm9'))),
    ]);
  });

  it('puts a newer page after a window around a search hit, and refuses one that does not fit', () => {
    const window = pathOfPage({ ...page(10, 20, 'm9'), newer: 'm19' });
    const next = { messages: range(20, 30), turns: [], versions: {}, newer: 'm29' };
    const merged = withNewerPage(window, 'm19', next);
    expect(ids(merged)).toEqual(ids(pathOfPage(page(10, 30, 'm9'))));
    expect(merged?.newer).toBe('m29');
    expect(merged?.older).toBe('m9');
    expect(withNewerPage(window, 'm18', next)).toBeNull();
    // An empty page while more were announced: the path changed; the caller reloads.
    expect(withNewerPage(window, 'm19', { ...next, messages: [], newer: null })).toBeNull();
    // The latest page read again over a window does not keep the window.
    const again = withLatestPage(window, page(40, 50, 'm39'));
    expect(ids(again)).toEqual(ids(pathOfPage(page(40, 50, 'm39'))));
    expect(again.newer).toBeNull();
  });
});
