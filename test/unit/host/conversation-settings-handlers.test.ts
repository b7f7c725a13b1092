/**
 * `conversations.settings` / `conversations.setSettings` over a real AppContext: the view with
 * the model's defaults, saved prompts and info; a deleted prompt is reported; garbage is refused
 * with a bounded invalid-input error and changes nothing; `models.save` keeps or clears defaults.
 */
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiHost } from '../../../src/main/host/api-handlers';
import { createApiHost } from '../../../src/main/host/api-handlers';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import type { InvokeMethod } from '../../../src/shared/ipc-contract';
import { makeDataDir } from '../../support/host/data-files-fixture';
import { TRUSTED_ORIGIN, TRUSTED_SENDER } from '../../support/host/host-fixture';

describe('host: conversation settings', () => {
  let data: ReturnType<typeof makeDataDir>;
  let app: AppContext;
  let host: ApiHost;
  const env = (): Record<string, string> => ({ AIVORY_HOME: data.home, AIVORY_LOCAL_SANDBOX: '0' });
  const call = (method: InvokeMethod, payload: unknown) =>
    host.dispatch(method, payload, TRUSTED_SENDER);

  beforeEach(() => {
    data = makeDataDir();
    app = openAppContext({ env: env() });
    host = createApiHost(app, { env: env(), policy: { allowedOrigins: [TRUSTED_ORIGIN] } });
    app.stores.settings.saveModel({
      id: 'model_1',
      label: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      toolMode: 'prompt',
      contextWindow: 8192,
      defaultTools: null,
      apiKeyRef: null,
      isDefault: true,
      defaults: { temperature: 0.2 },
    });
    app.stores.conversations.createConversation({ id: 'conv_s', title: 'S', modelId: 'model_1' });
  });
  afterEach(async () => {
    await app.close();
    rmSync(data.home, { recursive: true, force: true });
    rmSync(data.outside, { recursive: true, force: true });
  });

  it('shows, saves and reports a deleted saved prompt', async () => {
    expect(await call('conversations.settings', { id: 'conv_s' })).toMatchObject({
      ok: true,
      value: {
        settings: {},
        modelDefaults: { temperature: 0.2 },
        modelLabel: 'Local',
        prompts: [],
        promptMissing: false,
        info: { messages: 0, turns: 0, models: [], inputTokens: 0, outputTokens: 0 },
      },
    });
    const prompt = app.stores.library.createPromptTemplate({
      id: 'prompt_1',
      title: 'Pirate',
      body: 'Talk like a pirate.',
      tags: [],
    });
    const settings = {
      systemPrompt: { kind: 'prompt', promptId: prompt.id },
      topP: 0.5,
      contextPolicy: { kind: 'messages', count: 4 },
    };
    expect(await call('conversations.setSettings', { id: 'conv_s', settings })).toMatchObject({
      ok: true,
      value: { settings, prompts: [{ id: 'prompt_1', title: 'Pirate' }], promptMissing: false },
    });
    expect(app.stores.conversations.getConversation('conv_s')?.settings).toEqual(settings);
    app.stores.library.deletePromptTemplate(prompt.id);
    expect(await call('conversations.settings', { id: 'conv_s' })).toMatchObject({
      ok: true,
      value: { settings, promptMissing: true },
    });
    // A prompt that does not exist cannot be picked.
    expect(
      await call('conversations.setSettings', {
        id: 'conv_s',
        settings: { systemPrompt: { kind: 'prompt', promptId: 'prompt_9' } },
      }),
    ).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await call('conversations.setSettings', { id: 'conv_s', settings: {} })).toMatchObject({
      ok: true,
      value: { settings: {} },
    });
    expect(await call('conversations.settings', { id: 'conv_x' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('refuses garbage with a bounded invalid-input error and changes nothing', async () => {
    const malformed: unknown[] = [
      { id: 'conv_s', settings: { temperature: 2.5 } },
      { id: 'conv_s', settings: { temperature: '1' } },
      { id: 'conv_s', settings: { topP: -0.1 } },
      { id: 'conv_s', settings: { maxOutputTokens: 0 } },
      { id: 'conv_s', settings: { maxOutputTokens: 1.5 } },
      { id: 'conv_s', settings: { contextPolicy: { kind: 'messages', count: 1001 } } },
      { id: 'conv_s', settings: { contextPolicy: { kind: 'tokens', budget: 10 } } },
      { id: 'conv_s', settings: { contextPolicy: { kind: 'everything' } } },
      { id: 'conv_s', settings: { systemPrompt: { kind: 'text', text: 'x'.repeat(40_000) } } },
      { id: 'conv_s', settings: { systemPrompt: { kind: 'text', text: '' } } },
      { id: 'conv_s', settings: { systemPrompt: 'just a string' } },
      { id: 'conv_s', settings: { extra: true } },
      { id: 'conv_s', settings: null },
      { id: 'conv_s' },
      { id: 'conv_s', settings: {}, other: 1 },
    ];
    for (const payload of malformed) {
      const result = await call('conversations.setSettings', payload);
      expect(result, JSON.stringify(payload).slice(0, 80)).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
      if (!result.ok) expect(result.error.message.length).toBeLessThanOrEqual(600);
    }
    expect(app.stores.conversations.getConversation('conv_s')?.settings).toEqual({});
  });

  it('models.save keeps the defaults unless new ones are sent; {} clears them', async () => {
    const base = { id: 'model_1', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' };
    expect(await call('models.save', base)).toMatchObject({
      ok: true,
      value: { defaults: { temperature: 0.2 } },
    });
    expect(
      await call('models.save', { ...base, defaults: { topP: 0.9, maxOutputTokens: 64 } }),
    ).toMatchObject({ ok: true, value: { defaults: { topP: 0.9, maxOutputTokens: 64 } } });
    expect(await call('models.save', { ...base, defaults: { temperature: 3 } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(await call('models.save', { ...base, defaults: {} })).toMatchObject({
      ok: true,
      value: { defaults: {} },
    });
    expect(app.stores.settings.listModels()[0]?.defaults).toBeUndefined();
  });
});
