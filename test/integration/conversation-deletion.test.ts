/**
 * Deleting a long conversation in batches (issue 37, finding 11: one statement held serve for
 * 262 ms on 20,000 messages): real SQLite on a temp file. Everything of the conversation goes —
 * messages of every version, parts, turn records, search entries, its approvals and lease; its
 * memories stay, unlinked — and nothing of another conversation; each batch is its own
 * transaction, and a deletion stopped between batches leaves the older part whole and readable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import {
  DELETE_BATCH_MESSAGES,
  deleteConversation,
} from '../../src/main/services/conversation-deletion';
import type { TurnRecord } from '../../src/shared/dto';

/** Three batches and a bit: the last one holds the conversation's first messages. */
const MESSAGES = DELETE_BATCH_MESSAGES * 2 + 37;

let directory: string;
let databasePath: string;
let store: SqliteStore;
let tick = 0;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'aivory-deletion-'));
  databasePath = join(directory, 'aivory.db');
  tick = 0;
  store = openStore(databasePath, { clock: { now: () => (tick += 1) } });
});

afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

/**
 * A conversation of `count` messages in alternating questions and answers, with a regenerated
 * answer and an edited question (versions) along the way, tool parts and turn records.
 */
function seed(id: string, count: number): void {
  store.conversations.createConversation({ id, title: `Conversation ${id}`, modelId: null });
  let parent: string | null = null;
  for (let index = 0; index < count; index += 1) {
    const user = index % 2 === 0;
    const messageId = `${id}_m${index}`;
    store.conversations.createMessage({
      id: messageId,
      conversationId: id,
      parentId: parent,
      role: user ? 'user' : 'assistant',
      status: 'complete',
      parts: user
        ? [{ kind: 'text', text: `question ${index} about zebras` }]
        : [
            {
              kind: 'tool-call',
              toolCallId: `call_${index}`,
              name: 'python_execute',
              arguments: {},
            },
            { kind: 'text', text: `answer ${index} about zebras` },
          ],
    });
    if (!user) store.conversations.saveTurnRecord(turnRecord(id, messageId, index));
    // Every 100 messages an older version beside the newest one (a regenerated answer or an
    // edited question): the same parent, created earlier than the version shown.
    if (index % 100 === 50) {
      store.conversations.createMessage({
        id: `${messageId}_v2`,
        conversationId: id,
        parentId: parent,
        role: user ? 'user' : 'assistant',
        status: 'complete',
        parts: [{ kind: 'text', text: `another version ${index} about zebras` }],
      });
      store.conversations.showVersion(id, messageId);
    }
    parent = messageId;
  }
}

function turnRecord(conversationId: string, messageId: string, index: number): TurnRecord {
  return {
    id: `turn_${messageId}`,
    conversationId,
    messageId,
    modelId: null,
    modelName: 'scripted-model',
    stopReason: 'completed',
    toolCalls: {},
    providerRounds: 1,
    startedAt: index,
    durationMs: 1,
    errorCode: null,
    errorMessage: null,
    budget: null,
    usage: null,
    taint: null,
  };
}

/** Rows of `table` whose conversation (or message's conversation) is `id`. */
function rowsOf(id: string): Record<string, number> {
  const database = new Database(databasePath, { readonly: true });
  try {
    const count = (sql: string): number =>
      database.prepare<[string], { count: number }>(sql).get(id)?.count ?? -1;
    return {
      messages: count('SELECT count(*) AS count FROM messages WHERE conversation_id = ?'),
      parts: count(
        `SELECT count(*) AS count FROM message_parts WHERE message_id IN
           (SELECT id FROM messages WHERE conversation_id = ?)`,
      ),
      orphanParts: database
        .prepare<[], { count: number }>(
          'SELECT count(*) AS count FROM message_parts WHERE message_id NOT IN (SELECT id FROM messages)',
        )
        .get()!.count,
      turnRecords: count('SELECT count(*) AS count FROM turn_records WHERE conversation_id = ?'),
      search: count('SELECT count(*) AS count FROM messages_fts WHERE conversation_id = ?'),
      conversations: count('SELECT count(*) AS count FROM conversations WHERE id = ?'),
    };
  } finally {
    database.close();
  }
}

describe('deleting a long conversation', () => {
  it('takes every row of it, a batch per transaction, and nothing of another', async () => {
    seed('doomed', MESSAGES);
    seed('kept', 40);
    store.memories.saveMemory({
      id: 'memory_1',
      memoryText: 'likes zebras',
      slot: null,
      value: null,
      conversationId: 'doomed',
    });
    const keptBefore = rowsOf('kept');
    expect(rowsOf('doomed').messages).toBe(MESSAGES + Math.ceil((MESSAGES - 50) / 100));

    let turns = 0;
    await deleteConversation(store.conversations, 'doomed', () => {
      turns += 1;
      return Promise.resolve();
    });

    // Three batches (200, 200, 41), the event loop's turn between them.
    expect(turns).toBe(2);
    expect(rowsOf('doomed')).toEqual({
      messages: 0,
      parts: 0,
      orphanParts: 0,
      turnRecords: 0,
      search: 0,
      conversations: 0,
    });
    expect(rowsOf('kept')).toEqual(keptBefore);
    expect(store.conversations.searchMessages('zebras').map((hit) => hit.conversationId)).toEqual(
      expect.not.arrayContaining(['doomed']),
    );
    expect(store.conversations.listMessages('kept')).toHaveLength(40);
    expect(store.memories.getMemory('memory_1')?.conversationId).toBeNull();
  });

  it('stopped between batches, leaves the older part whole: its path reads, its search works', async () => {
    seed('doomed', MESSAGES);
    expect(store.conversations.deleteConversationPart('doomed', DELETE_BATCH_MESSAGES)).toBe(false);

    // As after a crash: a new connection reads what is left.
    store.close();
    store = openStore(databasePath);
    const path = store.conversations.listMessages('doomed');
    expect(path.length).toBeGreaterThan(0);
    expect(path[0]?.id).toBe('doomed_m0');
    // Each message of the path follows the one before it: a whole tree, no dangling parent.
    for (const [index, message] of path.entries()) {
      expect(message.parentId).toBe(index === 0 ? null : path[index - 1]?.id);
    }
    expect(store.conversations.countShownMessages('doomed')).toBe(path.length);
    const left = rowsOf('doomed');
    expect(left.messages).toBeGreaterThan(0);
    expect(left.search).toBe(left.messages);

    await deleteConversation(store.conversations, 'doomed');
    expect(store.conversations.getConversation('doomed')).toBeNull();
    expect(rowsOf('doomed').messages).toBe(0);
  });

  it('a conversation with no messages goes in one step', async () => {
    store.conversations.createConversation({ id: 'empty', title: 'Empty', modelId: null });
    expect(store.conversations.deleteConversationPart('empty', DELETE_BATCH_MESSAGES)).toBe(true);
    expect(store.conversations.getConversation('empty')).toBeNull();
    await deleteConversation(store.conversations, 'missing');
  });
});
