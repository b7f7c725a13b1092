/**
 * The model handlers of issue 12 over a real AppContext and the scripted server: the connection
 * check answers the server's list bounded and cleaned with the capabilities it states; a saved
 * model keeps `vision`; another model of the same provider copies a saved key, never to another
 * origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

const KEY = 'sk-test-1234567890abcdef';

describe('model providers (host)', () => {
  let fixture: HostFixture | null = null;
  const servers: ScriptedLlmServer[] = [];

  afterEach(async () => {
    await fixture?.close();
    fixture = null;
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('models.test lists cleaned ids with the capabilities the provider states', async () => {
    const server = await startScriptedLlmServer([], {
      models: [
        {
          id: 'openai/gpt-4o',
          architecture: { input_modalities: ['text', 'image'] },
          supported_parameters: ['tools'],
        },
        { id: 'plain' },
        { id: 'evil\u202e\u0000-name' },
        { id: 'x'.repeat(500) },
        { id: 'plain' },
        { id: 17 },
      ],
    });
    servers.push(server);
    fixture = openHostFixture();
    const check = await fixture.value('models.test', { baseUrl: server.baseUrl, model: 'plain' });
    expect(invokeContract['models.test'].response.safeParse(check).success).toBe(true);
    expect(check).toEqual({
      ok: true,
      models: ['openai/gpt-4o', 'plain', 'evil-name'],
      modelListed: true,
      error: null,
      capabilities: [{ id: 'openai/gpt-4o', vision: true, tools: true, reasoning: false }],
      truncated: false,
    });
  });

  it('models.save keeps vision; a later save without it leaves it as it was', async () => {
    fixture = openHostFixture();
    const saved = await fixture.value('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'llava',
      vision: true,
    });
    expect(saved.vision).toBe(true);
    const renamed = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: saved.baseUrl,
      model: 'llava:13b',
    });
    expect(renamed.vision).toBe(true);
    const listed = await fixture.value('models.list');
    expect(listed.models[0]).toMatchObject({ model: 'llava:13b', vision: true });
    const off = await fixture.value('models.save', {
      id: saved.id,
      baseUrl: saved.baseUrl,
      model: 'llava:13b',
      vision: false,
    });
    expect(off.vision).toBe(false);
  });

  it('another model from the same provider reuses the saved key; never for another origin', async () => {
    const provider = await startScriptedLlmServer([{ content: 'Authorized.' }], {
      apiKey: KEY,
      models: ['a', 'b'],
    });
    const elsewhere = await startScriptedLlmServer([], { models: ['z'] });
    servers.push(provider, elsewhere);
    fixture = openHostFixture();
    const first = await fixture.value('models.save', {
      baseUrl: provider.baseUrl,
      model: 'a',
      apiKey: KEY,
    });
    // The model editor's check for the new model uses the first one's key by reference.
    expect(
      await fixture.value('models.test', { baseUrl: provider.baseUrl, modelId: first.id }),
    ).toMatchObject({ ok: true, models: ['a', 'b'] });
    const second = await fixture.value('models.save', {
      baseUrl: provider.baseUrl,
      model: 'b',
      keyFrom: first.id,
    });
    expect(second.apiKeyMasked).toBe(first.apiKeyMasked);
    expect(JSON.stringify(second)).not.toContain(KEY);
    // Each model owns its copy: removing the first leaves the second's key.
    await fixture.value('models.delete', { id: first.id });
    const models = await fixture.value('models.list');
    expect(models.models.map((model) => [model.model, model.apiKeyMasked])).toEqual([
      ['b', 'sk-…cdef'],
    ]);
    const turn = await fixture.value('chat.send', { text: 'hi', modelId: second.id });
    expect(turn.turnId).toBeTruthy();
    await expect
      .poll(() => provider.requests.some((request) => request.path === '/v1/chat/completions'))
      .toBe(true);
    const completion = provider.requests.find((request) => request.path === '/v1/chat/completions');
    expect(completion?.headers.authorization).toBe(`Bearer ${KEY}`);

    // To another origin the key is refused, and nothing reaches that server.
    const before = elsewhere.requests.length;
    const refused = await fixture.call('models.save', {
      baseUrl: elsewhere.baseUrl,
      model: 'z',
      keyFrom: second.id,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(/only sent to/);
    expect(elsewhere.requests.length).toBe(before);
    expect((await fixture.value('models.list')).models).toHaveLength(1);
  });
});
