/**
 * The store against a host that answers out of order: the reader's last move wins. A reload of
 * the old conversation (a turn ended) that lands after New chat does not reopen it, so the next
 * message starts a new conversation; pages and lists that arrive after newer ones are dropped.
 */
import { describe, expect, it } from 'vitest';
import type { AivoryBridge } from '../../../src/renderer/bridge/bridge';
import { createAppStore } from '../../../src/renderer/state/store';
import { conversationDto } from './store-fixtures';
import type { Message } from '../../../src/shared/dto';

const conversation = (id: string) => conversationDto(id);

function question(conversationId: string, text: string): Message {
  return {
    id: `${conversationId}-q`,
    conversationId,
    parentId: null,
    role: 'user',
    status: 'complete',
    createdAt: 1,
    updatedAt: 1,
    parts: [{ kind: 'text', text }],
  };
}

function page(id: string) {
  return {
    conversation: conversation(id),
    messages: [question(id, `in ${id}`)],
    turns: [],
    versions: {},
    older: null,
  };
}

interface Held {
  method: string;
  request: Record<string, unknown> | undefined;
  answer(value: unknown): void;
  fail(error: Error): void;
}

/** A host whose every answer waits until the test gives it. */
function heldHost() {
  const held: Held[] = [];
  const bridge: AivoryBridge = {
    host: 'browser',
    invoke: ((method: string, request?: Record<string, unknown>) =>
      new Promise((answer, fail) => {
        held.push({ method, request, answer, fail });
      })) as AivoryBridge['invoke'],
    onEvent: () => () => undefined,
    onConnectionChange: () => () => undefined,
    fileUrl: (path) => path,
  };
  /** The one held call of `method` (for `id`, if given), taken off the list. */
  const take = (method: string, id?: string): Held => {
    const index = held.findIndex(
      (call) => call.method === method && (id === undefined || call.request?.id === id),
    );
    if (index === -1) throw new Error(`no held ${method} ${id ?? ''}`);
    return held.splice(index, 1)[0]!;
  };
  return { bridge, held, take };
}

/** A store over a held host, showing conversation `id`. */
async function showing(id: string) {
  const store = createAppStore();
  const host = heldHost();
  store.setState({ bridge: host.bridge });
  const opened = store.getState().openConversation(id);
  host.take('conversations.get', id).answer(page(id));
  await opened;
  return { store, host };
}

/** Lets the store's awaits run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const turnEnd = (turnId: string) =>
  ({
    type: 'turn-end',
    turnId,
    stopReason: 'completed',
    answer: 'A',
    toolCalls: {},
    providerRounds: 1,
    durationMs: 1,
  }) as const;

describe('renderer: the reader’s last move wins over late answers', () => {
  it('a turn’s reload that lands after New chat leaves the new chat, and the next message starts a conversation', async () => {
    const store = createAppStore();
    const host = heldHost();
    store.setState({ bridge: host.bridge });

    // The first question starts conversation "a".
    const first = store.getState().send('An older question');
    host.take('chat.send').answer({ turnId: 't1', conversationId: 'a', messageId: 'a-a' });
    await settle();
    host.take('conversations.list').answer([conversation('a')]);
    expect(await first).toBe(true);
    expect(store.getState().activeId).toBe('a');

    // Its turn ends: the store reloads "a"; the reader presses New chat before the page arrives.
    store.getState().receiveTurnEvent({ turnId: 't1', event: turnEnd('t1') });
    store.getState().newChat();
    host.take('conversations.get', 'a').answer(page('a'));
    host.take('conversations.list').answer([conversation('a')]);
    await settle();
    expect(store.getState().activeId).toBeNull();
    expect(store.getState().messages).toEqual([]);

    // The next question goes to no conversation: the host starts a new one.
    const second = store.getState().send('Hello there');
    const sent = host.take('chat.send');
    expect(sent.request).not.toHaveProperty('conversationId');
    sent.answer({ turnId: 't2', conversationId: 'b', messageId: 'b-a' });
    await settle();
    host.take('conversations.list').answer([conversation('b'), conversation('a')]);
    expect(await second).toBe(true);
    expect(store.getState()).toMatchObject({ activeId: 'b', headingId: 'b' });
    // The new conversation's own reload is shown.
    store.getState().receiveTurnEvent({ turnId: 't2', event: turnEnd('t2') });
    host.take('conversations.get', 'b').answer(page('b'));
    host.take('conversations.list').answer([conversation('b'), conversation('a')]);
    await settle();
    expect(store.getState().messages.map((message) => message.id)).toEqual(['b-q']);
  });

  it('opening "a" then "b": "b" is shown whichever page arrives last; a reload of "a" after the click on "b" is dropped', async () => {
    const { store, host } = await showing('a');
    expect(store.getState().activeId).toBe('a');

    // The reader clicks "b"; before its page comes, "a" is reloaded (its turn ended).
    const toB = store.getState().openConversation('b');
    expect(store.getState()).toMatchObject({ activeId: 'a', headingId: 'b' });
    const reloadA = store.getState().reloadConversation('a');
    // A reload does not move the reader: still heading to "b".
    expect(store.getState().headingId).toBe('b');
    host.take('conversations.get', 'b').answer(page('b'));
    await toB;
    host.take('conversations.get', 'a').answer(page('a'));
    await reloadA;
    expect(store.getState().activeId).toBe('b');
    expect(store.getState().messages.map((message) => message.id)).toEqual(['b-q']);

    // Clicks on "a" then "b", answered in the reverse order: "b" stays.
    const clickA = store.getState().openConversation('a');
    const clickB = store.getState().openConversation('b');
    const pageA = host.take('conversations.get', 'a');
    host.take('conversations.get', 'b').answer(page('b'));
    await clickB;
    pageA.answer(page('a'));
    await clickA;
    expect(store.getState().activeId).toBe('b');
  });

  it('a page that fails to come leaves the reader where they were: the shown conversation still reloads', async () => {
    const { store, host } = await showing('a');

    const toGone = store.getState().openConversation('gone');
    host.take('conversations.get', 'gone').fail(new Error('Conversation not found'));
    await toGone;
    expect(store.getState()).toMatchObject({ activeId: 'a', headingId: 'a' });
    expect(store.getState().error).not.toBeNull();

    const reload = store.getState().reloadConversation('a');
    host
      .take('conversations.get', 'a')
      .answer({ ...page('a'), messages: [question('a', 'in a'), question('x', 'more')] });
    await reload;
    expect(store.getState().messages).toHaveLength(2);
  });

  it('the conversation list shows the newest request’s answer, not whichever came last', async () => {
    const store = createAppStore();
    const host = heldHost();
    store.setState({ bridge: host.bridge });
    const older = store.getState().refreshConversations();
    const newer = store.getState().refreshConversations();
    const [olderCall, newerCall] = host.held.splice(0, 2);
    newerCall!.answer([conversation('b'), conversation('a')]);
    await newer;
    olderCall!.answer([conversation('a')]);
    await older;
    expect(store.getState().conversations.map((item) => item.id)).toEqual(['b', 'a']);
  });
});
