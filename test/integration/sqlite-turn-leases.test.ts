/**
 * Turn leases on a real SQLite file (`adapters/sqlite/turn-leases.ts`): one turn per conversation
 * across stores and processes; a lease whose owner is dead, or alive but no longer renewing (a
 * reused pid), is taken over, and the streaming answer it left is marked interrupted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { LEASE_HEARTBEAT_MS, LEASE_STALE_MS } from '../../src/main/adapters/sqlite/turn-leases';

const opened: SqliteStore[] = [];
let now = 1_000_000;
const clock = { now: () => now };

function databasePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'aivory-leases-')), 'aivory.db');
}

function open(path: string): SqliteStore {
  const store = openStore(path, { clock });
  opened.push(store);
  return store;
}

/** A conversation with a question and a streaming answer owned by `ownerPid`. */
function conversationStreamedBy(store: SqliteStore, path: string, ownerPid: number): string {
  const conversation = store.conversations.createConversation({
    id: `conv_${ownerPid}`,
    title: 't',
    modelId: null,
  });
  store.conversations.createMessage({
    id: `q_${ownerPid}`,
    conversationId: conversation.id,
    role: 'user',
    status: 'complete',
    parts: [{ kind: 'text', text: 'Question' }],
  });
  const raw = new Database(path);
  try {
    raw
      .prepare(
        `INSERT INTO messages (id, conversation_id, parent_id, role, status, created_at,
           updated_at, owner_pid) VALUES (?, ?, ?, 'assistant', 'streaming', 0, 0, ?)`,
      )
      .run(`a_${ownerPid}`, conversation.id, `q_${ownerPid}`, ownerPid);
    raw
      .prepare(
        `INSERT INTO turn_leases (conversation_id, turn_id, owner_pid, claimed_at, heartbeat_at)
         VALUES (?, 'turn_other', ?, ?, ?)`,
      )
      .run(conversation.id, ownerPid, now, now);
  } finally {
    raw.close();
  }
  return conversation.id;
}

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  if (child.pid === undefined) throw new Error('the child has no pid');
  return child.pid;
}

afterEach(() => {
  vi.useRealTimers();
  for (const store of opened.splice(0)) store.close();
});

/** The heartbeat stored for the conversation's lease (undefined: no lease). */
function heartbeat(path: string, conversationId: string): number | undefined {
  const raw = new Database(path, { readonly: true });
  try {
    return raw
      .prepare<[string], { heartbeat_at: number }>(
        'SELECT heartbeat_at FROM turn_leases WHERE conversation_id = ?',
      )
      .get(conversationId)?.heartbeat_at;
  } finally {
    raw.close();
  }
}

describe('turn leases', () => {
  it('hold a conversation for one turn across stores until released', () => {
    const path = databasePath();
    const first = open(path);
    const second = open(path);
    const { id } = first.conversations.createConversation({ id: 'c', title: 't', modelId: null });
    const claim = first.conversations.claimTurn(id, 'turn_1');
    expect(claim).not.toBeNull();
    expect(first.conversations.claimTurn(id, 'turn_2')).toBeNull();
    expect(second.conversations.claimTurn(id, 'turn_2')).toBeNull();
    claim?.release();
    claim?.release();
    const next = second.conversations.claimTurn(id, 'turn_2');
    expect(next).not.toBeNull();
    expect(first.conversations.claimTurn(id, 'turn_3')).toBeNull();
    next?.release();
  });

  it('are given back when the store closes', () => {
    const path = databasePath();
    const first = open(path);
    const { id } = first.conversations.createConversation({ id: 'c', title: 't', modelId: null });
    expect(first.conversations.claimTurn(id, 'turn_1')).not.toBeNull();
    first.close();
    opened.splice(opened.indexOf(first), 1);
    expect(open(path).conversations.claimTurn(id, 'turn_2')).not.toBeNull();
  });

  it('refuse an unknown conversation', () => {
    const store = open(databasePath());
    expect(() => store.conversations.claimTurn('conv_missing', 'turn_1')).toThrow(
      'Conversation conv_missing does not exist.',
    );
  });

  it('keep out other turns while a live process renews its lease', () => {
    const path = databasePath();
    const store = open(path);
    const id = conversationStreamedBy(store, path, process.ppid);
    now += LEASE_STALE_MS - 1;
    expect(store.conversations.claimTurn(id, 'turn_mine')).toBeNull();
    expect(store.conversations.getMessage(`a_${process.ppid}`)?.status).toBe('streaming');
  });

  it('are taken over from a live pid that stopped renewing (a reused pid)', () => {
    const path = databasePath();
    const store = open(path);
    const id = conversationStreamedBy(store, path, process.ppid);
    now += LEASE_STALE_MS;
    expect(store.conversations.claimTurn(id, 'turn_mine')).not.toBeNull();
    expect(store.conversations.getMessage(`a_${process.ppid}`)?.status).toBe('interrupted');
  });

  it('are taken over at once from a dead process, its streaming answer interrupted', async () => {
    const path = databasePath();
    const store = open(path);
    const pid = await deadPid();
    const id = conversationStreamedBy(store, path, pid);
    expect(store.conversations.claimTurn(id, 'turn_mine')).not.toBeNull();
    expect(store.conversations.getMessage(`a_${pid}`)?.status).toBe('interrupted');
  });

  it('are renewed while held and stop being renewed once released', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const path = databasePath();
    const store = open(path);
    const { id } = store.conversations.createConversation({ id: 'c', title: 't', modelId: null });
    const claimedAt = now;
    const claim = store.conversations.claimTurn(id, 'turn_1');
    expect(heartbeat(path, id)).toBe(claimedAt);
    now += LEASE_HEARTBEAT_MS;
    vi.advanceTimersByTime(LEASE_HEARTBEAT_MS);
    expect(heartbeat(path, id)).toBe(claimedAt + LEASE_HEARTBEAT_MS);
    claim?.release();
    expect(heartbeat(path, id)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('go with their conversation', () => {
    const path = databasePath();
    const store = open(path);
    const { id } = store.conversations.createConversation({ id: 'c', title: 't', modelId: null });
    expect(store.conversations.claimTurn(id, 'turn_1')).not.toBeNull();
    store.conversations.deleteConversation(id);
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.prepare('SELECT count(*) AS n FROM turn_leases').get()).toEqual({ n: 0 });
    } finally {
      raw.close();
    }
  });
});
