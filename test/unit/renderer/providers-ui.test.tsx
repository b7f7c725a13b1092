/** The providers UI: why Save is disabled, the model list's search, tags, and the provider note. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { saveBlocker } from '../../../src/renderer/features/setup/model-form';
import { ProviderNote } from '../../../src/renderer/features/setup/provider-select';
import {
  filterModels,
  MAX_SHOWN,
  ServerModels,
} from '../../../src/renderer/features/setup/server-models';
import { reasonInUi } from '../../../src/renderer/features/settings/tools-page';
import { translate } from '../../../src/renderer/i18n/i18n';
import { presetById } from '../../../src/shared/provider-presets';

const OK = {
  ok: true,
  models: ['openai/gpt-4o', 'deepseek/deepseek-r1', 'meta/llama-3'],
  modelListed: null,
  error: null,
  capabilities: [
    { id: 'openai/gpt-4o', vision: true, tools: true, reasoning: false },
    { id: 'meta/llama-3', vision: false, tools: false, reasoning: null },
  ],
  truncated: false,
};

describe('providers UI', () => {
  it('says why Save is disabled; editing the model after a check does not disable it', () => {
    expect(saveBlocker({ check: null, checkChanged: false, model: 'm' })).toBe(
      'models.saveHint.check',
    );
    expect(saveBlocker({ check: null, checkChanged: true, model: 'm' })).toBe(
      'models.saveHint.changed',
    );
    expect(saveBlocker({ check: { ...OK, ok: false }, checkChanged: false, model: 'm' })).toBe(
      'models.saveHint.failed',
    );
    expect(saveBlocker({ check: OK, checkChanged: false, model: ' ' })).toBe(
      'models.saveHint.model',
    );
    expect(saveBlocker({ check: OK, checkChanged: false, model: 'not-in-the-list' })).toBeNull();
  });

  it('search: every word, any case, server order', () => {
    expect(filterModels(OK.models, '')).toEqual(OK.models);
    expect(filterModels(OK.models, 'GPT')).toEqual(['openai/gpt-4o']);
    expect(filterModels(OK.models, 'e  r1')).toEqual(['deepseek/deepseek-r1']);
    expect(filterModels(OK.models, 'nothing')).toEqual([]);
  });

  it('lists the ids with their stated capabilities and marks the chosen one', () => {
    const html = renderToStaticMarkup(
      <ServerModels check={OK} value="meta/llama-3" testId="list" onPick={() => undefined} />,
    );
    expect(html.match(/data-testid="list-option"/g)).toHaveLength(3);
    expect(html).toContain('vision');
    expect(html).toContain('no native tools');
    expect(html).toMatch(/aria-selected="true"><button[^>]*data-model-id="meta\/llama-3"/);
    const empty = renderToStaticMarkup(
      <ServerModels
        check={{ ...OK, models: [], capabilities: [] }}
        value=""
        testId="list"
        onPick={() => undefined}
      />,
    );
    expect(empty).toContain('type the model name');
  });

  it('renders at most MAX_SHOWN ids of a long list and says how to narrow it', () => {
    const models = Array.from({ length: MAX_SHOWN + 30 }, (_, index) => `m${index}`);
    const html = renderToStaticMarkup(
      <ServerModels
        check={{ ...OK, models, capabilities: [], truncated: true }}
        value=""
        testId="list"
        onPick={() => undefined}
      />,
    );
    expect(html.match(/data-testid="list-option"/g)).toHaveLength(MAX_SHOWN);
    expect(html).toContain(`Showing the first ${MAX_SHOWN} of ${MAX_SHOWN + 30}`);
    expect(html).toContain('more models than are shown');
  });

  it('the provider note links to the key page and names the only origin the key goes to', () => {
    const html = renderToStaticMarkup(
      <ProviderNote
        preset={presetById('deepseek')}
        baseUrl="https://api.deepseek.com/v1"
        testId="note"
      />,
    );
    expect(html).toContain('href="https://platform.deepseek.com/api_keys"');
    expect(html).toContain('rel="noreferrer noopener"');
    expect(html).toContain('to https://api.deepseek.com only');
    const local = renderToStaticMarkup(
      <ProviderNote preset={presetById('ollama')} baseUrl="" testId="note" />,
    );
    expect(local).toContain('no key needed');
    expect(local).not.toContain('href');
  });

  it('the tools page words a command-line reason as the form below it', () => {
    const t = (key: Parameters<typeof translate>[1]) => translate('en', key);
    expect(
      reasonInUi(t, {
        name: 'image_generate',
        reason: 'image generation is off: aivory settings set images.provider openai',
      }),
    ).toBe('image generation is off: choose a provider under "Image generation" below');
    expect(reasonInUi(t, { name: 'python_execute', reason: '请先配置沙盒: docker' })).toBe(
      '请先配置沙盒: docker',
    );
  });
});
