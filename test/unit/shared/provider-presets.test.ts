/** The provider preset table: complete, well-formed, and found again from a saved base URL. */
import { describe, expect, it } from 'vitest';
import {
  CUSTOM_PRESET_ID,
  presetById,
  presetForBaseUrl,
  PROVIDER_PRESETS,
} from '../../../src/shared/provider-presets';

describe('provider presets', () => {
  it('has every provider of the issue, each id once, Custom last', () => {
    const ids = PROVIDER_PRESETS.map((preset) => preset.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      'openai',
      'anthropic',
      'google',
      'deepseek',
      'openrouter',
      'groq',
      'mistral',
      'siliconflow',
      'moonshot',
      'zhipu',
      'dashscope',
      'ollama',
      'lmstudio',
      'llamacpp',
      'vllm',
      'jan',
      CUSTOM_PRESET_ID,
    ]);
  });

  it('cloud presets are https and need a key with an https key page; local ones are loopback without a key', () => {
    for (const preset of PROVIDER_PRESETS) {
      if (preset.kind === 'custom') {
        expect(preset.baseUrl).toBe('');
        continue;
      }
      const url = new URL(preset.baseUrl);
      if (preset.kind === 'cloud') {
        expect(url.protocol, preset.id).toBe('https:');
        expect(preset.needsKey, preset.id).toBe(true);
        expect(new URL(preset.keyUrl ?? '').protocol, preset.id).toBe('https:');
      } else {
        expect(url.hostname, preset.id).toBe('127.0.0.1');
        expect(preset.needsKey, preset.id).toBe(false);
        expect(preset.keyUrl, preset.id).toBeNull();
      }
      expect(url.search + url.hash + url.username, preset.id).toBe('');
    }
  });

  it('knows the official OpenAI-compatible base URLs and the local default ports', () => {
    const urls = Object.fromEntries(PROVIDER_PRESETS.map((preset) => [preset.id, preset.baseUrl]));
    expect(urls).toMatchObject({
      openai: 'https://api.openai.com/v1',
      anthropic: 'https://api.anthropic.com/v1/',
      google: 'https://generativelanguage.googleapis.com/v1beta/openai/',
      deepseek: 'https://api.deepseek.com/v1',
      openrouter: 'https://openrouter.ai/api/v1',
      groq: 'https://api.groq.com/openai/v1',
      mistral: 'https://api.mistral.ai/v1',
      siliconflow: 'https://api.siliconflow.cn/v1',
      moonshot: 'https://api.moonshot.cn/v1',
      zhipu: 'https://open.bigmodel.cn/api/paas/v4',
      dashscope: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      ollama: 'http://127.0.0.1:11434/v1',
      lmstudio: 'http://127.0.0.1:1234/v1',
      llamacpp: 'http://127.0.0.1:8080/v1',
      vllm: 'http://127.0.0.1:8000/v1',
      jan: 'http://127.0.0.1:1337/v1',
    });
  });

  it('finds the preset of a saved base URL, ignoring a trailing slash, case and localhost', () => {
    expect(presetForBaseUrl('https://api.openai.com/v1/').id).toBe('openai');
    expect(presetForBaseUrl('HTTPS://API.Anthropic.com/v1').id).toBe('anthropic');
    expect(presetForBaseUrl('http://localhost:11434/v1').id).toBe('ollama');
    expect(presetForBaseUrl('http://127.0.0.1:8080/v1').id).toBe('llamacpp');
    expect(presetForBaseUrl('http://127.0.0.1:9999/v1').id).toBe(CUSTOM_PRESET_ID);
    expect(presetForBaseUrl('https://api.openai.com/v2').id).toBe(CUSTOM_PRESET_ID);
    expect(presetForBaseUrl('not a url').id).toBe(CUSTOM_PRESET_ID);
    expect(presetForBaseUrl('').id).toBe(CUSTOM_PRESET_ID);
    expect(presetById('nope').id).toBe(CUSTOM_PRESET_ID);
    expect(presetById('groq').name).toBe('Groq');
  });
});
