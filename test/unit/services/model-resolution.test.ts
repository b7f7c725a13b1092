import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../../src/shared/dto';
import {
  modelOverridesFromEnv,
  resolveConversationModel,
  resolveModel,
  resolveTurnModel,
} from '../../../src/main/services/model-resolution';

const secrets = {
  values: new Map([['model:m2:api-key', 'sk-saved-2']]),
  get(ref: string) {
    return Promise.resolve(this.values.get(ref) ?? null);
  },
  set: () => Promise.resolve(),
  delete: () => Promise.resolve(),
  refs() {
    return Promise.resolve([...this.values.keys()]);
  },
};

const saved: ModelConfig[] = [
  {
    id: 'm1',
    label: 'Default',
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'qwen',
    toolMode: 'prompt',
    contextWindow: 8192,
    defaultTools: ['save_memory'],
    defaultMcpServices: ['mcp_notes'],
    apiKeyRef: null,
    isDefault: true,
  },
  {
    id: 'm2',
    label: 'Other',
    baseUrl: 'http://127.0.0.1:8080/v1',
    model: 'llama',
    toolMode: 'native',
    contextWindow: 16384,
    defaultTools: null,
    apiKeyRef: 'model:m2:api-key',
    isDefault: false,
  },
];

describe('model resolution (CLI and desktop alike)', () => {
  it('a saved model named by id is used as saved, with its key', async () => {
    expect(await resolveTurnModel('m2', { model: 'ignored' }, saved, secrets)).toEqual({
      id: 'm2',
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: 'sk-saved-2',
      model: 'llama',
      toolMode: 'native',
      contextWindow: 16384,
      defaultTools: null,
      defaultMcpServices: null,
    });
    await expect(resolveTurnModel('nope', {}, saved, secrets)).rejects.toThrow(
      'No saved model with id nope.',
    );
  });

  it('without an id: overrides, else the saved default (its tool defaults included)', async () => {
    expect(await resolveTurnModel(undefined, {}, saved, secrets)).toMatchObject({
      id: 'm1',
      defaultTools: ['save_memory'],
      defaultMcpServices: ['mcp_notes'],
    });
    expect(await resolveModel({ toolMode: 'native', apiKey: 'k' }, saved, secrets)).toMatchObject({
      id: 'm1',
      toolMode: 'native',
      apiKey: 'k',
    });
    expect(
      await resolveModel({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x' }, saved, secrets),
    ).toEqual({
      id: null,
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: null,
      model: 'x',
      toolMode: 'native',
      contextWindow: 32_768,
      defaultTools: null,
      defaultMcpServices: null,
    });
  });

  it('continuing a conversation: its remembered model, unless a server or model is named', async () => {
    expect(await resolveConversationModel('m2', {}, saved, secrets)).toMatchObject({
      id: 'm2',
      apiKey: 'sk-saved-2',
    });
    // A tool mode or key alone does not name another model.
    expect(
      await resolveConversationModel('m2', { toolMode: 'prompt' }, saved, secrets),
    ).toMatchObject({ id: 'm2', toolMode: 'native' });
    expect(await resolveConversationModel('m2', { model: 'x' }, saved, secrets)).toMatchObject({
      id: null,
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'x',
    });
    // Removed since, or never a saved one: the usual order.
    expect(await resolveConversationModel('gone', {}, saved, secrets)).toMatchObject({ id: 'm1' });
    expect(await resolveConversationModel(null, {}, saved, secrets)).toMatchObject({ id: 'm1' });
  });

  it('vision: from the saved model, or from --vision / AIVORY_VISION for a model from flags', async () => {
    const seeing: ModelConfig[] = saved.map((model) =>
      model.id === 'm2' ? { ...model, vision: true } : model,
    );
    expect((await resolveTurnModel('m2', {}, seeing, secrets)).vision).toBe(true);
    expect((await resolveTurnModel('m1', {}, seeing, secrets)).vision).toBeUndefined();
    const adHoc = { baseUrl: 'http://127.0.0.1:9/v1', model: 'x' };
    expect((await resolveModel(adHoc, saved, secrets)).vision).toBeUndefined();
    expect((await resolveModel({ ...adHoc, vision: true }, saved, secrets)).vision).toBe(true);
    expect(modelOverridesFromEnv({ AIVORY_VISION: '1' })).toEqual({ vision: true });
    expect(modelOverridesFromEnv({ AIVORY_VISION: 'no' })).toEqual({ vision: false });
    expect(modelOverridesFromEnv({ AIVORY_VISION: 'TRUE' })).toEqual({ vision: true });
    expect(() => modelOverridesFromEnv({ AIVORY_VISION: 'maybe' })).toThrow(
      'AIVORY_VISION="maybe" is not understood; use 1, true or yes (the model takes images) or 0, false or no (it does not), or unset it.',
    );
    // The flags naming the saved default: its vision, unless the flag says otherwise.
    const asDefault = seeing.map((model) => ({ ...model, isDefault: model.id === 'm2' }));
    const named = { baseUrl: 'http://127.0.0.1:8080/v1', model: 'llama' };
    expect((await resolveModel(named, asDefault, secrets)).vision).toBe(true);
    expect(
      (await resolveModel({ ...named, vision: false }, asDefault, secrets)).vision,
    ).toBeUndefined();
  });
});
