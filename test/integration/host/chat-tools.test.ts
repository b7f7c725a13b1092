/**
 * `chat.send` over a real AppContext: the conversation's own tool switches (set through
 * `conversations.setTools`) reach the next turn, even for a tool outside the model's defaults;
 * the turn id `chat.send` answers is every event's, and `turn-end` comes after the turn is stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/main/host/event-hub';
import type { TurnEvent } from '../../../src/shared/turn-events';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

describe('chat.send and the conversation’s tool switches', () => {
  let fixture: HostFixture | null = null;
  let server: ScriptedLlmServer | null = null;

  afterEach(async () => {
    await fixture?.close();
    await server?.close();
    fixture = null;
    server = null;
  });

  /** Sends a message and waits for its turn-end; what the store held when turn-end arrived. */
  async function send(
    host: HostFixture,
    request: {
      text: string;
      modelId: string;
      conversationId?: string;
      toolToggles?: Record<string, boolean>;
    },
  ) {
    const events: TurnEvent[] = [];
    const ended = new Promise<{ records: string[]; status: string | undefined }>((resolve) => {
      const unsubscribe = host.host.events.subscribe((event: HubEvent) => {
        if (event.name !== 'turn.event') return;
        events.push(event.payload.event);
        expect(event.payload.turnId).toBe(event.payload.event.turnId);
        if (event.payload.event.type !== 'turn-end') return;
        const messages = host.app.stores.conversations.listMessages(sent?.conversationId ?? '');
        resolve({
          records: host.app.stores.conversations
            .listTurnRecords(sent?.conversationId ?? '')
            .map((record) => record.id),
          status: messages.at(-1)?.status,
        });
        unsubscribe();
      });
    });
    let sent: { turnId: string; conversationId: string } | null = null;
    sent = await host.value('chat.send', request);
    const atEnd = await ended;
    return { sent, events, atEnd };
  }

  function offered(index: number): string[] {
    const system =
      (
        server?.requests.filter((request) => request.path.endsWith('/chat/completions'))[index]
          ?.body.messages as { content: string }[]
      )[0]?.content ?? '';
    return ['save_memory', 'use_skill', 'web_fetch'].filter((name) =>
      system.includes(`### ${name}\n`),
    );
  }

  it('a tool switched on for the conversation is offered by its next turn', async () => {
    server = await startScriptedLlmServer(() => ({ content: 'ok' }));
    const host = openHostFixture();
    fixture = host;
    const model = await host.value('models.save', {
      baseUrl: server.baseUrl,
      model: 'scripted-model',
      toolMode: 'prompt',
      defaultTools: ['save_memory'],
    });
    const first = await send(host, { text: 'hello', modelId: model.id });
    expect(offered(0)).toEqual(['save_memory']);
    expect(first.events.map((event) => event.turnId)).toEqual(
      first.events.map(() => first.sent.turnId),
    );
    // The turn was stored before its turn-end went out.
    expect(first.atEnd).toEqual({ records: [first.sent.turnId], status: 'complete' });

    const { conversationId } = first.sent;
    const rows = await host.value('conversations.setTools', {
      id: conversationId,
      toggles: { web_fetch: true, save_memory: false },
    });
    expect(rows.tools.find((row) => row.name === 'web_fetch')).toMatchObject({
      on: true,
      layer: 'conversation-on',
      available: true,
    });
    const second = await send(host, { text: 'again', modelId: model.id, conversationId });
    expect(offered(1)).toEqual(['web_fetch']);
    expect(second.atEnd.records).toEqual([first.sent.turnId, second.sent.turnId]);

    // The global switch wins over the conversation's.
    host.app.stores.settings.setToolAvailability('web_fetch', false);
    await send(host, { text: 'and again', modelId: model.id, conversationId });
    expect(offered(2)).toEqual([]);
  });

  it("a new chat's switches, set before its first message, drive that turn and are kept", async () => {
    server = await startScriptedLlmServer(() => ({ content: 'ok' }));
    const host = openHostFixture();
    fixture = host;
    const model = await host.value('models.save', {
      baseUrl: server.baseUrl,
      model: 'scripted-model',
      toolMode: 'prompt',
      defaultTools: ['save_memory'],
    });
    // The composer asks how the switches read for a chat that does not exist yet.
    const draft = { web_fetch: true, save_memory: false };
    const rows = await host.value('conversations.tools', { modelId: model.id, toggles: draft });
    expect(rows.tools.find((row) => row.name === 'web_fetch')).toMatchObject({
      on: true,
      layer: 'conversation-on',
    });
    expect(rows.tools.find((row) => row.name === 'save_memory')).toMatchObject({
      on: false,
      layer: 'conversation-off',
    });
    const first = await send(host, { text: 'hello', modelId: model.id, toolToggles: draft });
    expect(offered(0)).toEqual(['web_fetch']);
    const { conversationId } = first.sent;
    expect(host.app.stores.conversations.getConversation(conversationId)?.toolToggles).toEqual(
      draft,
    );
    await send(host, { text: 'again', modelId: model.id, conversationId });
    expect(offered(1)).toEqual(['web_fetch']);

    // An existing conversation keeps its own switches: toggles with an id are refused.
    await expect(
      host.value('chat.send', { text: 'x', conversationId, toolToggles: { web_fetch: false } }),
    ).rejects.toThrow(/only for a new conversation/);
    await expect(
      host.value('conversations.tools', { id: conversationId, toggles: { web_fetch: false } }),
    ).rejects.toThrow(/toggles are for a new chat/);
    await expect(
      host.value('conversations.tools', { toggles: { 'not a tool!': true } }),
    ).rejects.toThrow(/conversations.tools failed: invalid/);
  });
});
