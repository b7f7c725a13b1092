/**
 * Several models in the store, against an in-memory bridge: Compare's models go with `chat.send`,
 * each answer is a live turn of its group, the group is one row of the list and stays after its
 * answers end (a reload does not drop it) until one is kept; an approval card names the answer
 * that asks.
 */
import { describe, expect, it } from 'vitest';
import type { AivoryBridge } from '../../../src/renderer/bridge/bridge';
import { chatRows } from '../../../src/renderer/features/chat/chat-rows';
import { askingAnswer } from '../../../src/renderer/state/answer-names';
import { createAppStore } from '../../../src/renderer/state/store';
import { conversationDto } from './store-fixtures';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { Message } from '../../../src/shared/dto';
import type { TurnEvent } from '../../../src/shared/turn-events';

const conversation = conversationDto('c', 'm1');

function message(id: string, role: Message['role'], parentId: string | null): Message {
  return {
    id,
    conversationId: 'c',
    parentId,
    role,
    status: 'complete',
    createdAt: 1,
    updatedAt: 1,
    parts: [{ kind: 'text', text: id }],
  };
}

function fakeHost() {
  const calls: { method: string; request: unknown }[] = [];
  let shown = [message('q', 'user', null), message('a1', 'assistant', 'q')];
  const bridge: AivoryBridge = {
    host: 'browser',
    invoke: ((method: string, request?: Record<string, unknown>) => {
      calls.push({ method, request });
      if (method === 'conversations.get' || method === 'conversations.list')
        return Promise.resolve(
          method === 'conversations.list'
            ? [conversation]
            : { conversation, messages: shown, turns: [], versions: {}, older: null },
        );
      if (method === 'conversations.showVersion') {
        shown = [message('q', 'user', null), message('a2', 'assistant', 'q')];
        return Promise.resolve({ ok: true });
      }
      if (method === 'chat.send')
        return Promise.resolve({
          turnId: 'g',
          conversationId: 'c',
          messageId: 'a1',
          answers: [
            { turnId: 't1', messageId: 'a1', model: 'alpha' },
            { turnId: 't2', messageId: 'a2', model: 'beta' },
          ],
        });
      return Promise.reject(new Error(`unexpected ${method}`));
    }) as AivoryBridge['invoke'],
    onEvent: () => () => undefined,
    onConnectionChange: () => () => undefined,
    fileUrl: (path) => path,
  };
  return { bridge, calls };
}

function start(turnId: string, messageId: string, model: string, index: number): TurnEvent {
  return {
    type: 'turn-start',
    turnId,
    conversationId: 'c',
    messageId,
    model,
    modelId: model === 'alpha' ? 'm1' : 'm2',
    toolMode: 'native',
    mode: 'normal',
    group: { id: 'g', index, size: 2 },
  };
}

function end(turnId: string): TurnEvent {
  return {
    type: 'turn-end',
    turnId,
    stopReason: 'completed',
    answer: 'done',
    toolCalls: {},
    providerRounds: 1,
    durationMs: 1200,
  };
}

describe('renderer: several models in the store', () => {
  it('sends the compared models, keeps the group as one row until an answer is kept', async () => {
    const store = createAppStore();
    const { bridge, calls } = fakeHost();
    store.setState({ bridge, modelId: 'm1', activeId: 'c' });
    store.getState().setCompareModelIds(['m1', 'm2', 'm3', 'm4', 'm5']);
    // The composer's own model is not compared with itself; at most three others.
    expect(store.getState().compareModelIds).toEqual(['m2', 'm3', 'm4']);
    store.getState().setCompareModelIds(['m2']);
    store.getState().receiveTurnEvent({ turnId: 't1', event: start('t1', 'a1', 'alpha', 0) });
    store.getState().receiveTurnEvent({ turnId: 't2', event: start('t2', 'a2', 'beta', 1) });
    expect(await store.getState().send('Which?')).toBe(true);
    expect(calls.find((call) => call.method === 'chat.send')?.request).toMatchObject({
      text: 'Which?',
      modelId: 'm1',
      compareModelIds: ['m2'],
    });
    const live = () => Object.values(store.getState().liveTurns);
    expect(live().map((turn) => [turn.turnId, turn.group?.index, turn.userText])).toEqual([
      ['t1', 0, 'Which?'],
      ['t2', 1, null],
    ]);
    const rows = () =>
      chatRows(
        store.getState().messages,
        new Set(live().map((turn) => turn.messageId)),
        live(),
        false,
      ).map((row) => (row.kind === 'live-group' ? `group:${row.turnIds.join(',')}` : row.kind));
    expect(rows()).toEqual(['live-user', 'group:t1,t2']);

    // Both end; the reloads after them keep the comparison (the question now stored).
    store.getState().receiveTurnEvent({ turnId: 't1', event: end('t1') });
    store.getState().receiveTurnEvent({ turnId: 't2', event: end('t2') });
    await store.getState().openConversation('c');
    expect(live().map((turn) => turn.turnId)).toEqual(['t1', 't2']);
    expect(rows()).toEqual(['stored', 'group:t1,t2']);

    await store.getState().keepAnswer('g', 'a2');
    expect(calls.filter((call) => call.method === 'conversations.showVersion')).toEqual([
      { method: 'conversations.showVersion', request: { id: 'c', messageId: 'a2' } },
    ]);
    expect(live()).toEqual([]);
    expect(store.getState().messages.map((item) => item.id)).toEqual(['q', 'a2']);
  });

  it("an approval or sampling card names the answer that asks, by its saved model's label", () => {
    const choices = [
      {
        id: 'm2',
        label: 'Beta',
        kind: 'saved' as const,
        model: 'beta',
        provider: 'local',
        vision: null,
        toolMode: 'native' as const,
        contextWindow: null,
      },
    ];
    const grouped = { model: 'beta', modelId: 'm2', group: { id: 'g', index: 1, size: 2 } };
    expect(askingAnswer(grouped, choices)).toBe('Beta');
    expect(askingAnswer({ ...grouped, modelId: 'gone' }, choices)).toBe('beta');
    // A question's only answer, or a turn not followed here: nothing to name.
    expect(askingAnswer({ model: 'beta', modelId: 'm2' }, choices)).toBeNull();
    expect(askingAnswer(undefined, choices)).toBeNull();
  });

  it('the contract takes one to three more models, for a new question or an edit only', () => {
    const accepts = (request: Record<string, unknown>): boolean =>
      invokeContract['chat.send'].request.safeParse(request).success;
    expect(accepts({ text: 'Hi', compareModelIds: ['m2'] })).toBe(true);
    expect(accepts({ text: 'Hi', modelId: 'm1', compareModelIds: ['m2', 'm3', 'm4'] })).toBe(true);
    expect(accepts({ text: 'Hi', compareModelIds: [] })).toBe(false);
    expect(accepts({ text: 'Hi', compareModelIds: ['m2', 'm3', 'm4', 'm5'] })).toBe(false);
    expect(
      accepts({ text: 'Again', conversationId: 'c', editOf: 'q', compareModelIds: ['m2'] }),
    ).toBe(true);
    expect(
      accepts({ text: '', conversationId: 'c', regenerate: 'a1', compareModelIds: ['m2'] }),
    ).toBe(false);
    expect(accepts({ text: '', conversationId: 'c', retry: true, compareModelIds: ['m2'] })).toBe(
      false,
    );
  });
});
