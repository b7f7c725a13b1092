/**
 * A title the conversation's model wrote reaches the windows: the host publishes
 * `conversations.updated` with the conversation, and `conversations.rename` makes the title the
 * user's, which a title request under way no longer replaces (issue 22). Real AppContext; the
 * model is the scripted in-memory client.
 */
import { afterEach, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/main/host/event-hub';
import { ConversationTitles } from '../../../src/main/services/conversation-titles';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';
import { ScriptedLlmClient } from '../../support/scripted-llm-client';

let fixture: HostFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

function firstAnswer(host: HostFixture, conversationId: string): void {
  const titles = host.app.titles;
  if (!(titles instanceof ConversationTitles)) throw new Error('not the titles service');
  titles.firstAnswer({
    conversationId,
    question: 'How do I brew green tea?',
    answer: 'At 80 °C.',
    llm: new ScriptedLlmClient([{ content: 'Brewing green tea' }]),
    model: 'scripted-model',
  });
}

it('publishes conversations.updated with the generated title', async () => {
  fixture = openHostFixture();
  const events: HubEvent[] = [];
  fixture.host.events.subscribe((event) => events.push(event));
  const conversation = fixture.app.stores.conversations.createConversation({
    id: 'conv_tea',
    title: 'How do I brew green tea?',
    modelId: null,
  });
  firstAnswer(fixture, conversation.id);
  await fixture.app.titles.settled();
  expect(events).toEqual([
    {
      name: 'conversations.updated',
      payload: {
        conversation: expect.objectContaining({ id: 'conv_tea', title: 'Brewing green tea' }),
      },
    },
  ]);
  const listed = await fixture.value('conversations.list');
  expect(listed[0]?.title).toBe('Brewing green tea');
});

it('a rename through the contract wins over a generated title', async () => {
  fixture = openHostFixture();
  const events: HubEvent[] = [];
  fixture.host.events.subscribe((event) => events.push(event));
  fixture.app.stores.conversations.createConversation({
    id: 'conv_tea',
    title: 'How do I brew green tea?',
    modelId: null,
  });
  await fixture.value('conversations.rename', { id: 'conv_tea', title: 'Tea notes' });
  firstAnswer(fixture, 'conv_tea');
  await fixture.app.titles.settled();
  expect(events).toEqual([]);
  expect(fixture.app.stores.conversations.getConversation('conv_tea')?.title).toBe('Tea notes');
});
