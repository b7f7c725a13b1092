/**
 * A real SQLite store in a temporary directory, and conversations of numbered messages each
 * following the one before (`ID_m0` … `ID_m(count-1)`, "message N", user and assistant in
 * turn): the shape the paged-read tests walk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';

/** A fresh store per test (a clock that ticks per call), closed and removed after it. */
export function useTempStore(): { readonly store: SqliteStore } {
  let directory = '';
  let store: SqliteStore | null = null;
  let tick = 0;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-chain-'));
    store = openStore(join(directory, 'aivory.db'), { clock: { now: () => ++tick } });
  });
  afterEach(() => {
    store?.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return {
    get store(): SqliteStore {
      if (store === null) throw new Error('the store opens in beforeEach');
      return store;
    },
  };
}

/** Conversation `id` of `count` messages, each following the one before. */
export function seedChain(store: SqliteStore, id: string, count: number): void {
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
