/**
 * Paged reads of a conversation's shown path (`listMessagePage`, `listVersionsOf`,
 * `listTurnRecordsOf`): the latest page first, each `older` cursor leading to the page before,
 * with no gap or duplicate; versions off the path are left out; `through` reaches a search hit.
 */
import { describe, expect, it } from 'vitest';
import { seedChain, useTempStore } from '../../../support/message-chain';
import type { Message } from '../../../../src/shared/dto';

const temp = useTempStore();

const ids = (messages: readonly Message[]): string[] => messages.map((message) => message.id);

describe('listMessagePage', () => {
  it('reads the latest page, then each older page back to the first message', () => {
    seedChain(temp.store, 'c', 250);
    const conversations = temp.store.conversations;
    const latest = conversations.listMessagePage('c', { limit: 100 });
    expect(ids(latest.messages)).toEqual(
      Array.from({ length: 100 }, (_, index) => `c_m${150 + index}`),
    );
    expect(latest.messages[0]?.parts).toEqual([{ kind: 'text', text: 'message 150' }]);
    expect(latest.older).toBe('c_m149');
    const read = [...ids(latest.messages)];
    let older = latest.older;
    let pages = 1;
    while (older !== null) {
      const page = conversations.listMessagePage('c', { from: older, limit: 100 });
      expect(page.messages.at(-1)?.id).toBe(older);
      read.unshift(...ids(page.messages));
      older = page.older;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(read).toEqual(ids(conversations.listMessages('c')));
  });

  it('pages the shown path only, and another path once another version is shown', () => {
    seedChain(temp.store, 'c', 6);
    const conversations = temp.store.conversations;
    // A second answer to the last question: a sibling of c_m5, now shown.
    conversations.createMessage({
      id: 'c_m5b',
      conversationId: 'c',
      parentId: 'c_m4',
      role: 'assistant',
      status: 'complete',
      parts: [{ kind: 'text', text: 'again' }],
    });
    const page = conversations.listMessagePage('c', { limit: 3 });
    expect(ids(page.messages)).toEqual(['c_m3', 'c_m4', 'c_m5b']);
    // Seven messages are stored; the shown path holds six of them.
    expect(conversations.countShownMessages('c')).toBe(6);
    expect(conversations.listVersionsOf('c', page.messages)).toEqual({
      c_m5b: ['c_m5', 'c_m5b'],
    });
    conversations.showVersion('c', 'c_m5');
    expect(ids(conversations.listMessagePage('c', { limit: 3 }).messages)).toEqual([
      'c_m3',
      'c_m4',
      'c_m5',
    ]);
  });

  it('lists versions of first messages (edited first questions) too', () => {
    seedChain(temp.store, 'c', 2);
    temp.store.conversations.createMessage({
      id: 'c_m0b',
      conversationId: 'c',
      parentId: null,
      role: 'user',
      status: 'complete',
      parts: [{ kind: 'text', text: 'edited' }],
    });
    const page = temp.store.conversations.listMessagePage('c', { limit: 10 });
    expect(ids(page.messages)).toEqual(['c_m0b']);
    expect(page.older).toBeNull();
    expect(temp.store.conversations.listVersionsOf('c', page.messages)).toEqual({
      c_m0b: ['c_m0', 'c_m0b'],
    });
  });

  it('goes past the limit to reach `through`, and ignores one off the path', () => {
    seedChain(temp.store, 'c', 300);
    const conversations = temp.store.conversations;
    const page = conversations.listMessagePage('c', { limit: 100, through: 'c_m20' });
    expect(page.messages[0]?.id).toBe('c_m20');
    expect(page.messages).toHaveLength(280);
    expect(page.older).toBe('c_m19');
    const near = conversations.listMessagePage('c', { limit: 100, through: 'c_m290' });
    expect(near.messages).toHaveLength(100);
    seedChain(temp.store, 'd', 3);
    const missing = conversations.listMessagePage('c', { limit: 100, through: 'd_m1' });
    expect(missing.messages).toHaveLength(100);
    expect(missing.older).toBe('c_m199');
  });

  it('answers an empty page for an empty conversation and refuses a foreign cursor', () => {
    seedChain(temp.store, 'c', 0);
    seedChain(temp.store, 'd', 2);
    expect(temp.store.conversations.listMessagePage('c', { limit: 10 })).toEqual({
      messages: [],
      older: null,
    });
    expect(() =>
      temp.store.conversations.listMessagePage('c', { from: 'd_m1', limit: 10 }),
    ).toThrow();
  });
});

describe('listNewerPage', () => {
  it('reads on from a message to the end of the path, a page at a time', () => {
    seedChain(temp.store, 'c', 250);
    const conversations = temp.store.conversations;
    const read: string[] = [];
    let after: string | null = 'c_m20';
    let pages = 0;
    while (after !== null) {
      const page = conversations.listNewerPage('c', { after, limit: 100 });
      if (page === null) throw new Error('c_m20 is on the path');
      read.push(...ids(page.messages));
      after = page.newer;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(read).toEqual(Array.from({ length: 229 }, (_, index) => `c_m${21 + index}`));
    // Exactly a page left: it reaches the end, no empty page after it.
    const last = conversations.listNewerPage('c', { after: 'c_m149', limit: 100 });
    expect(last?.messages).toHaveLength(100);
    expect(last?.newer).toBeNull();
    expect(conversations.listNewerPage('c', { after: 'c_m249', limit: 100 })).toEqual({
      messages: [],
      newer: null,
    });
  });

  it('follows the shown version, is null off the path, and refuses a foreign message', () => {
    seedChain(temp.store, 'c', 6);
    seedChain(temp.store, 'd', 2);
    const conversations = temp.store.conversations;
    conversations.createMessage({
      id: 'c_m3b',
      conversationId: 'c',
      parentId: 'c_m2',
      role: 'assistant',
      status: 'complete',
      parts: [{ kind: 'text', text: 'again' }],
    });
    expect(
      ids(conversations.listNewerPage('c', { after: 'c_m1', limit: 10 })?.messages ?? []),
    ).toEqual(['c_m2', 'c_m3b']);
    expect(conversations.listNewerPage('c', { after: 'c_m4', limit: 10 })).toBeNull();
    expect(() => conversations.listNewerPage('c', { after: 'd_m1', limit: 10 })).toThrow();
  });
});

describe('listTurnRecordsOf', () => {
  it('reads the records of the given messages only', () => {
    seedChain(temp.store, 'c', 4);
    for (const messageId of ['c_m1', 'c_m3']) {
      temp.store.conversations.saveTurnRecord({
        id: `turn_${messageId}`,
        conversationId: 'c',
        messageId,
        modelId: null,
        modelName: 'm',
        stopReason: 'completed',
        toolCalls: {},
        providerRounds: 1,
        startedAt: messageId === 'c_m1' ? 1 : 2,
        durationMs: 1,
        errorCode: null,
        errorMessage: null,
        budget: null,
        usage: null,
        taint: null,
      });
    }
    expect(temp.store.conversations.listTurnRecordsOf(['c_m3']).map((record) => record.id)).toEqual(
      ['turn_c_m3'],
    );
  });
});
