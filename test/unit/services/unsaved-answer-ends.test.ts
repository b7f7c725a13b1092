/**
 * Answer ends that a full disk or a lock kept from the store (issue 37, item 9): tried again on a
 * timer that backs off, all at once when the store takes writes again, dropped only for errors
 * that are not storage faults, and tried a last time on close.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageError } from '../../../src/shared/errors';
import type { AnswerEnd } from '../../../src/main/services/unsaved-answer-ends';
import { FIRST_RETRY_MS, UnsavedAnswerEnds } from '../../../src/main/services/unsaved-answer-ends';
import type { Logger } from '../../../src/main/core/ports';

const FULL = new StorageError('full', {
  what: 'The disk holding /data is full',
  remedy: 'Free some space on it, then try again.',
  path: '/data',
});

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A store that refuses writes while `full` is true. */
function store() {
  const state = { full: true, written: [] as AnswerEnd[], tries: 0 };
  return {
    state,
    endAnswerNow: (end: AnswerEnd) => {
      state.tries += 1;
      if (state.full) throw FULL;
      state.written.push(end);
      return true;
    },
  };
}

const end = (messageId: string): AnswerEnd => ({ messageId, status: 'error' });

describe('UnsavedAnswerEnds', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tries again on a timer that backs off, and writes every end once there is room', () => {
    const conversations = store();
    const ends = new UnsavedAnswerEnds({ conversations, logger: quiet });
    ends.add(end('m1'));
    ends.add(end('m2'));
    vi.advanceTimersByTime(FIRST_RETRY_MS);
    // The first refusal stops the pass: the other end would fail the same way.
    expect(conversations.state.tries).toBe(1);
    vi.advanceTimersByTime(FIRST_RETRY_MS);
    expect(conversations.state.tries).toBe(1);
    vi.advanceTimersByTime(FIRST_RETRY_MS);
    expect(conversations.state.tries).toBe(2);
    conversations.state.full = false;
    vi.advanceTimersByTime(4 * FIRST_RETRY_MS);
    expect(conversations.state.written.map((entry) => entry.messageId)).toEqual(['m1', 'm2']);
    expect(ends.size).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(conversations.state.tries).toBe(4);
  });

  it('says an end whose message was deleted meanwhile was not stored', () => {
    const lines: string[] = [];
    const logger: Logger = { ...quiet, info: (message) => void lines.push(message) };
    const ends = new UnsavedAnswerEnds({ conversations: { endAnswerNow: () => false }, logger });
    ends.add(end('gone'));
    expect(ends.retry()).toBe(true);
    expect(lines).toEqual(['an answer that could not be ended was deleted meanwhile']);
  });

  it('writes at once when asked (the next turn), and drops an end that is not a storage fault', () => {
    const conversations = store();
    conversations.state.full = false;
    const failing = {
      endAnswerNow: (entry: AnswerEnd) => {
        if (entry.messageId === 'gone') throw new Error('constraint');
        return conversations.endAnswerNow(entry);
      },
    };
    const ends = new UnsavedAnswerEnds({ conversations: failing, logger: quiet });
    ends.add(end('gone'));
    ends.add(end('m1'));
    expect(ends.retry()).toBe(true);
    expect(conversations.state.written.map((entry) => entry.messageId)).toEqual(['m1']);
  });

  it('tries once more on close, then never again', () => {
    const conversations = store();
    const ends = new UnsavedAnswerEnds({ conversations, logger: quiet });
    ends.add(end('m1'));
    ends.close();
    expect(conversations.state.tries).toBe(1);
    ends.add(end('m2'));
    vi.advanceTimersByTime(120_000);
    expect(conversations.state.tries).toBe(1);
  });
});
