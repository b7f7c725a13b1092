/**
 * Providers in the browser host (issue 12): first run with the llama.cpp preset pointed at the
 * scripted server, "fetch models" shows the server's ids, the search box filters them, picking
 * one fills the model (and vision, which the listing states); editing the model after the check
 * keeps Save enabled, editing the URL explains why it is not; Save and start, a chat turn; then
 * another model from the same provider in settings, reusing the saved key.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppFixture } from './helpers/app-fixture';
import { chooseModel } from './helpers/model-picker';
import { screenshot } from './helpers/browser';
import { chatScript } from './helpers/chat-script';

const KEY = 'sk-e2e-provider-key-0123456789';

/** The ids the setup list (or the model editor's) shows, in order. */
async function listedIds(page: Page, testId: string): Promise<string[]> {
  return page
    .getByTestId(`${testId}-option`)
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-model-id') ?? ''));
}

describe('e2e: providers and model lists', () => {
  const app = useAppFixture(chatScript, {
    configured: false,
    llm: {
      apiKey: KEY,
      models: [
        'scripted-model',
        'other-model',
        { id: 'vision-model', architecture: { input_modalities: ['text', 'image'] } },
        'qwen3-coder',
      ],
    },
  });

  it('preset → fetch models → search → pick → edit after the check → save → chat → another model from the provider', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('setup-screen').waitFor();

    // The llama.cpp preset fills its default URL and says no key is needed.
    await page.getByTestId('setup-provider').selectOption('llamacpp');
    expect(await page.getByTestId('setup-base-url').inputValue()).toBe('http://127.0.0.1:8080/v1');
    expect(await page.getByTestId('setup-tool-mode').inputValue()).toBe('prompt');
    const note = page.getByTestId('setup-provider-note');
    expect(await note.getAttribute('data-preset')).toBe('llamacpp');
    expect(await note.textContent()).toContain('no key needed');
    // A cloud preset links to where keys are made.
    await page.getByTestId('setup-provider').selectOption('openrouter');
    expect(await note.locator('a').getAttribute('href')).toBe('https://openrouter.ai/keys');
    expect(await note.textContent()).toContain(
      '"Authorization: Bearer" header, to https://openrouter.ai only',
    );
    await page.getByTestId('setup-provider').selectOption('llamacpp');

    // The scripted server stands in for llama.cpp on another port: the preset becomes Custom.
    await page.getByTestId('setup-base-url').fill(app().llm.baseUrl);
    expect(await page.getByTestId('setup-provider').inputValue()).toBe('custom');
    await page.getByTestId('setup-api-key').fill(KEY);
    expect(await page.getByTestId('setup-save').isDisabled()).toBe(true);
    expect(await page.getByTestId('setup-save-hint').textContent()).toContain(
      'Check the connection first',
    );

    await page.getByTestId('setup-test').click();
    await expect
      .poll(() => page.getByTestId('setup-test-result').getAttribute('data-ok'))
      .toBe('true');
    expect(await page.getByTestId('setup-test-result').textContent()).toContain('4 models');
    expect(await listedIds(page, 'setup-models')).toEqual([
      'scripted-model',
      'other-model',
      'vision-model',
      'qwen3-coder',
    ]);
    // Save needs a model; the hint says so.
    expect(await page.getByTestId('setup-save-hint').textContent()).toContain('Pick a model');

    await page.getByTestId('setup-models-search').fill('MODEL oth');
    expect(await listedIds(page, 'setup-models')).toEqual(['other-model']);
    expect(await page.getByTestId('setup-models-count').textContent()).toBe('1 of 4 models match.');
    await page.getByTestId('setup-models-search').fill('nothing-like-this');
    expect(await listedIds(page, 'setup-models')).toEqual([]);
    expect(await page.getByTestId('setup-models-count').textContent()).toContain(
      'No model matches',
    );
    await page.getByTestId('setup-models-search').fill('vision');
    await page.getByTestId('setup-models-option').click();
    expect(await page.getByTestId('setup-model').inputValue()).toBe('vision-model');
    expect(await page.getByTestId('setup-vision').isChecked()).toBe(true);
    await screenshot(page, 'setup-model-list');

    // Editing the model after the check keeps Save enabled (a name the server does not list is
    // allowed, with a warning); picking a model the listing says nothing about clears vision.
    await page.getByTestId('setup-model').fill('not-listed-model');
    expect(await page.getByTestId('setup-save').isDisabled()).toBe(false);
    expect(await page.getByTestId('setup-model-unlisted').textContent()).toContain(
      '"not-listed-model" is not in the server\'s list',
    );
    await page.getByTestId('setup-models-search').fill('scripted');
    await page.getByTestId('setup-models-option').click();
    expect(await page.getByTestId('setup-model').inputValue()).toBe('scripted-model');
    expect(await page.getByTestId('setup-vision').isChecked()).toBe(false);
    expect(await page.getByTestId('setup-save').isDisabled()).toBe(false);
    expect(await page.getByTestId('setup-save-hint').count()).toBe(0);

    // Editing the URL or key does invalidate the check, and the hint says why.
    await page.getByTestId('setup-base-url').fill(`${app().llm.baseUrl}/`);
    expect(await page.getByTestId('setup-save').isDisabled()).toBe(true);
    expect(await page.getByTestId('setup-save-hint').textContent()).toContain(
      'The URL or key changed since the last check',
    );
    await page.getByTestId('setup-base-url').fill(app().llm.baseUrl);
    await page.getByTestId('setup-test').click();
    await page.getByTestId('setup-models').waitFor();
    expect(await page.getByTestId('setup-save').isDisabled()).toBe(false);
    await page.getByTestId('setup-save').click();

    await page.getByTestId('composer-input').fill('Hello');
    await page.getByTestId('composer-send').click();
    const answer = page
      .getByTestId('message-assistant')
      .filter({ hasText: 'Hello from the scripted model.' });
    await answer.waitFor();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('complete');
    const completion = app().llm.requests.find(
      (request) => request.path === '/v1/chat/completions',
    );
    expect(completion?.body.model).toBe('scripted-model');

    // Another model from the same provider: URL copied, key reused by reference (never shown).
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-models').click();
    await page.getByTestId('settings-page-models').waitFor();
    await page.getByTestId('model-add-sibling').click();
    expect(await page.getByTestId('model-base-url').inputValue()).toBe(app().llm.baseUrl);
    expect(await page.getByTestId('model-api-key').inputValue()).toBe('');
    expect(await page.getByTestId('model-sibling-key').textContent()).toContain(
      'Uses the saved key of "scripted-model" (sk-…6789)',
    );
    await page.getByTestId('model-check').click();
    await page.getByTestId('model-list').waitFor();
    await page.getByTestId('model-list-search').fill('coder');
    await page.getByTestId('model-list-option').click();
    expect(await page.getByTestId('model-name').inputValue()).toBe('qwen3-coder');
    await page.getByTestId('model-vision').check();
    // Its conversations' defaults: instructions and a context policy, besides the parameters.
    await page.getByTestId('model-default-instructions-kind-text').check();
    await page.getByTestId('model-default-instructions-text').fill('Reply in one line.');
    await page.getByTestId('model-default-context-messages').check();
    await page.getByTestId('model-default-context-count').fill('2');
    await screenshot(page, 'settings-model-sibling');
    await page.getByTestId('model-save').click();
    const models = page.getByTestId('settings-model');
    await expect.poll(() => models.count()).toBe(2);
    const sibling = models.filter({ hasText: 'qwen3-coder' });
    expect(await sibling.textContent()).toContain('key sk-…6789');
    expect(await sibling.textContent()).toContain('vision');
    expect(await page.content()).not.toContain(KEY);

    // A conversation with that model gets them.
    await page.getByTestId('settings-close').click();
    await page.getByTestId('new-chat').click();
    await chooseModel(page, { text: 'qwen3-coder' });
    for (const [text, count] of [
      ['One', 1],
      ['Two', 2],
      ['Three', 3],
    ] as const) {
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-send').click();
      await expect
        .poll(() =>
          page
            .getByTestId('message-assistant')
            .nth(count - 1)
            .getAttribute('data-status'),
        )
        .toBe('complete');
    }
    const coder = app().llm.requests.filter(
      (request) => request.path === '/v1/chat/completions' && request.body.model === 'qwen3-coder',
    );
    expect(coder).toHaveLength(3);
    const messages = coder[2]?.body.messages as { role: string; content: string }[];
    expect(messages[0]?.content).toContain('<conversation_instructions>\nReply in one line.');
    // Context policy "last 2 messages": the previous exchange only, then the new question.
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[1]?.content).toBe('Two');
  }, 90_000);
});
