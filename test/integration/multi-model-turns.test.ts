/**
 * Several models, one question (issue 25, part 2): the chat service runs one answer per model
 * under the same question, at once, through the real provider adapter and a scripted
 * OpenAI-compatible server that answers by the request's model name. Each answer is its own turn
 * (record, model, tools), a sibling version of the others, built from the same history; the
 * conversation's one claim is held by the group until the last answer is finished.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileArtifactSink } from '../../src/main/adapters/artifacts/file-artifact-sink';
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { Tool } from '../../src/main/core/ports';
import type { ResolvedModel, TurnRequest } from '../../src/main/services/chat-service';
import { ChatService } from '../../src/main/services/chat-service';
import { ToolCatalog } from '../../src/main/services/tool-catalog';
import { messageText } from '../../src/shared/message-parts';
import type { TurnEvent } from '../../src/shared/turn-events';
import type { RecordedRequest, Script, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { echoTool } from '../support/fake-tools';
import { recordingLogger } from '../support/turn-harness';

interface Fixture {
  store: SqliteStore;
  /** A second store on the same database file: another process's view (its own leases). */
  path: string;
  chat: ChatService;
  server: ScriptedLlmServer;
  models: ResolvedModel[];
}

const open: { close(): Promise<void> | void }[] = [];

function chatOver(
  store: SqliteStore,
  directory: string,
  tag = '',
  extraTools: Tool[] = [],
): ChatService {
  let counter = 0;
  const ids = { next: (prefix: string) => `${prefix}_${tag}${++counter}` };
  return new ChatService({
    conversations: store.conversations,
    memories: store.memories,
    skills: store.library,
    settings: store.settings,
    tools: new ToolCatalog({
      builtIns: [echoTool('echo'), ...extraTools],
      prepared: {
        names: [],
        build: () => Promise.resolve(null),
        status: () => Promise.resolve(null),
      },
      switches: () => store.settings.getToolAvailability(),
    }),
    createLlmClient: (model) =>
      new OpenAiLlmClient({ baseUrl: model.baseUrl, apiKey: model.apiKey, maxRetries: 0 }),
    clock: { now: () => Date.now() },
    ids,
    logger: recordingLogger(),
    limitOverrides: {},
    attachments: new FileArtifactSink(join(directory, 'uploads')),
  });
}

async function fixture(script: Script, extraTools: Tool[] = []): Promise<Fixture> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-models-'));
  const path = join(directory, 'aivory.db');
  const store = openStore(path);
  open.push(store);
  const server = await startScriptedLlmServer(script);
  open.push(server);
  const model = (id: string, name: string): ResolvedModel => ({
    id,
    baseUrl: server.baseUrl,
    apiKey: null,
    model: name,
    toolMode: 'native',
    contextWindow: 32_768,
    defaultTools: null,
  });
  return {
    store,
    path,
    chat: chatOver(store, directory, '', extraTools),
    server,
    models: [model('model_a', 'alpha-7b'), model('model_b', 'beta-13b'), model('model_c', 'gamma')],
  };
}

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** The model a request named. */
function modelOf(request: RecordedRequest): string {
  return String(request.body.model);
}

/** The (role, content) the request sent, system prompt left out. */
function history(request: RecordedRequest | undefined): { role: string; content: unknown }[] {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role !== 'system')
    .map((message) => ({ role: message.role, content: message.content }));
}

async function collect(
  chat: ChatService,
  request: TurnRequest,
  signal = new AbortController().signal,
): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of chat.runTurn(request, signal)) events.push(event);
  return events;
}

describe('several models answer one question', () => {
  it('stores one sibling answer per model, each its own turn, and keeps the one chosen', async () => {
    const { store, chat, server, models } = await fixture((request) =>
      modelOf(request) === 'alpha-7b'
        ? { content: 'Alpha says: 42.', chunkSize: 4 }
        : { content: 'Beta thinks it is forty-two.', chunkSize: 5 },
    );
    const [alpha, beta] = models as [ResolvedModel, ResolvedModel];
    const events = await collect(chat, {
      text: 'What is the answer?',
      model: alpha,
      compareWith: [beta],
      mode: 'normal',
    });
    const starts = events.filter((event) => event.type === 'turn-start');
    expect(starts).toHaveLength(2);
    const [first, second] = starts;
    expect(first).toMatchObject({ model: 'alpha-7b', modelId: 'model_a' });
    expect(second).toMatchObject({ model: 'beta-13b', modelId: 'model_b' });
    expect(first?.group).toMatchObject({ index: 0, size: 2 });
    expect(second?.group).toMatchObject({ id: first?.group?.id, index: 1, size: 2 });
    expect(first?.turnId).not.toBe(second?.turnId);
    // Every event belongs to one of the two answers, each ended once.
    const ends = events.filter((event) => event.type === 'turn-end');
    expect(Object.fromEntries(ends.map((end) => [end.turnId, end.answer]))).toEqual({
      [first?.turnId ?? '']: 'Alpha says: 42.',
      [second?.turnId ?? '']: 'Beta thinks it is forty-two.',
    });
    const textOf = (turnId: string | undefined) =>
      events
        .filter((event) => event.type === 'text-delta' && event.turnId === turnId)
        .map((event) => (event.type === 'text-delta' ? event.text : ''))
        .join('');
    expect(textOf(first?.turnId)).toBe('Alpha says: 42.');
    expect(textOf(second?.turnId)).toBe('Beta thinks it is forty-two.');

    // Both models were asked the same question with the same history.
    const completions = server.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(completions.map(modelOf).sort()).toEqual(['alpha-7b', 'beta-13b']);
    expect(history(completions[0])).toEqual([{ role: 'user', content: 'What is the answer?' }]);
    expect(history(completions[1])).toEqual(history(completions[0]));

    // Stored: one question, two sibling answers with their models; the first model's shown.
    const conversationId = first?.conversationId ?? '';
    const all = store.conversations.listAllMessages(conversationId);
    expect(all.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    const question = all[0];
    expect(all.slice(1).every((message) => message.parentId === question?.id)).toBe(true);
    const records = store.conversations.listTurnRecords(conversationId);
    expect(
      records.map((record) => [record.messageId, record.modelId, record.modelName]).sort(),
    ).toEqual(
      [
        [first?.messageId, 'model_a', 'alpha-7b'],
        [second?.messageId, 'model_b', 'beta-13b'],
      ].sort(),
    );
    const shown = () =>
      store.conversations.listMessages(conversationId).map((message) => messageText(message.parts));
    expect(shown()).toEqual(['What is the answer?', 'Alpha says: 42.']);
    expect(store.conversations.listVersions(conversationId)[first?.messageId ?? '']).toEqual([
      first?.messageId,
      second?.messageId,
    ]);

    // Keeping beta's answer: the conversation continues from it.
    store.conversations.showVersion(conversationId, second?.messageId ?? '');
    expect(shown()).toEqual(['What is the answer?', 'Beta thinks it is forty-two.']);
    await collect(chat, { text: 'Why?', conversationId, model: beta, mode: 'normal' });
    const last = server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
    expect(history(last)).toEqual([
      { role: 'user', content: 'What is the answer?' },
      { role: 'assistant', content: 'Beta thinks it is forty-two.' },
      { role: 'user', content: 'Why?' },
    ]);
  });

  it('holds the one claim for the group: another process is refused until the last answer ends', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { store, chat, path, models } = await fixture((request) =>
      modelOf(request) === 'alpha-7b'
        ? { content: 'Alpha is quick.' }
        : {
            content: 'Beta takes its time to answer.',
            chunkSize: 5,
            pauseAfterChunks: { count: 2, until: released },
          },
    );
    const [alpha, beta, gamma] = models as [ResolvedModel, ResolvedModel, ResolvedModel];
    // Another process: its own store (its own leases) on the same database file.
    const other = openStore(path);
    open.push(other);
    const otherChat = chatOver(other, join(path, '..'), 'other');
    let conversationId = '';
    let alphaEnded: () => void = () => undefined;
    const alphaDone = new Promise<void>((resolve) => (alphaEnded = resolve));
    const group = (async () => {
      for await (const event of chat.runTurn(
        { text: 'Race?', model: alpha, compareWith: [beta], mode: 'normal' },
        new AbortController().signal,
      )) {
        if (event.type === 'turn-start') conversationId = event.conversationId;
        if (event.type === 'turn-end' && event.answer === 'Alpha is quick.') alphaEnded();
      }
    })();
    await alphaDone;
    // Alpha's answer is finished, beta's still streams: the conversation is still claimed.
    await expect(
      collect(otherChat, { text: 'Third?', conversationId, model: gamma, mode: 'normal' }),
    ).rejects.toMatchObject({ code: 'busy' });
    expect(store.conversations.listAllMessages(conversationId)).toHaveLength(3);
    release();
    await group;
    const third = await collect(otherChat, {
      text: 'Third?',
      conversationId,
      model: gamma,
      mode: 'normal',
    });
    expect(third.at(-1)).toMatchObject({ type: 'turn-end', stopReason: 'completed' });
    // The third turn follows the shown answer (alpha's), never beta's partial text.
    expect(
      store.conversations.listMessages(conversationId).map((message) => messageText(message.parts)),
    ).toEqual(['Race?', 'Alpha is quick.', 'Third?', 'Beta takes its time to answer.']);
  });

  it('stops one answer alone, or all of them by the group id', async () => {
    const never = new Promise<void>(() => undefined);
    const { store, chat, models } = await fixture(() => ({
      content: 'An answer that never ends.',
      chunkSize: 3,
      pauseAfterChunks: { count: 2, until: never },
    }));
    const [alpha, beta, gamma] = models as [ResolvedModel, ResolvedModel, ResolvedModel];
    const started = new Map<string, string>();
    let allStreaming: () => void = () => undefined;
    const streaming = new Promise<void>((resolve) => (allStreaming = resolve));
    const texted = new Set<string>();
    const ends: TurnEvent[] = [];
    const { turnId: groupId, done } = chat.startTurn(
      { text: 'Go', model: alpha, compareWith: [beta, gamma], mode: 'fast' },
      (event) => {
        if (event.type === 'turn-start') started.set(event.model, event.turnId);
        if (event.type === 'text-delta') texted.add(event.turnId);
        if (texted.size === 3) allStreaming();
        if (event.type === 'turn-end') ends.push(event);
      },
    );
    await streaming;
    expect(chat.cancelTurn(started.get('beta-13b') ?? '')).toBe(true);
    await expect.poll(() => ends.length).toBe(1);
    expect(ends[0]).toMatchObject({ turnId: started.get('beta-13b'), stopReason: 'canceled' });
    expect(chat.cancelTurn(groupId)).toBe(true);
    await done;
    expect(ends.map((end) => (end.type === 'turn-end' ? end.stopReason : ''))).toEqual([
      'canceled',
      'canceled',
      'canceled',
    ]);
    const conversationId = store.conversations.listConversations()[0]?.id ?? '';
    expect(
      store.conversations
        .listAllMessages(conversationId)
        .filter((message) => message.role === 'assistant')
        .map((message) => message.status),
    ).toEqual(['canceled', 'canceled', 'canceled']);
    expect(store.conversations.listTurnRecords(conversationId)).toHaveLength(3);
  });

  it("takes the answers' Python calls one at a time (the conversation's sandbox runs one)", async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    const overlaps: string[] = [];
    const entered: string[] = [];
    const python: Tool = {
      name: 'python_execute',
      description: 'Runs Python (a stand-in that notices two calls at once).',
      inputSchema: { type: 'object', properties: { code: { type: 'string' } } },
      timeoutMs: 30_000,
      execute: async (args) => {
        const code = String((args as { code?: unknown }).code);
        entered.push(code);
        running += 1;
        if (running > 1) overlaps.push(code);
        // The first call waits until the other answer has asked for its own.
        if (entered.length === 1) await gate;
        running -= 1;
        return { content: `ran ${code}` };
      },
    };
    const { chat, models } = await fixture(
      (request, index) => {
        const messages = request.body.messages as { role: string }[];
        const model = modelOf(request);
        if (messages.at(-1)?.role === 'tool') return { content: `${model} is done.` };
        return {
          toolCalls: [
            { id: `call_${index}`, name: 'python_execute', arguments: `{"code":"${model}"}` },
          ],
        };
      },
      [python],
    );
    const [alpha, beta] = models as [ResolvedModel, ResolvedModel];
    const asked = new Set<string>();
    const ends: TurnEvent[] = [];
    const { done } = chat.startTurn(
      { text: 'Compute', model: alpha, compareWith: [beta], mode: 'normal' },
      (event) => {
        if (event.type === 'tool-call-end') {
          asked.add(event.turnId);
          // Both answers have asked: let the first call go on once the second had its chance.
          if (asked.size === 2) setImmediate(release);
        }
        if (event.type === 'turn-end') ends.push(event);
      },
    );
    await done;
    expect(entered.sort()).toEqual(['alpha-7b', 'beta-13b']);
    expect(overlaps).toEqual([]);
    expect(ends.map((end) => (end.type === 'turn-end' ? end.answer : '')).sort()).toEqual([
      'alpha-7b is done.',
      'beta-13b is done.',
    ]);
  });

  it('refuses a model twice, more than four, and several models for a new version', async () => {
    const { chat, models } = await fixture([]);
    const [alpha, beta, gamma] = models as [ResolvedModel, ResolvedModel, ResolvedModel];
    await expect(
      collect(chat, { text: 'x', model: alpha, compareWith: [alpha], mode: 'normal' }),
    ).rejects.toThrow('Each model can answer a question only once.');
    const many = [beta, gamma, { ...gamma, id: 'd' }, { ...gamma, id: 'e' }];
    await expect(
      collect(chat, { text: 'x', model: alpha, compareWith: many, mode: 'normal' }),
    ).rejects.toThrow('At most 4 models can answer one question.');
    await expect(
      collect(chat, {
        text: '',
        conversationId: 'conv_1',
        regenerate: 'msg_1',
        model: alpha,
        compareWith: [beta],
        mode: 'normal',
      }),
    ).rejects.toThrow('Several models answer a new question or an edited one');
  });
});
