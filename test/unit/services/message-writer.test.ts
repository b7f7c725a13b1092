/**
 * The message writer when a write fails (a full disk, a locked database): it never throws out of
 * its flush timer, stops writing, reports the failure once and words the turn's end from what was
 * saved.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessagePart, MessageStatus } from '../../../src/shared/dto';
import { AivoryError, StorageError } from '../../../src/shared/errors';
import type { TurnEndEvent } from '../../../src/shared/turn-events';
import { MessageWriter, unsavedAnswerError } from '../../../src/main/services/message-writer';

const FULL = new StorageError('full', {
  what: 'The disk holding /data is full',
  remedy: 'Free some space on it, then try again.',
  path: '/data',
});

const END: TurnEndEvent = {
  type: 'turn-end',
  turnId: 't1',
  stopReason: 'canceled',
  answer: '',
  toolCalls: {},
  providerRounds: 1,
  durationMs: 5,
};

/** A store whose writes succeed until `failFrom` writes were made, then throw `error`. */
function failingStore(failFrom: number, error: unknown) {
  const writes: { parts?: MessagePart[]; status?: MessageStatus }[] = [];
  return {
    writes,
    updateMessage: (_id: string, patch: { parts?: MessagePart[]; status?: MessageStatus }) => {
      if (writes.length >= failFrom) throw error;
      writes.push(structuredClone(patch));
    },
  };
}

const text = (turnId: string, value: string) =>
  ({ type: 'text-delta', turnId, text: value }) as const;

describe('MessageWriter when a write fails', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps the failure from the timer, reports it once and stops writing', () => {
    const store = failingStore(1, FULL);
    const onFailure = vi.fn();
    const writer = new MessageWriter(store, 'm1', { onFailure });
    writer.apply(text('t1', 'one two thr'));
    vi.advanceTimersByTime(200);
    writer.apply(text('t1', 'ee four '));
    expect(() => vi.advanceTimersByTime(200)).not.toThrow();
    writer.apply(text('t1', 'five'));
    vi.advanceTimersByTime(1000);

    expect(store.writes).toEqual([{ parts: [{ kind: 'text', text: 'one two thr' }] }]);
    expect(onFailure).toHaveBeenCalledTimes(1);
    // "thr" was saved cut: word 3 is the first one missing.
    expect(writer.failure?.message).toBe(
      'The disk holding /data is full: this answer could not be saved from word 3 (the words ' +
        'before it are saved). Free some space on it, then try again.',
    );
    expect(writer.failedEnd(END)).toEqual({
      ...END,
      stopReason: 'error',
      error: { code: 'storage', message: writer.failure?.message },
    });
    expect(writer.finish('canceled')).toBe(false);
  });

  it('after a failure tries the status alone at the end, and says whether it was saved', () => {
    let failing = true;
    const statuses: (MessageStatus | undefined)[] = [];
    const writer = new MessageWriter(
      {
        updateMessage: (_id, patch) => {
          if (failing) throw FULL;
          statuses.push(patch.status);
          expect(patch.parts).toBeUndefined();
        },
      },
      'm1',
    );
    writer.apply(text('t1', 'hello'));
    writer.flush();
    failing = false;
    expect(writer.finish('complete')).toBe(true);
    expect(statuses).toEqual(['error']);
    expect(writer.failure?.message).toContain('could not be saved from word 1 ');
  });

  it('passes the turn end through while every write worked', () => {
    const writer = new MessageWriter(failingStore(10, FULL), 'm1');
    writer.apply(text('t1', 'fine'));
    expect(writer.finish('complete')).toBe(true);
    expect(writer.failure).toBeNull();
    expect(writer.failedEnd(END)).toBe(END);
  });
});

describe('unsavedAnswerError', () => {
  it('counts the saved words: a trailing space means the next word is the first missing', () => {
    const saved: MessagePart[] = [{ kind: 'text', text: 'one two ' }];
    expect(unsavedAnswerError(FULL, saved).message).toContain('from word 3 ');
  });

  it('keeps an error that is not about storage as it is', () => {
    const other = new AivoryError('internal', 'Something else.');
    expect(unsavedAnswerError(other, [])).toBe(other);
    expect(unsavedAnswerError(new Error('x'), []).message).toBe(
      'This answer could not be saved; see the log.',
    );
  });
});

describe('MessageWriter times the reasoning', () => {
  const reasoning = (value: string) =>
    ({ type: 'reasoning-delta', turnId: 't1', text: value }) as const;

  it('stamps the time from the first reasoning word to the text that follows it', () => {
    const store = failingStore(Infinity, FULL);
    let now = 1_000;
    const writer = new MessageWriter(store, 'm1', { now: () => now });
    writer.apply(reasoning('Let me '));
    now += 4_000;
    writer.apply(reasoning('think.'));
    now += 8_250;
    writer.apply(text('t1', 'Answer'));
    now += 60_000;
    writer.finish('complete');
    expect(store.writes.at(-1)?.parts).toEqual([
      { kind: 'reasoning', text: 'Let me think.', durationMs: 12_250 },
      { kind: 'text', text: 'Answer' },
    ]);
  });

  it('a turn that ends while reasoning keeps the time until its end', () => {
    const store = failingStore(Infinity, FULL);
    let now = 0;
    const writer = new MessageWriter(store, 'm1', { now: () => now });
    writer.apply(reasoning('Hmm'));
    now += 3_000;
    writer.finish('canceled');
    expect(store.writes.at(-1)?.parts).toEqual([
      { kind: 'reasoning', text: 'Hmm', durationMs: 3_000 },
    ]);
  });
});
