import { describe, expect, it } from 'vitest';
import { fillTemplate, templateVariables } from '../../../src/main/services/prompts-service';
import {
  attachmentProblem,
  attachmentsPayload,
  bytesToBase64,
  isInlineImage,
} from '../../../src/renderer/state/attachment-rules';
import type { ConversationTool } from '../../../src/renderer/state/composer-rules';
import {
  insertIntoComposer,
  contextLabel,
  groupModelChoices,
  modelChoices,
  toggleValue,
} from '../../../src/renderer/state/composer-rules';
import { fillPlaceholders, placeholderNames } from '../../../src/shared/prompt-template-text';
import { formatBytes } from '../../../src/shared/byte-size';

const MIB = 1024 * 1024;

describe('renderer: composer files', () => {
  it('checks the count, the size of each file and the total before reading anything', () => {
    const small = { name: 'a.txt', size: 10 };
    expect(attachmentProblem([], [small])).toBeNull();
    expect(attachmentProblem(Array(9).fill(small), [small, small])).toEqual({
      key: 'attach.tooMany',
      params: { name: 'a.txt', max: 10 },
    });
    expect(attachmentProblem([], [{ name: 'big.bin', size: 40 * MIB + 1 }])).toEqual({
      key: 'attach.tooLarge',
      params: { name: 'big.bin', size: '40 MiB', max: 40 },
    });
    expect(attachmentProblem([], [{ name: 'ok.bin', size: 40 * MIB }])).toBeNull();
    const three = Array(3).fill({ name: 'c.bin', size: 35 * MIB });
    expect(attachmentProblem([], three)).toEqual({
      key: 'attach.totalTooLarge',
      params: { name: 'c.bin', max: 100 },
    });
  });

  it('base64 equals Node’s, also across chunk boundaries', () => {
    for (const length of [0, 1, 2, 3, 0x8000, 0x8000 * 2 + 7]) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 31) % 256);
      expect(bytesToBase64(bytes), String(length)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('sizes read like people write them; only raster images with a matching name show inline', () => {
    expect([512, 1536, 3.2 * MIB].map((size) => formatBytes(size))).toEqual([
      '512 B',
      '1.5 KiB',
      '3.2 MiB',
    ]);
    expect(isInlineImage({ name: 'plot.png', mime: 'image/png' })).toBe(true);
    expect(isInlineImage({ name: 'photo.JPG', mime: 'image/jpeg' })).toBe(true);
    expect(isInlineImage({ name: 'logo.svg', mime: 'image/svg+xml' })).toBe(false);
    expect(isInlineImage({ name: 'page.html', mime: 'image/png' })).toBe(false);
    expect(isInlineImage({ name: 'data.csv', mime: 'text/csv' })).toBe(false);
  });

  it('sends a MIME type only when the browser gave a well-formed one', () => {
    const file = { id: '1', name: 'a.csv', size: 1, dataBase64: 'QQ==' };
    expect(attachmentsPayload([{ ...file, mime: 'text/csv' }])).toEqual([
      { name: 'a.csv', mime: 'text/csv', dataBase64: 'QQ==' },
    ]);
    expect(attachmentsPayload([{ ...file, mime: '' }])).toEqual([
      { name: 'a.csv', dataBase64: 'QQ==' },
    ]);
  });
});

describe('renderer: composer pickers', () => {
  const model = (id: string, label: string, isDefault = false) => ({
    id,
    label,
    baseUrl: 'http://127.0.0.1:9/v1',
    model: label,
    toolMode: 'native' as const,
    contextWindow: 8192,
    defaultTools: null,
    isDefault,
    apiKeyMasked: null,
  });

  it('model choices: the default (environment first, else the saved default), then saved models', () => {
    const models = [model('m1', 'Local'), model('m2', 'Cloud', true)];
    const labels = (list: Parameters<typeof modelChoices>[0]): unknown[] =>
      modelChoices(list).map(({ id, label, kind }) => ({ id, label, kind }));
    expect(labels({ models, environmentModel: null })).toEqual([
      { id: null, label: 'Cloud', kind: 'automatic' },
      { id: 'm1', label: 'Local', kind: 'saved' },
      { id: 'm2', label: 'Cloud', kind: 'saved' },
    ]);
    const environmentModel = {
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'env-model',
      toolMode: 'prompt' as const,
      apiKeyMasked: null,
    };
    expect(modelChoices({ models: [], environmentModel })).toEqual([
      {
        id: null,
        label: 'env-model',
        kind: 'automatic',
        model: 'env-model',
        provider: 'Ollama',
        vision: null,
        toolMode: 'prompt',
        contextWindow: null,
      },
    ]);
    expect(modelChoices({ models: [model('m1', 'Local')], environmentModel: null })).toEqual([
      {
        id: 'm1',
        label: 'Local',
        kind: 'saved',
        model: 'Local',
        provider: '127.0.0.1:9',
        vision: null,
        toolMode: 'native',
        contextWindow: 8192,
      },
    ]);
  });

  it('model groups: by provider in list order, the default apart, filtered by every word', () => {
    const choices = modelChoices({
      models: [
        { ...model('a', 'GPT fast'), baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
        { ...model('b', 'Qwen coder'), model: 'qwen3-coder' },
        { ...model('c', 'GPT big', true), baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o' },
      ],
      environmentModel: null,
    });
    const shape = (query: string): unknown[] =>
      groupModelChoices(choices, query).map((group) => [
        group.automatic ? 'default' : group.provider,
        group.items.map((item) => item.id ?? 'default'),
      ]);
    expect(shape('')).toEqual([
      ['default', ['default']],
      ['OpenAI', ['a', 'c']],
      ['127.0.0.1:9', ['b']],
    ]);
    expect(shape('openai big')).toEqual([
      ['default', ['default']],
      ['OpenAI', ['c']],
    ]);
    expect(shape('CODER')).toEqual([['127.0.0.1:9', ['b']]]);
    expect(shape('nothing like it')).toEqual([]);
  });

  it('context sizes read as people write them', () => {
    expect(
      [512, 8192, 32_768, 128_000, 131_072, 200_000, 1_048_576, 1_000_000, 2_000_000].map(
        contextLabel,
      ),
    ).toEqual(['512', '8K', '32K', '128K', '128K', '200K', '1M', '1M', '2M']);
    expect(contextLabel(12_345)).toBe('12.3K');
  });

  it('a tool switch set back to the model’s default is cleared instead of stored', () => {
    const tool: ConversationTool = {
      name: 'web_fetch',
      on: true,
      layer: 'model-default',
      defaultOn: true,
      available: true,
      reason: null,
    };
    expect(toggleValue(tool, false)).toBe(false);
    expect(toggleValue({ ...tool, on: false, layer: 'conversation-off' }, true)).toBeNull();
    expect(toggleValue({ ...tool, defaultOn: false, on: false }, true)).toBe(true);
  });

  it('an inserted prompt replaces an empty box or follows the text as a new paragraph', () => {
    expect(insertIntoComposer('  ', 'Prompt')).toBe('Prompt');
    expect(insertIntoComposer('Hello\n', 'Prompt')).toBe('Hello\n\nPrompt');
  });

  it('template placeholders behave exactly as the prompts service’s', () => {
    const bodies = [
      'Translate {{text}} into {{ language }}, keep {{text}}.',
      '{{名字}} {{a.b-c_d}} {{ bad name }} {{}} {x}',
      'No variables.',
    ];
    const values = { text: 'hi', language: 'Norwegian', 名字: '张三', 'a.b-c_d': 'v' };
    for (const body of bodies) {
      expect(placeholderNames(body)).toEqual(templateVariables(body));
      expect(fillPlaceholders(body, values)).toBe(fillTemplate(body, values));
      expect(fillPlaceholders(body, {})).toBe(body);
    }
  });
});
