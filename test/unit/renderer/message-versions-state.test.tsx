/**
 * The store's versions actions against an in-memory bridge: regenerate and edit send the right
 * `chat.send` and show the turn live in place of what they replace; ‹ › asks the host to show the
 * other version and reloads; an ended turn of another version does not linger after the reload.
 */
import { describe, expect, it } from 'vitest';
import type { AivoryBridge } from '../../../src/renderer/bridge/bridge';
import { createAppStore } from '../../../src/renderer/state/store';
import { conversationDto } from './store-fixtures';
import type { Message } from '../../../src/shared/dto';

const conversation = conversationDto('c');

function message(
  id: string,
  role: Message['role'],
  parentId: string | null,
  text: string,
): Message {
  return {
    id,
    conversationId: 'c',
    parentId,
    role,
    status: 'complete',
    createdAt: 1,
    updatedAt: 1,
    parts: [
      { kind: 'text', text },
      ...(role === 'user' && id === 'q1'
        ? [
            {
              kind: 'attachment' as const,
              attachment: { name: 'a.csv', path: '/u/a.csv', mime: 'text/csv', size: 3 },
            },
          ]
        : []),
    ],
  };
}

function fakeHost() {
  const calls: { method: string; request: unknown }[] = [];
  let shown = [message('q1', 'user', null, 'Q1'), message('a1', 'assistant', 'q1', 'A1')];
  const bridge: AivoryBridge = {
    host: 'browser',
    invoke: ((method: string, request?: Record<string, unknown>) => {
      calls.push({ method, request });
      if (method === 'conversations.get')
        return Promise.resolve({
          conversation,
          messages: shown,
          turns: [],
          versions: {},
          older: null,
        });
      if (method === 'conversations.showVersion') {
        shown = [message('q1', 'user', null, 'Q1'), message('a0', 'assistant', 'q1', 'A0')];
        return Promise.resolve({ ok: true });
      }
      if (method === 'chat.send')
        return Promise.resolve({ turnId: 't2', conversationId: 'c', messageId: 'a2' });
      return Promise.reject(new Error(`unexpected ${method}`));
    }) as AivoryBridge['invoke'],
    onEvent: () => () => undefined,
    onConnectionChange: () => () => undefined,
    fileUrl: (path) => path,
  };
  return { bridge, calls };
}

describe('renderer: message versions in the store', () => {
  it('regenerate sends the answer id (and a chosen mode) and shows the new answer live after the question', async () => {
    const store = createAppStore();
    const { bridge, calls } = fakeHost();
    store.setState({ bridge, mode: 'normal' });
    await store.getState().openConversation('c');
    expect(await store.getState().regenerate('a1', 'deep')).toBe(true);
    expect(calls.at(-1)).toEqual({
      method: 'chat.send',
      request: { text: '', mode: 'deep', regenerate: 'a1', conversationId: 'c' },
    });
    expect(store.getState().messages.map((item) => item.id)).toEqual(['q1']);
    expect(store.getState().liveTurns.t2).toMatchObject({ messageId: 'a2', userText: null });
    await store.getState().regenerate('q1');
    expect(calls.at(-1)?.request).toMatchObject({ mode: 'normal', regenerate: 'q1' });
  });

  it('edit sends the new text, keeps the question’s files, and shows the new question live', async () => {
    const store = createAppStore();
    const { bridge, calls } = fakeHost();
    store.setState({ bridge });
    await store.getState().openConversation('c');
    expect(await store.getState().editAndResend('q1', '   ')).toBe(false);
    expect(await store.getState().editAndResend('q1', 'Q1 again')).toBe(true);
    expect(calls.at(-1)?.request).toMatchObject({ editOf: 'q1', text: 'Q1 again' });
    expect(store.getState().messages).toEqual([]);
    expect(store.getState().liveTurns.t2).toMatchObject({
      userText: 'Q1 again',
      userFiles: [{ name: 'a.csv', path: '/u/a.csv', mime: 'text/csv', size: 3 }],
    });
  });

  it('showVersion asks the host and reloads; an ended turn off the shown path is not shown live', async () => {
    const store = createAppStore();
    const { bridge, calls } = fakeHost();
    store.setState({ bridge });
    await store.getState().openConversation('c');
    await store.getState().regenerate('a1');
    store.getState().receiveTurnEvent({
      turnId: 't2',
      event: {
        type: 'turn-end',
        turnId: 't2',
        stopReason: 'completed',
        answer: 'A2',
        toolCalls: {},
        providerRounds: 1,
        durationMs: 1,
      },
    });
    await store.getState().showVersion('a0');
    expect(calls.some((call) => call.method === 'conversations.showVersion')).toBe(true);
    expect(store.getState().messages.map((item) => item.id)).toEqual(['q1', 'a0']);
    expect(store.getState().liveTurns).toEqual({});
  });
});
