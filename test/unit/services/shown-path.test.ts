/**
 * `readShownPath`: the shown path of a conversation read in pages (real SQLite), the same as
 * `listMessages`, with the event loop running between pages so a server answers meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { seedChain, useTempStore } from '../../support/message-chain';
import { readShownPath } from '../../../src/main/services/shown-path';

const temp = useTempStore();

describe('readShownPath', () => {
  it('answers what listMessages answers, versions off the path left out', async () => {
    seedChain(temp.store, 'c', 1_234);
    // A second version of an answer in the middle: the path follows the newest one.
    temp.store.conversations.createMessage({
      id: 'c_v2',
      conversationId: 'c',
      parentId: 'c_m600',
      role: 'assistant',
      status: 'complete',
      parts: [{ kind: 'text', text: 'another version' }],
    });
    const path = await readShownPath(temp.store.conversations, 'c');
    expect(path).toEqual(temp.store.conversations.listMessages('c'));
    expect(path.at(-1)?.id).toBe('c_v2');
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
    const path = await readShownPath(temp.store.conversations, 'c');
    running = false;
    expect(path).toHaveLength(1_600);
    // Four pages of 500 at most: the loop ran between each of them.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('answers nothing for a conversation without messages and refuses an unknown one', async () => {
    temp.store.conversations.createConversation({ id: 'empty', title: 'empty', modelId: null });
    expect(await readShownPath(temp.store.conversations, 'empty')).toEqual([]);
    await expect(readShownPath(temp.store.conversations, 'missing')).rejects.toThrow(/missing/);
  });
});
