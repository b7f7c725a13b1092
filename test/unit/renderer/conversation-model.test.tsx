/**
 * The composer's model follows the conversation: opening a conversation selects the model its last
 * turn used (null: the default), and reloading the open one after a turn keeps what the user
 * picked. The store runs against an in-memory bridge.
 */
import { describe, expect, it } from 'vitest';
import type { AivoryBridge } from '../../../src/renderer/bridge/bridge';
import { createAppStore } from '../../../src/renderer/state/store';
import { conversationDto } from './store-fixtures';
import type { Conversation } from '../../../src/shared/dto';

function bridgeOf(conversations: Conversation[]): AivoryBridge {
  return {
    host: 'browser',
    invoke: ((method: string, request?: { id: string }) => {
      if (method !== 'conversations.get') return Promise.reject(new Error(`unexpected ${method}`));
      const found = conversations.find((item) => item.id === request?.id);
      return Promise.resolve({ conversation: found, messages: [], turns: [], older: null });
    }) as AivoryBridge['invoke'],
    onEvent: () => () => undefined,
    onConnectionChange: () => () => undefined,
    fileUrl: (path) => path,
  };
}

describe('renderer: the model follows the conversation', () => {
  it('opening a conversation selects its model; reloading the open one keeps the pick', async () => {
    const store = createAppStore();
    store.setState({
      bridge: bridgeOf([conversationDto('a', 'model-x'), conversationDto('b', null)]),
    });
    store.getState().setModelId('model-y');
    await store.getState().openConversation('a');
    expect(store.getState().modelId).toBe('model-x');
    await store.getState().openConversation('b');
    expect(store.getState().modelId).toBeNull();

    store.getState().setModelId('model-y');
    await store.getState().openConversation('b');
    expect(store.getState().modelId).toBe('model-y');
  });
});
