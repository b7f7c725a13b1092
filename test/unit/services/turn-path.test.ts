/**
 * `readTurnPath`: what a turn reads of its conversation's path (real SQLite), newest first in
 * pages, keeping whole only the messages a window can reach and counting the rest.
 */
import { describe, expect, it } from 'vitest';
import { seedChain, useTempStore } from '../../support/message-chain';
import { estimateTokens } from '../../../src/main/services/history';
import { readTurnPath } from '../../../src/main/services/turn-path';

const temp = useTempStore();

/** The tokens one seeded message ("message N") costs when replayed. */
const cost = (index: number): number => estimateTokens(`message ${index}`);

describe('readTurnPath', () => {
  it('keeps the newest messages a window reaches and counts the older ones', async () => {
    seedChain(temp.store, 'c', 1_234);
    // The newest 10 messages (1224–1233) fit; the 11th (1223) is the first past the reach.
    let reach = 0;
    for (let index = 1_233; index >= 1_224; index -= 1) reach += cost(index);
    const { tail, earlier } = await readTurnPath(temp.store.conversations, 'c', {
      tailEnds: () => true,
      reach,
    });
    expect(tail).toEqual([]);
    expect(earlier.recent.map((message) => message.id)).toEqual(
      Array.from({ length: 11 }, (_, offset) => `c_m${1_223 + offset}`),
    );
    expect(earlier.olderReplayed).toBe(1_223);
    // Answers (odd messages) are complete with text.
    expect(earlier.olderAnswer).toBe(true);
  });

  it('keeps the whole path when the window holds it', async () => {
    seedChain(temp.store, 'c', 1_234);
    const { earlier } = await readTurnPath(temp.store.conversations, 'c', {
      tailEnds: () => true,
      reach: 1_000_000,
    });
    expect(earlier.recent).toEqual(temp.store.conversations.listMessages('c'));
    expect(earlier.olderReplayed).toBe(0);
    expect(earlier.olderAnswer).toBe(false);
  });

  it('reads the tail whole up to where asked, the rest as what came before', async () => {
    seedChain(temp.store, 'c', 1_234);
    const { tail, earlier } = await readTurnPath(temp.store.conversations, 'c', {
      tailEnds: (newestFirst) => newestFirst.at(-1)?.id === 'c_m600',
      reach: cost(599),
    });
    expect(tail.map((message) => message.id)).toEqual(
      temp.store.conversations
        .listMessages('c')
        .slice(600)
        .map((message) => message.id),
    );
    expect(earlier.recent.map((message) => message.id)).toEqual(['c_m598', 'c_m599']);
    expect(earlier.olderReplayed).toBe(598);
  });

  it('lets the event loop run between pages', async () => {
    seedChain(temp.store, 'c', 1_600);
    let turns = 0;
    let running = true;
    const spin = (): void => {
      turns += 1;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const { earlier } = await readTurnPath(temp.store.conversations, 'c', {
      tailEnds: () => true,
      reach: 10,
    });
    running = false;
    expect(earlier.olderReplayed + earlier.recent.length).toBe(1_600);
    // Four pages of 500 at most: the loop ran between each of them.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
