/**
 * `readShownPath`: the shown path of a conversation read in pages (real SQLite), the same as
 * `listMessages`, with the event loop running between pages so a server answers meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { readShownPath } from '../../../src/main/services/shown-path';

let directory: string;
let store: SqliteStore;
let tick = 0;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'aivory-shown-path-'));
  store = openStore(join(directory, 'aivory.db'), { clock: { now: () => ++tick } });
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

function seed(id: string, count: number): void {
  store.conversations.createConversation({ id, title: id, modelId: null });
  for (let index = 0; index < count; index += 1) {
    store.conversations.createMessage({
      id: `${id}_m${index}`,
      conversationId: id,
      role: index % 2 === 0 ? 'user' : 'assistant',
      status: 'complete',
      parts: [{ kind: 'text', text: `message ${index}` }],
    });
  }
}

describe('readShownPath', () => {
  it('answers what listMessages answers, versions off the path left out', async () => {
    seed('c', 1_234);
    // A second version of an answer in the middle: the path follows the newest one.
    store.conversations.createMessage({
      id: 'c_v2',
      conversationId: 'c',
      parentId: 'c_m600',
      role: 'assistant',
      status: 'complete',
      parts: [{ kind: 'text', text: 'another version' }],
    });
    const path = await readShownPath(store.conversations, 'c');
    expect(path).toEqual(store.conversations.listMessages('c'));
    expect(path.at(-1)?.id).toBe('c_v2');
  });

  it('lets the event loop run between pages', async () => {
    seed('c', 1_600);
    let turns = 0;
    let running = true;
    const spin = (): void => {
      turns += 1;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const path = await readShownPath(store.conversations, 'c');
    running = false;
    expect(path).toHaveLength(1_600);
    // Four pages of 500 at most: the loop ran between each of them.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('answers nothing for a conversation without messages and refuses an unknown one', async () => {
    store.conversations.createConversation({ id: 'empty', title: 'empty', modelId: null });
    expect(await readShownPath(store.conversations, 'empty')).toEqual([]);
    await expect(readShownPath(store.conversations, 'missing')).rejects.toThrow(/missing/);
  });
});
