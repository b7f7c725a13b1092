import { FileArtifactSink } from '../../src/main/adapters/artifacts/file-artifact-sink';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { ConversationStore } from '../../src/main/core/ports';
import type { ResolvedModel } from '../../src/main/services/chat-service';
import { ChatService } from '../../src/main/services/chat-service';
import { ToolCatalog } from '../../src/main/services/tool-catalog';
import { createSaveMemoryTool } from '../../src/main/tools/save-memory';
import type { TurnEvent } from '../../src/shared/turn-events';
import { messageText } from '../../src/shared/message-parts';
import type { Script, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { echoTool } from '../support/fake-tools';
import { chatTurnRunner, recordingLogger } from '../support/turn-harness';

interface Fixture {
  store: SqliteStore;
  chat: ChatService;
  server: ScriptedLlmServer;
  model: ResolvedModel;
}

const open: Fixture[] = [];

async function fixture(
  script: Script,
  toolMode: 'native' | 'prompt' = 'prompt',
  wrapConversations: (store: ConversationStore) => ConversationStore = (store) => store,
): Promise<Fixture> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-chat-'));
  const store = openStore(join(directory, 'aivory.db'));
  let counter = 0;
  const ids = { next: (prefix: string) => `${prefix}_${++counter}` };
  const tools = new ToolCatalog({
    builtIns: [createSaveMemoryTool({ memories: store.memories, ids }), echoTool('echo')],
    prepared: {
      names: [],
      build: () => Promise.resolve(null),
      status: () => Promise.resolve(null),
    },
    switches: () => store.settings.getToolAvailability(),
  });
  const chat = new ChatService({
    conversations: wrapConversations(store.conversations),
    memories: store.memories,
    skills: store.library,
    settings: store.settings,
    tools,
    createLlmClient: (model) =>
      new OpenAiLlmClient({ baseUrl: model.baseUrl, apiKey: model.apiKey, maxRetries: 0 }),
    clock: { now: () => Date.now() },
    ids,
    logger: recordingLogger(),
    limitOverrides: {},
    attachments: new FileArtifactSink(join(directory, 'uploads')),
  });
  const server = await startScriptedLlmServer(script);
  const model: ResolvedModel = {
    id: null,
    baseUrl: server.baseUrl,
    apiKey: null,
    model: 'scripted-model',
    toolMode,
    contextWindow: 32_768,
    defaultTools: null,
  };
  const result = { store, chat, server, model };
  open.push(result);
  return result;
}

afterEach(async () => {
  for (const item of open.splice(0)) {
    await item.server.close();
    item.store.close();
  }
});

describe('ChatService', () => {
  it('reads the shown path once, in pages, when a turn starts in a conversation', async () => {
    // Read whole, the path of a 20,000-message conversation holds the serving thread ~0.2 s.
    let wholeReads = 0;
    let pageReads = 0;
    const { chat, model } = await fixture(
      [{ content: 'First answer.' }, { content: 'Second answer.' }],
      'prompt',
      (conversations) =>
        new Proxy(conversations, {
          get(target, key) {
            const value: unknown = Reflect.get(target, key, target);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (key === 'listMessages' || key === 'listAllMessages') wholeReads += 1;
              if (key === 'listMessagePage') pageReads += 1;
              return (value as (...rest: unknown[]) => unknown).apply(target, args);
            };
          },
        }),
    );
    const run = async (request: { text: string; conversationId?: string }) => {
      const events: TurnEvent[] = [];
      for await (const event of chat.runTurn(
        { ...request, model, mode: 'normal' },
        new AbortController().signal,
      ))
        events.push(event);
      return events;
    };
    const first = (await run({ text: 'One' }))[0];
    if (first?.type !== 'turn-start') throw new Error('no turn-start');
    [wholeReads, pageReads] = [0, 0];
    const second = await run({ text: 'Two', conversationId: first.conversationId });
    expect(second.at(-1)).toMatchObject({ type: 'turn-end' });
    expect([wholeReads, pageReads]).toEqual([0, 1]);
  });

  it('persists the turn: user message, assistant parts, memory, and the turn record', async () => {
    const { store, chat, model } = await fixture([
      {
        content:
          '<tool_call>{"name":"save_memory","arguments":{"memory_text":"Has a cat named Miso"}}</tool_call>',
      },
      { content: 'Got it.' },
    ]);
    const events: TurnEvent[] = [];
    for await (const event of chat.runTurn(
      { text: 'Remember my cat Miso', model, mode: 'normal' },
      new AbortController().signal,
    )) {
      events.push(event);
    }
    const start = events[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    const messages = store.conversations.listMessages(start.conversationId);
    expect(messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(messages[1]?.parts).toMatchObject([
      {
        kind: 'tool-call',
        name: 'save_memory',
        arguments: { memory_text: 'Has a cat named Miso' },
      },
      { kind: 'tool-result', name: 'save_memory', status: 'ok' },
      { kind: 'text', text: 'Got it.' },
    ]);
    expect(
      store.memories
        .listMemories()
        .map((memory) => [memory.memoryText, memory.status, memory.conversationId]),
    ).toEqual([['Has a cat named Miso', 'ACTIVE', start.conversationId]]);
    expect(store.conversations.listTurnRecords(start.conversationId)).toMatchObject([
      {
        id: start.turnId,
        messageId: start.messageId,
        stopReason: 'completed',
        toolCalls: { save_memory: 1 },
        providerRounds: 2,
        errorCode: null,
      },
    ]);
    expect(store.conversations.getConversation(start.conversationId)?.title).toBe(
      'Remember my cat Miso',
    );
  });

  it('a failed turn keeps its reason; a retry replaces the failed answer, not the question', async () => {
    const { store, chat, model, server } = await fixture([
      { status: 401, errorMessage: 'Incorrect API key provided' },
      { content: 'Now it works.' },
      { content: 'A full answer.' },
    ]);
    const run = chatTurnRunner(chat, model);
    const first = await run({ text: 'Hello there' });
    const start = first[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    const conversationId = start.conversationId;
    expect(store.conversations.listTurnRecords(conversationId)).toMatchObject([
      {
        stopReason: 'error',
        errorCode: 'auth',
        errorMessage: 'The model server rejected the API key (HTTP 401)',
      },
    ]);

    const retried = await run({ conversationId, retry: true });
    expect(retried.at(-1)).toMatchObject({ type: 'turn-end', answer: 'Now it works.' });
    const messages = store.conversations.listMessages(conversationId);
    expect(messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    expect(messages[0]?.parts).toEqual([{ kind: 'text', text: 'Hello there' }]);
    // The failed answer's record went with it; the question reached the model once.
    expect(store.conversations.listTurnRecords(conversationId)).toMatchObject([
      { stopReason: 'completed', errorCode: null, errorMessage: null },
    ]);
    const sent = server.requests.at(-1)?.body.messages as { role: string; content: string }[];
    expect(sent.filter((message) => message.content === 'Hello there')).toHaveLength(1);

    // A complete answer is not retried; nor is a conversation-less retry.
    await expect(run({ conversationId, retry: true })).rejects.toThrow(
      'Only the last answer can be retried, when it failed, was stopped or came back empty.',
    );
    await expect(run({ retry: true })).rejects.toThrow(
      'A retry, a new version or an edit needs the conversation.',
    );
    expect(store.conversations.listMessages(conversationId)).toHaveLength(2);
  });

  it('regenerate writes a sibling answer from the same context; an edit forks the conversation', async () => {
    const { store, chat, model, server } = await fixture([
      { content: 'Paris.' },
      { content: 'It is Lyon.' },
      { content: 'Rome, I think.' },
      { content: 'Paris, definitely.' },
      { content: 'Madrid.' },
    ]);
    const run = chatTurnRunner(chat, model);
    const first = await run({ text: 'Capital of France?' });
    const start = first[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    const conversationId = start.conversationId;
    await run({ conversationId, text: 'And of Italy?' });
    const shown = () =>
      store.conversations.listMessages(conversationId).map((message) => messageText(message.parts));
    expect(shown()).toEqual(['Capital of France?', 'Paris.', 'And of Italy?', 'It is Lyon.']);

    // A new version of the last answer: the same question and history, a sibling answer.
    const wrong = store.conversations.listMessages(conversationId)[3]?.id ?? '';
    const again = await run({ conversationId, regenerate: wrong });
    expect(again.at(-1)).toMatchObject({ type: 'turn-end', answer: 'Rome, I think.' });
    expect(shown()).toEqual(['Capital of France?', 'Paris.', 'And of Italy?', 'Rome, I think.']);
    const sent = server.requests.at(-1)?.body.messages as { role: string; content: string }[];
    expect(sent.slice(1).map((message) => message.content)).toEqual([
      'Capital of France?',
      'Paris.',
      'And of Italy?',
    ]);
    const versions = store.conversations.listVersions(conversationId);
    const last = store.conversations.listMessages(conversationId)[3]?.id ?? '';
    expect(versions[last]).toEqual([wrong, last]);
    expect(store.conversations.listTurnRecords(conversationId)).toHaveLength(3);

    // A new version of an earlier answer drops the later turns from the shown path.
    const paris = store.conversations.listMessages(conversationId)[1]?.id ?? '';
    await run({ conversationId, regenerate: paris });
    expect(shown()).toEqual(['Capital of France?', 'Paris, definitely.']);

    // Editing the first question forks from the start; the old branch stays a version.
    const question = store.conversations.listMessages(conversationId)[0]?.id ?? '';
    await run({ conversationId, editOf: question, text: 'Capital of Spain?' });
    expect(shown()).toEqual(['Capital of Spain?', 'Madrid.']);
    const edited = server.requests.at(-1)?.body.messages as { role: string; content: string }[];
    expect(edited.slice(1).map((message) => message.content)).toEqual(['Capital of Spain?']);
    store.conversations.showVersion(conversationId, question);
    expect(shown()).toEqual(['Capital of France?', 'Paris, definitely.']);

    // Only shown messages of the right kind; never a running answer.
    await expect(run({ conversationId, regenerate: question })).rejects.toThrow(
      'Only an answer shown in the conversation can be written again.',
    );
    await expect(run({ conversationId, editOf: paris, text: 'x' })).rejects.toThrow(
      'Only a question shown in the conversation can be edited.',
    );
    await expect(run({ regenerate: paris })).rejects.toThrow(
      'A retry, a new version or an edit needs the conversation.',
    );
  });

  it("takes the caller's turn id and has the message finished and the turn recorded when turn-end comes", async () => {
    const { store, chat, model } = await fixture([{ content: 'Done.' }]);
    let seenAtEnd: unknown = null;
    for await (const event of chat.runTurn(
      { text: 'hi', model, mode: 'normal', turnId: 'turn_from_caller' },
      new AbortController().signal,
    )) {
      if (event.type !== 'turn-end') continue;
      const conversationId = store.conversations.listConversations()[0]?.id ?? '';
      seenAtEnd = {
        turnId: event.turnId,
        records: store.conversations.listTurnRecords(conversationId).map((record) => record.id),
        status: store.conversations.listMessages(conversationId).at(-1)?.status,
      };
    }
    expect(seenAtEnd).toEqual({
      turnId: 'turn_from_caller',
      records: ['turn_from_caller'],
      status: 'complete',
    });
  });

  it('startTurn + cancelTurn (the desktop path): the message ends canceled with its partial text', async () => {
    const { store, chat, model } = await fixture([
      { content: 'A long answer that will be cut off early', chunkSize: 4, hangAfterChunks: 4 },
    ]);
    const events: TurnEvent[] = [];
    let cancel = (): void => undefined;
    const { turnId, done } = chat.startTurn({ text: 'Tell me', model, mode: 'fast' }, (event) => {
      events.push(event);
      if (
        event.type === 'text-delta' &&
        events.filter((item) => item.type === 'text-delta').length === 3
      )
        cancel();
    });
    cancel = () => expect(chat.cancelTurn(turnId)).toBe(true);
    await done;
    expect(chat.cancelTurn(turnId)).toBe(false);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'turn-end', stopReason: 'canceled', answer: 'A long answe' });
    const start = events[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    const assistant = store.conversations.getMessage(start.messageId);
    expect(assistant?.status).toBe('canceled');
    expect(assistant?.parts).toEqual([{ kind: 'text', text: 'A long answe' }]);
    expect(store.conversations.listTurnRecords(start.conversationId)[0]?.stopReason).toBe(
      'canceled',
    );
  });

  it('close (the app stopping) ends a running turn as interrupted, then refuses new turns', async () => {
    const { store, chat, server, model } = await fixture([
      { content: 'A long answer that the app closes under', chunkSize: 4, hangAfterChunks: 4 },
      { content: 'never asked' },
    ]);
    const events: TurnEvent[] = [];
    let closing: Promise<void> | null = null;
    const { done } = chat.startTurn({ text: 'Tell me', model, mode: 'fast' }, (event) => {
      events.push(event);
      if (event.type === 'text-delta' && closing === null) closing = chat.close();
    });
    await done;
    await closing;
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', stopReason: 'canceled' });
    const start = events[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    expect(store.conversations.getMessage(start.messageId)?.status).toBe('interrupted');
    expect(store.conversations.listTurnRecords(start.conversationId)[0]?.stopReason).toBe(
      'interrupted',
    );
    expect(server.requests).toHaveLength(1);
    const refused = chat.runTurn(
      { text: 'More', model, mode: 'fast' },
      new AbortController().signal,
    );
    await expect(refused.next()).rejects.toMatchObject({
      code: 'canceled',
      message: 'Aivory is closing; send this again once it has started.',
    });
  });

  it('refuses a second turn in a conversation whose turn runs in this process (two windows)', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { store, chat, model } = await fixture([
      {
        content: 'The whole first answer.',
        chunkSize: 5,
        pauseAfterChunks: { count: 2, until: released },
      },
      { content: 'The second answer.' },
    ]);
    let conversationId = '';
    let firstDone: Promise<void> = Promise.resolve();
    await new Promise<void>((resolve) => {
      firstDone = chat.startTurn({ text: 'First', model, mode: 'fast' }, (event) => {
        if (event.type === 'turn-start') conversationId = event.conversationId;
        if (event.type === 'text-delta') resolve();
      }).done;
    });
    const second = async (): Promise<void> => {
      const request = { text: 'Second', model, mode: 'fast' as const, conversationId };
      for await (const event of chat.runTurn(request, new AbortController().signal)) void event;
    };
    await expect(second()).rejects.toMatchObject({
      code: 'busy',
      message:
        'This conversation is answering in another window or process; wait for it to finish (or stop it there), then send again.',
    });
    // Refused before anything was stored: only the first question and its streaming answer.
    expect(
      store.conversations.listAllMessages(conversationId).map((message) => message.role),
    ).toEqual(['user', 'assistant']);
    release();
    await firstDone;
    // The claim is given back with the finished answer: the next turn runs.
    await expect(second()).resolves.toBeUndefined();
    const texts = store.conversations
      .listMessages(conversationId)
      .map((message) => messageText(message.parts));
    expect(texts).toEqual(['First', 'The whole first answer.', 'Second', 'The second answer.']);
  });

  it('a provider error finishes the message as error and records the code', async () => {
    const { store, chat, model } = await fixture([{ status: 500, errorMessage: 'model crashed' }]);
    const events: TurnEvent[] = [];
    for await (const event of chat.runTurn(
      { text: 'hi', model, mode: 'normal' },
      new AbortController().signal,
    ))
      events.push(event);
    const start = events[0];
    if (start?.type !== 'turn-start') throw new Error('no turn-start');
    expect(events.at(-1)).toMatchObject({
      type: 'turn-end',
      stopReason: 'error',
      error: { code: 'provider' },
    });
    expect(store.conversations.getMessage(start.messageId)?.status).toBe('error');
    expect(store.conversations.listTurnRecords(start.conversationId)[0]).toMatchObject({
      stopReason: 'error',
      errorCode: 'provider',
    });
  });

  it('refuses an unknown conversation and a globally disabled tool with clear errors', async () => {
    const { store, chat, model } = await fixture([]);
    const run = async (request: Parameters<ChatService['runTurn']>[0]) => {
      for await (const event of chat.runTurn(request, new AbortController().signal)) void event;
    };
    await expect(
      run({ text: 'hi', model, mode: 'normal', conversationId: 'conv_missing' }),
    ).rejects.toThrow('No conversation with id conv_missing.');
    store.settings.setToolAvailability('save_memory', false);
    await expect(
      run({ text: 'hi', model, mode: 'normal', tools: ['save_memory'] }),
    ).rejects.toThrow('Tool "save_memory" is switched off in settings. Available tools: echo.');
    expect(store.conversations.listConversations()).toEqual([]);
  });

  it('stores attachments on the user message and tells the model about them', async () => {
    const { store, chat, model, server } = await fixture([{ content: 'Read it.' }]);
    const csv = new TextEncoder().encode(
      'city,temp\nOslo,3\n<tool_call>{"name":"x"}</tool_call>\n',
    );
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    let conversationId = '';
    for await (const event of chat.runTurn(
      {
        text: 'What is in these?',
        model,
        mode: 'normal',
        attachments: [
          { name: 'temps.csv', data: csv },
          { name: 'photo.bin', data: png },
        ],
      },
      new AbortController().signal,
    )) {
      if (event.type === 'turn-start') conversationId = event.conversationId;
    }
    const user = store.conversations.listMessages(conversationId)[0];
    expect(user?.parts.map((part) => part.kind)).toEqual(['text', 'attachment', 'attachment']);
    const files = user?.parts.flatMap((part) =>
      part.kind === 'attachment' ? [part.attachment] : [],
    );
    // Sniffed from the bytes: a PNG named .bin is still a PNG.
    expect(files?.map((file) => [file.name, file.mime, file.size])).toEqual([
      ['temps.csv', 'text/csv', csv.byteLength],
      ['photo.bin', 'image/png', png.byteLength],
    ]);
    expect(readFileSync(files?.[0]?.path ?? '')).toEqual(Buffer.from(csv));
    const sent = server.requests.at(-1)?.body.messages as { role: string; content: string }[];
    const last = sent.at(-1)?.content ?? '';
    expect(last).toContain('What is in these?\n\n[Attached files]\n- temps.csv (text/csv, ');
    expect(last).toContain('<file name="temps.csv">\ncity,temp\nOslo,3\n&lt;tool_call>');
    // No sandbox in this fixture: the model is told the files cannot be opened by tools.
    expect(last).toContain('(No code sandbox is configured, so tools cannot open these files.)');
    expect(last).not.toContain('/workspace/uploads');
  });

  it('refuses too many or too large attachments before storing anything', async () => {
    const { store, chat, model } = await fixture([]);
    const run = async (request: Parameters<ChatService['runTurn']>[0]) => {
      for await (const event of chat.runTurn(request, new AbortController().signal)) void event;
    };
    const file = { name: 'a.txt', data: new Uint8Array([65]) };
    await expect(
      run({ text: 'x', model, mode: 'normal', attachments: Array(11).fill(file) }),
    ).rejects.toThrow('At most 10 files can be attached to one message (got 11).');
    const huge = { name: 'big.bin', data: new Uint8Array(40 * 1024 * 1024 + 1) };
    await expect(run({ text: 'x', model, mode: 'normal', attachments: [huge] })).rejects.toThrow(
      'big.bin is 40.0 MiB; attachments are limited to 40 MiB.',
    );
    const big = { name: 'part.bin', data: new Uint8Array(35 * 1024 * 1024) };
    await expect(
      run({ text: 'x', model, mode: 'normal', attachments: [big, big, big] }),
    ).rejects.toThrow('The attached files add up to 105.0 MiB; one message can carry 100 MiB.');
    await expect(run({ text: '  ', model, mode: 'normal' })).rejects.toThrow(
      'The message is empty.',
    );
    expect(store.conversations.listConversations()).toEqual([]);
  });

  it("offers the model's default tools adjusted by the conversation's own toggles", async () => {
    const { store, chat, model, server } = await fixture([
      { content: 'one' },
      { content: 'two' },
      { content: 'three' },
    ]);
    const offered = () => {
      const system = (server.requests.at(-1)?.body.messages as { content: string }[])[0]?.content;
      return ['save_memory', 'echo'].filter((name) => system?.includes(`### ${name}\n`));
    };
    const run = async (request: Parameters<ChatService['runTurn']>[0]) => {
      let id = '';
      for await (const event of chat.runTurn(request, new AbortController().signal))
        if (event.type === 'turn-start') id = event.conversationId;
      return id;
    };
    const withDefaults = { ...model, defaultTools: ['echo'] };
    const conversationId = await run({ text: 'a', model: withDefaults, mode: 'normal' });
    expect(offered()).toEqual(['echo']);
    store.conversations.setConversationToolToggles(conversationId, {
      save_memory: true,
      echo: false,
    });
    await run({ text: 'b', model: withDefaults, mode: 'normal', conversationId });
    expect(offered()).toEqual(['save_memory']);
    // A tool switched off globally stays off whatever the conversation says.
    store.settings.setToolAvailability('save_memory', false);
    await run({ text: 'c', model: withDefaults, mode: 'normal', conversationId });
    expect(offered()).toEqual([]);
  });
});
