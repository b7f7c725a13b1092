/**
 * Messages form a tree (migration 010): regenerated answers and edited questions are versions
 * (siblings); a conversation shows one path; deletes, search and old databases follow it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { Message } from '../../src/shared/dto';
import { deleteExchange } from '../../src/main/services/message-exchange';

let now = 1_000;
const clock = { now: () => now++ };
const stores: SqliteStore[] = [];

function freshStore(path = join(mkdtempSync(join(tmpdir(), 'aivory-tree-')), 'a.db')) {
  const store = openStore(path, { clock });
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

function say(
  store: SqliteStore,
  id: string,
  role: Message['role'],
  text: string,
  parentId?: string | null,
) {
  return store.conversations.createMessage({
    id,
    conversationId: 'c',
    ...(parentId === undefined ? {} : { parentId }),
    role,
    status: 'complete',
    parts: [{ kind: 'text', text }],
  });
}

/** q1 → a1 → q2 → a2, then a second answer a2b to q2 and an edited q2b (answered a2c) after a1. */
function branched(store: SqliteStore) {
  store.conversations.createConversation({ id: 'c', title: 'T', modelId: null });
  say(store, 'q1', 'user', 'first question');
  say(store, 'a1', 'assistant', 'first answer');
  say(store, 'q2', 'user', 'second question');
  say(store, 'a2', 'assistant', 'second answer alpha');
  say(store, 'a2b', 'assistant', 'second answer beta', 'q2');
  say(store, 'q2b', 'user', 'second question edited', 'a1');
  say(store, 'a2c', 'assistant', 'edited answer gamma');
}

describe('the message tree', () => {
  it('appends to the shown path by default and shows the newest message created', () => {
    const store = freshStore();
    branched(store);
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q2b', 'a2c']);
    expect(store.conversations.listMessages('c').map((message) => message.parentId)).toEqual([
      null,
      'q1',
      'a1',
      'q2b',
    ]);
    expect(ids(store.conversations.listAllMessages('c'))).toHaveLength(7);
    expect(store.conversations.listVersions('c')).toEqual({
      q2: ['q2', 'q2b'],
      q2b: ['q2', 'q2b'],
      a2: ['a2', 'a2b'],
      a2b: ['a2', 'a2b'],
    });
  });

  it('showVersion switches the path to the newest path under the chosen version, without activity', () => {
    const store = freshStore();
    branched(store);
    const before = store.conversations.getConversation('c')?.updatedAt;
    store.conversations.showVersion('c', 'q2');
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q2', 'a2b']);
    store.conversations.showVersion('c', 'a2');
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q2', 'a2']);
    // A new message continues the shown path.
    say(store, 'q3', 'user', 'third');
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q2', 'a2', 'q3']);
    expect(store.conversations.getConversation('c')?.updatedAt).toBeGreaterThan(before ?? 0);
    const updated = store.conversations.getConversation('c')?.updatedAt;
    store.conversations.showVersion('c', 'q2b');
    expect(store.conversations.getConversation('c')?.updatedAt).toBe(updated);
    expect(() => store.conversations.showVersion('c', 'nope')).toThrow(/nope/);
    store.conversations.createConversation({ id: 'other', title: 'O', modelId: null });
    expect(() => store.conversations.showVersion('other', 'q1')).toThrow(/q1/);
  });

  it('a parent from another conversation is refused', () => {
    const store = freshStore();
    branched(store);
    store.conversations.createConversation({ id: 'd', title: 'D', modelId: null });
    expect(() =>
      store.conversations.createMessage({
        id: 'x',
        conversationId: 'd',
        parentId: 'q1',
        role: 'user',
        status: 'complete',
        parts: [],
      }),
    ).toThrow(/q1/);
    expect(store.conversations.listAllMessages('d')).toEqual([]);
  });

  it('deleting a shown message keeps what followed it; deleting the end of the path shows its parent', () => {
    const store = freshStore();
    branched(store);
    store.conversations.deleteMessage('a1');
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'q2b', 'a2c']);
    store.conversations.deleteMessage('a2c');
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'q2b']);
    store.conversations.deleteBranch('q1');
    expect(store.conversations.listMessages('c')).toEqual([]);
    expect(store.conversations.listAllMessages('c')).toEqual([]);
  });

  it('deleting an exchange removes the other versions of its answer and keeps later turns', () => {
    const store = freshStore();
    branched(store);
    store.conversations.showVersion('c', 'q2');
    say(store, 'q3', 'user', 'after beta');
    say(store, 'a3', 'assistant', 'third answer');
    expect(ids(store.conversations.listMessages('c'))).toEqual([
      'q1',
      'a1',
      'q2',
      'a2b',
      'q3',
      'a3',
    ]);
    expect(deleteExchange(store.conversations, 'c', 'a2b')).toEqual(['q2', 'a2b']);
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q3', 'a3']);
    // a2 (the other answer to q2) went; the edited question's branch stays a version of q3's.
    expect(ids(store.conversations.listAllMessages('c'))).toEqual([
      'q1',
      'a1',
      'q2b',
      'a2c',
      'q3',
      'a3',
    ]);
    expect(store.conversations.listVersions('c')).toEqual({
      q2b: ['q2b', 'q3'],
      q3: ['q2b', 'q3'],
    });
  });

  it('deleting an unanswered question keeps the question after it and what followed', () => {
    // q1 → a1 → q2 (its turn failed before any answer) → q3 → a3, and an answer a2 to q2 kept as
    // a version off the path.
    const store = freshStore();
    store.conversations.createConversation({ id: 'c', title: 'T', modelId: null });
    say(store, 'q1', 'user', 'first');
    say(store, 'a1', 'assistant', 'first answer');
    say(store, 'q2', 'user', 'unanswered');
    say(store, 'a2', 'assistant', 'an older answer', 'q2');
    say(store, 'q3', 'user', 'asked again', 'q2');
    say(store, 'a3', 'assistant', 'third answer');
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q2', 'q3', 'a3']);
    // Before: every child of q2 was taken for another answer, q3 and a3 deleted with it.
    expect(deleteExchange(store.conversations, 'c', 'q2')).toEqual(['q2']);
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q3', 'a3']);
  });

  it('an exchange is deleted from the messages around it, never the whole conversation', () => {
    const store = freshStore();
    branched(store);
    const reads: string[] = [];
    const counted = new Proxy(store.conversations, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads.push(String(property));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    expect(deleteExchange(counted, 'c', 'q2b')).toEqual(['q2b', 'a2c']);
    expect(reads).not.toContain('listMessages');
    expect(reads).not.toContain('listAllMessages');
    // The other version of the question is shown now, with its newest answer.
    expect(ids(store.conversations.listMessages('c'))).toEqual(['q1', 'a1', 'q2', 'a2b']);
    // A version off the shown path is not deleted from there.
    expect(() => deleteExchange(store.conversations, 'c', 'a2')).toThrow('No message with id a2.');
  });

  it('refuses while another version of the answer is still being written', () => {
    const store = freshStore();
    branched(store);
    store.conversations.showVersion('c', 'a2');
    store.conversations.updateMessage('a2b', { status: 'streaming' });
    expect(() => deleteExchange(store.conversations, 'c', 'q2')).toThrow(
      'Another version of this answer is still being written: stop it before deleting.',
    );
    expect(ids(store.conversations.listAllMessages('c'))).toHaveLength(7);
  });

  it('search finds only what the conversation shows', () => {
    const store = freshStore();
    branched(store);
    const found = (query: string) =>
      store.conversations.searchMessages(query).map((hit) => hit.messageId);
    expect(found('gamma')).toEqual(['a2c']);
    expect(found('alpha')).toEqual([]);
    store.conversations.showVersion('c', 'a2');
    expect(found('alpha')).toEqual(['a2']);
    expect(found('gamma')).toEqual([]);
  });

  it('an older database becomes one path: each message follows the one before it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'aivory-v9-')), 'old.db');
    const old = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 9)) old.exec(sql);
    old.pragma('user_version = 9');
    old.exec(`INSERT INTO conversations (id, title, model_id, created_at, updated_at)
              VALUES ('c', 'Old', NULL, 1, 1), ('empty', 'Empty', NULL, 1, 1);
              INSERT INTO messages (id, conversation_id, role, status, created_at, updated_at)
              VALUES ('m1', 'c', 'user', 'complete', 5, 5),
                     ('m2', 'c', 'assistant', 'complete', 5, 5),
                     ('m3', 'c', 'user', 'complete', 7, 7),
                     ('m4', 'c', 'assistant', 'complete', 9, 9);`);
    old.close();
    const store = freshStore(path);
    expect(ids(store.conversations.listMessages('c'))).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(store.conversations.listMessages('c').map((message) => message.parentId)).toEqual([
      null,
      'm1',
      'm2',
      'm3',
    ]);
    expect(store.conversations.listMessages('empty')).toEqual([]);
    expect(store.conversations.listVersions('c')).toEqual({});
  });
});
