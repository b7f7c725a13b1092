/** The store's part of the composer's limits (a .tsx file: the store's program has the DOM). */
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../src/renderer/state/store';

/** An error as the bridge throws it (`BridgeError`: a code and the host's message). */
function bridgeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('renderer: the store’s side of the composer’s limits', () => {
  it('the error banner gets the words, not the zod text', () => {
    const store = createAppStore();
    store
      .getState()
      .showError(
        bridgeError(
          'invalid-input',
          'Invalid request for chat.send: attachments.0.name: Too big: expected string to have <=255 characters.',
        ),
      );
    expect(store.getState().error).toMatch(/^An attached file’s name was refused/);
  });

  it('counts each new chat (the composer resets on a change), also when one is open already', () => {
    const store = createAppStore();
    expect(store.getState().newChats).toBe(0);
    store.getState().newChat();
    store.getState().newChat();
    expect(store.getState().newChats).toBe(2);
    expect(store.getState().activeId).toBeNull();
  });
});
