/**
 * Titles written by the conversation's model (issue 22): after the first complete answer, one
 * small request to that conversation's model (no tools, a few tokens, the title instruction);
 * never again on later answers; never over a title the user gave, before or during the request;
 * a failure keeps the first-message title. Real SQLite store and ChatService; the model is the
 * scripted in-memory client (one per model, so a request shows which model it went to).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileArtifactSink } from '../../../src/main/adapters/artifacts/file-artifact-sink';
import type { SqliteStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import type { LlmRequest } from '../../../src/main/core/ports';
import type { ResolvedModel } from '../../../src/main/services/chat-service';
import { ChatService } from '../../../src/main/services/chat-service';
import {
  ConversationTitles,
  MAX_GENERATED_TITLE_CHARS,
  sanitizeTitle,
  TITLE_INSTRUCTION,
  TITLE_MAX_OUTPUT_TOKENS,
} from '../../../src/main/services/conversation-titles';
import type { Conversation } from '../../../src/shared/dto';
import type { TurnEvent } from '../../../src/shared/turn-events';
import type { ScriptedResponse } from '../../support/llm-script';
import { ScriptedLlmClient } from '../../support/scripted-llm-client';
import { recordingLogger } from '../../support/turn-harness';

function model(name: string): ResolvedModel {
  return {
    id: null,
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: null,
    model: name,
    toolMode: 'native',
    contextWindow: 32_768,
    defaultTools: [],
  };
}

/** A request with the model it was sent to (each model has its own client). */
interface SentRequest {
  model: string;
  request: LlmRequest;
  kind: 'title' | 'turn';
}

const stores: SqliteStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function fixture(title: () => ScriptedResponse = () => ({ content: 'Green tea facts' })) {
  const store = openStore(join(mkdtempSync(join(tmpdir(), 'aivory-titles-')), 'aivory.db'));
  stores.push(store);
  let counter = 0;
  const ids = { next: (prefix: string) => `${prefix}_${++counter}` };
  const logger = recordingLogger();
  const sent: SentRequest[] = [];
  let answer: () => ScriptedResponse = () => ({ content: 'Green tea is a tea.' });
  const titles = new ConversationTitles({ conversations: store.conversations, logger });
  const titled: Conversation[] = [];
  titles.onTitled((conversation) => titled.push(conversation));
  const chat = new ChatService({
    conversations: store.conversations,
    memories: store.memories,
    skills: store.library,
    settings: store.settings,
    tools: {
      candidates: () => Promise.resolve([]),
      build: () => Promise.resolve({ tools: [], missing: [] }),
    },
    createLlmClient: (resolved) =>
      new ScriptedLlmClient((request) => {
        const kind = request.messages[0]?.content === TITLE_INSTRUCTION ? 'title' : 'turn';
        sent.push({ model: resolved.model, request, kind });
        return kind === 'title' ? title() : answer();
      }),
    clock: { now: () => Date.UTC(2025, 0, 2) },
    ids,
    logger,
    limitOverrides: {},
    attachments: new FileArtifactSink(join(tmpdir(), 'aivory-titles-uploads')),
    titles,
  });
  return {
    store,
    chat,
    titles,
    titled,
    sent,
    logger,
    titleRequests: () => sent.filter((entry) => entry.kind === 'title'),
    setAnswer: (next: () => ScriptedResponse) => {
      answer = next;
    },
  };
}

async function turn(
  chat: ChatService,
  text: string,
  options: { conversationId?: string; model?: ResolvedModel } = {},
  onEvent: (event: TurnEvent) => void = () => undefined,
): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of chat.runTurn(
    {
      text,
      model: options.model ?? model('model-a'),
      mode: 'normal',
      ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    },
    new AbortController().signal,
  )) {
    events.push(event);
    onEvent(event);
  }
  return events;
}

function conversationOf(events: TurnEvent[]): string {
  const start = events.find((event) => event.type === 'turn-start');
  if (start?.type !== 'turn-start') throw new Error('no turn-start');
  return start.conversationId;
}

describe('conversation titles from the conversation’s model', () => {
  it('asks once, after the first answer, with the conversation’s model, and stores the title', async () => {
    const f = fixture(() => ({ content: '"**Green tea facts.**"\nA second line' }));
    const events = await turn(f.chat, 'Tell me about green tea, please, in some detail');
    const id = conversationOf(events);
    await f.titles.settled();

    expect(f.sent.map((entry) => entry.kind)).toEqual(['turn', 'title']);
    const [title] = f.titleRequests();
    expect(title?.model).toBe('model-a');
    expect(title?.request.model).toBe('model-a');
    expect(title?.request.tools).toBeUndefined();
    expect(title?.request.maxOutputTokens).toBe(TITLE_MAX_OUTPUT_TOKENS);
    expect(title?.request.messages[1]?.content).toContain(
      'Tell me about green tea, please, in some detail',
    );
    expect(title?.request.messages[1]?.content).toContain('Green tea is a tea.');
    expect(f.store.conversations.getConversation(id)?.title).toBe('Green tea facts');
    expect(f.store.conversations.getTitleSource(id)).toBe('generated');
    expect(f.titled.map((conversation) => [conversation.id, conversation.title])).toEqual([
      [id, 'Green tea facts'],
    ]);

    // Later answers, even from another model, ask nothing more.
    await turn(f.chat, 'And black tea?', { conversationId: id, model: model('model-b') });
    await turn(f.chat, 'And oolong?', { conversationId: id });
    await f.titles.settled();
    expect(f.titleRequests()).toHaveLength(1);
    expect(f.sent.map((entry) => entry.kind)).toEqual(['turn', 'title', 'turn', 'turn']);
    expect(f.titled).toHaveLength(1);
  });

  it('is sent by the model that answered first, not by the model of a conversation’s later turns', async () => {
    const f = fixture();
    const id = conversationOf(await turn(f.chat, 'Hi there', { model: model('model-b') }));
    await f.titles.settled();
    expect(f.titleRequests().map((entry) => entry.model)).toEqual(['model-b']);
    expect(f.store.conversations.getConversation(id)?.title).toBe('Green tea facts');
  });

  it('asks nothing when the user renamed the conversation before the first answer ended', async () => {
    const f = fixture();
    let release: () => void = () => undefined;
    const until = new Promise<void>((resolve) => (release = resolve));
    f.setAnswer(() => ({ content: 'A long answer.', pauseAfterChunks: { count: 2, until } }));
    let renamed = false;
    let started = '';
    const events = await turn(f.chat, 'Tell me about green tea', {}, (event) => {
      if (event.type === 'turn-start') started = event.conversationId;
      if (event.type !== 'text-delta' || renamed) return;
      renamed = true;
      f.store.conversations.renameConversation(started, 'My tea notes');
      release();
    });
    await f.titles.settled();
    const id = conversationOf(events);
    expect(renamed).toBe(true);
    expect(f.titleRequests()).toHaveLength(0);
    expect(f.store.conversations.getConversation(id)?.title).toBe('My tea notes');
    expect(f.store.conversations.getTitleSource(id)).toBe('user');
  });

  it('keeps a rename made while the title request runs', async () => {
    let release: () => void = () => undefined;
    const until = new Promise<void>((resolve) => (release = resolve));
    const f = fixture(() => ({
      content: 'Green tea facts',
      pauseAfterChunks: { count: 1, until },
    }));
    const id = conversationOf(await turn(f.chat, 'Tell me about green tea'));
    expect(f.titleRequests()).toHaveLength(1);
    f.store.conversations.renameConversation(id, 'Mine');
    release();
    await f.titles.settled();
    expect(f.store.conversations.getConversation(id)?.title).toBe('Mine');
    expect(f.titled).toHaveLength(0);
  });

  it('keeps the first-message title when the title request fails, with a log line, and does not ask again', async () => {
    const f = fixture(() => ({ status: 500, errorMessage: 'overloaded' }));
    const events = await turn(f.chat, 'Tell me about green tea');
    const id = conversationOf(events);
    await f.titles.settled();
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', stopReason: 'completed' });
    expect(f.store.conversations.getConversation(id)?.title).toBe('Tell me about green tea');
    expect(f.store.conversations.getTitleSource(id)).toBe('message');
    expect(f.logger.entries.filter((entry) => entry.level === 'warn')).toEqual([
      expect.objectContaining({ message: 'no title for the conversation' }),
    ]);
    await turn(f.chat, 'More', { conversationId: id });
    await f.titles.settled();
    expect(f.titleRequests()).toHaveLength(1);
  });

  it('asks nothing after a failed or empty first answer, and asks after the first complete one', async () => {
    const f = fixture();
    f.setAnswer(() => ({ content: '' }));
    const id = conversationOf(await turn(f.chat, 'Tell me about green tea'));
    await f.titles.settled();
    expect(f.titleRequests()).toHaveLength(0);
    f.setAnswer(() => ({ content: 'Now an answer.' }));
    await turn(f.chat, 'Again?', { conversationId: id });
    await f.titles.settled();
    expect(f.titleRequests()).toHaveLength(1);
    expect(f.store.conversations.getConversation(id)?.title).toBe('Green tea facts');
  });
});

describe('sanitizeTitle', () => {
  it('keeps one clean line', () => {
    expect(sanitizeTitle('  "Green tea facts."  ')).toBe('Green tea facts');
    expect(sanitizeTitle('## **Green** `tea`\nmore')).toBe('Green tea');
    expect(sanitizeTitle('Title: 「绿茶的好处」。')).toBe('绿茶的好处');
    expect(sanitizeTitle('<think>pondering</think>\n\n[Tea](https://x.example) notes')).toBe(
      'Tea notes',
    );
    // Each hidden character a space (the one rule of shared/untrusted-text.ts), spaces folded.
    expect(sanitizeTitle('a\u202Eevil\u200B\u0007 title')).toBe('a evil title');
    expect(sanitizeTitle('- «Tea»')).toBe('Tea');
  });

  it('is bounded and null when nothing is left', () => {
    const long = sanitizeTitle('word '.repeat(100)) ?? '';
    expect([...long].length).toBe(MAX_GENERATED_TITLE_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(sanitizeTitle('  \n "" \u200F')).toBeNull();
    expect(sanitizeTitle('<think>only thinking, cut off')).toBeNull();
  });
});
