import { readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFileRoots, resolveDataFile } from '../../../src/main/host/files/data-files';
import type { HubEvent } from '../../../src/main/host/event-hub';
import type { InvokeMethod } from '../../../src/shared/ipc-contract';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

const KEY = 'sk-test-1234567890abcdef';
const REMEMBER =
  '<tool_call>{"name":"save_memory","arguments":{"memory_text":"Likes green tea"}}</tool_call>';

/** Checks a handler's value against the contract's response schema. */
function expectContractResponse(method: InvokeMethod, value: unknown): void {
  const parsed = invokeContract[method].response.safeParse(value);
  expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues ?? [])}`).toBe(true);
}

describe('API handlers', () => {
  let fixture: HostFixture | null = null;
  let server: ScriptedLlmServer | null = null;

  afterEach(async () => {
    await fixture?.close();
    await server?.close();
    fixture = null;
    server = null;
  });

  it('first run: needs setup until a model is saved; the key only ever comes back masked', async () => {
    fixture = openHostFixture();
    expect(await fixture.value('app.status')).toMatchObject({ needsSetup: true });
    const saved = await fixture.value('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'local',
      apiKey: KEY,
      toolMode: 'prompt',
    });
    expect(saved).toMatchObject({ isDefault: true, apiKeyMasked: 'sk-…cdef', toolMode: 'prompt' });
    expect(await fixture.value('app.status')).toMatchObject({ needsSetup: false });
    await fixture.value('settings.setKey', { key: 'search', apiKey: KEY });
    for (const method of ['models.list', 'settings.get', 'app.status'] as const) {
      const value = await fixture.value(method);
      expectContractResponse(method, value);
      expect(JSON.stringify(value)).not.toContain(KEY);
      expect(JSON.stringify(value)).not.toContain('api-key');
    }
    const renamed = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: saved.baseUrl,
      model: 'other',
    });
    expect(renamed).toMatchObject({ model: 'other', apiKeyMasked: 'sk-…cdef', toolMode: 'prompt' });
    const cleared = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: saved.baseUrl,
      model: 'other',
      apiKey: null,
    });
    expect(cleared.apiKeyMasked).toBeNull();
  });

  it('AIVORY_BASE_URL + AIVORY_MODEL skip the first-run screen', async () => {
    fixture = openHostFixture({
      env: { AIVORY_BASE_URL: 'http://127.0.0.1:9/v1', AIVORY_MODEL: 'm', AIVORY_API_KEY: KEY },
    });
    const status = await fixture.value('app.status');
    expect(status).toMatchObject({
      needsSetup: false,
      environmentModel: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKeyMasked: 'sk-…cdef' },
    });
  });

  it('chat.send answers with the ids once the turn started and streams its events on the hub', async () => {
    server = await startScriptedLlmServer([
      { content: `Noting.${REMEMBER}` },
      { content: 'I will remember that.' },
    ]);
    fixture = openHostFixture({
      env: {
        AIVORY_BASE_URL: server.baseUrl,
        AIVORY_MODEL: 'scripted-model',
        AIVORY_TOOL_MODE: 'prompt',
      },
    });
    const events: Extract<HubEvent, { name: 'turn.event' }>[] = [];
    const ended = new Promise<void>((resolve) => {
      fixture?.host.events.subscribe((event) => {
        if (event.name !== 'turn.event') return;
        events.push(event);
        if (event.payload.event.type === 'turn-end') resolve();
      });
    });
    const sent = await fixture.value('chat.send', { text: 'Remember: green tea' });
    expectContractResponse('chat.send', sent);
    await ended;
    const types = events.map((event) => event.payload.event.type);
    expect(types[0]).toBe('turn-start');
    expect(types).toContain('tool-result');
    expect(events.every((event) => event.payload.turnId === sent.turnId)).toBe(true);
    expect(events.at(-1)?.payload.event).toMatchObject({
      type: 'turn-end',
      stopReason: 'completed',
    });

    const conversation = await fixture.value('conversations.get', { id: sent.conversationId });
    expectContractResponse('conversations.get', conversation);
    expect(conversation.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(conversation.turns).toMatchObject([{ turnId: sent.turnId, stopReason: 'completed' }]);

    const hits = await fixture.value('conversations.search', { query: 'green' });
    expect(hits[0]).toMatchObject({
      conversationId: sent.conversationId,
      title: 'Remember: green tea',
    });
    const exported = await fixture.value('conversations.export', {
      id: sent.conversationId,
      format: 'md',
    });
    expect(exported).toMatchObject({ fileName: 'Remember-green-tea.md', mime: 'text/markdown' });
    // Written to the exports folder, which the data-file route serves as a download.
    const text = await readFile(exported.path, 'utf8');
    expect(text).toContain('**Tool call** `save_memory`');
    expect(exported.bytes).toBe(Buffer.byteLength(text));
    expect(dirname(dirname(exported.path))).toBe(join(fixture.app.dataDir, 'exports'));
    expect(await resolveDataFile(dataFileRoots(fixture.app.dataDir, {}), exported.path)).toBe(
      await realpath(exported.path),
    );
    expect(await fixture.value('memories.list')).toMatchObject([{ memoryText: 'Likes green tea' }]);

    const renamed = await fixture.value('conversations.rename', {
      id: sent.conversationId,
      title: 'Tea',
    });
    expect(renamed.title).toBe('Tea');
    await fixture.value('conversations.delete', { id: sent.conversationId });
    expect(await fixture.call('conversations.get', { id: sent.conversationId })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('chat.send without any model is a config error; an unknown conversation is not-found', async () => {
    fixture = openHostFixture();
    expect(await fixture.call('chat.send', { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'config', message: expect.stringContaining('No model configured') },
    });
    server = await startScriptedLlmServer([{ content: 'unused' }]);
    await fixture.value('models.save', { baseUrl: server.baseUrl, model: 'scripted-model' });
    expect(
      await fixture.call('chat.send', { text: 'hi', conversationId: 'conv_missing' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('chat.send into a conversation still answering answers busy, in words the banner shows', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server = await startScriptedLlmServer([
      { content: 'A first answer.', chunkSize: 4, pauseAfterChunks: { count: 2, until: released } },
      { content: 'A second answer.' },
    ]);
    fixture = openHostFixture({
      env: { AIVORY_BASE_URL: server.baseUrl, AIVORY_MODEL: 'scripted-model' },
    });
    const firstText = new Promise<void>((resolve) => {
      fixture?.host.events.subscribe((event) => {
        if (event.name === 'turn.event' && event.payload.event.type === 'text-delta') resolve();
      });
    });
    const ended = new Promise<void>((resolve) => {
      fixture?.host.events.subscribe((event) => {
        if (event.name === 'turn.event' && event.payload.event.type === 'turn-end') resolve();
      });
    });
    const sent = await fixture.value('chat.send', { text: 'First' });
    await firstText;
    // Another window sends into the same conversation meanwhile.
    expect(
      await fixture.call('chat.send', { text: 'Second', conversationId: sent.conversationId }),
    ).toEqual({
      ok: false,
      error: {
        code: 'busy',
        message:
          'This conversation is answering in another window or process; wait for it to finish (or stop it there), then send again.',
      },
    });
    release();
    await ended;
    const conversation = await fixture.value('conversations.get', { id: sent.conversationId });
    expect(conversation.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('chat.cancel stops a running turn, which ends canceled', async () => {
    server = await startScriptedLlmServer([
      { content: 'slow '.repeat(200), chunkSize: 5, delayMs: 20 },
    ]);
    fixture = openHostFixture({
      env: { AIVORY_BASE_URL: server.baseUrl, AIVORY_MODEL: 'scripted-model' },
    });
    const ended = new Promise<unknown>((resolve) => {
      fixture?.host.events.subscribe((event) => {
        if (event.name === 'turn.event' && event.payload.event.type === 'turn-end')
          resolve(event.payload.event);
      });
    });
    const sent = await fixture.value('chat.send', { text: 'Go slowly' });
    expect(await fixture.value('chat.cancel', { turnId: sent.turnId })).toEqual({ canceled: true });
    expect(await ended).toMatchObject({ stopReason: 'canceled' });
    expect(await fixture.value('chat.cancel', { turnId: sent.turnId })).toEqual({
      canceled: false,
    });
  });

  it('models.test checks a connection; a saved key is never sent to another URL', async () => {
    server = await startScriptedLlmServer([], { apiKey: KEY, models: ['a', 'b'] });
    fixture = openHostFixture();
    expect(
      await fixture.value('models.test', { baseUrl: server.baseUrl, apiKey: KEY, model: 'b' }),
    ).toEqual({
      ok: true,
      models: ['a', 'b'],
      modelListed: true,
      error: null,
      capabilities: [],
      truncated: false,
    });
    const unauthorised = await fixture.value('models.test', { baseUrl: server.baseUrl });
    expect(unauthorised).toMatchObject({ ok: false, models: [] });
    expect(unauthorised.error).toMatch(/key|auth/i);
    const saved = await fixture.value('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'a',
      apiKey: KEY,
    });
    const before = server.requests.length;
    const elsewhere = await fixture.value('models.test', {
      baseUrl: server.baseUrl,
      modelId: saved.id,
    });
    expect(elsewhere.ok).toBe(false);
    expect(
      server.requests.slice(before).map((request) => request.headers.authorization),
    ).not.toContain(`Bearer ${KEY}`);
  });

  it('models.discover lists the candidates that answer, with their models', async () => {
    server = await startScriptedLlmServer([], { models: ['llama3.2', 'qwen3'] });
    const closed = await startScriptedLlmServer([]);
    const closedUrl = closed.baseUrl;
    await closed.close();
    fixture = openHostFixture({
      discoveryCandidates: [
        { name: 'Closed', baseUrl: closedUrl },
        { name: 'Ollama', baseUrl: server.baseUrl },
      ],
    });
    expect(await fixture.value('models.discover')).toEqual([
      { name: 'Ollama', baseUrl: server.baseUrl, models: ['llama3.2', 'qwen3'] },
    ]);
  });

  it('library lists and tool status follow the contract', async () => {
    fixture = openHostFixture();
    for (const method of [
      'tools.status',
      'skills.list',
      'prompts.list',
      'memories.list',
      'conversations.list',
    ] as const) {
      expectContractResponse(method, await fixture.value(method));
    }
    const tools = await fixture.value('tools.status');
    expect(tools.find((tool) => tool.name === 'save_memory')).toMatchObject({
      available: true,
      reason: null,
    });
    expect(tools.find((tool) => tool.name === 'python_execute')).toMatchObject({
      available: false,
    });
    expect((await fixture.value('skills.list')).map((skill) => skill.name)).toContain(
      'document-generation',
    );
  });

  it('settings.set validates and stores; settings.get reads it back', async () => {
    fixture = openHostFixture();
    const updated = await fixture.value('settings.set', {
      key: 'ui',
      values: { language: 'zh-CN' },
    });
    expect(updated.ui.language).toBe('zh-CN');
    expect((await fixture.value('settings.get')).ui.language).toBe('zh-CN');
  });
});
