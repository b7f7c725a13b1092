/**
 * Vision input in the browser host: with a saved vision model, a PNG attached in the composer
 * reaches the scripted model as an `image_url` data part and the turn shows it read untrusted
 * content; a saved model without vision gets a hint in the composer and only the description.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/run-cli';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import { chooseModel } from './helpers/model-picker';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

/** A real 1×1 red PNG. */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
const VISION_PROMPT = 'What colour is this square?';
const VISION_ANSWER = 'The square is red.';
const BLIND_PROMPT = 'Can you see this one?';
const BLIND_ANSWER = 'I only have its description.';
const POLL = { timeout: 30_000 };

describe('e2e: images to a vision model', () => {
  let llm: ScriptedLlmServer;
  let serve: RunningServe;
  let browser: TestBrowser;
  let home: string;
  let visionId = '';
  let blindId = '';

  beforeAll(async () => {
    llm = await startScriptedLlmServer((request) => {
      const body = JSON.stringify(request.body.messages ?? []);
      return { content: body.includes(BLIND_PROMPT) ? BLIND_ANSWER : VISION_ANSWER };
    });
    home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
    const add = async (label: string, vision: boolean): Promise<string> => {
      const result = await runCli(
        [
          'models',
          'add',
          '--base-url',
          llm.baseUrl,
          '--model',
          'scripted-model',
          '--label',
          label,
          '--tool-mode',
          'prompt',
          ...(vision ? ['--vision', '--default'] : []),
        ],
        cliEnv(home),
      );
      if (result.code !== 0) throw new Error(result.stderr);
      return result.stdout.trim();
    };
    visionId = await add('Seeing model', true);
    blindId = await add('Text-only model', false);
    serve = await serveAt(home);
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await llm?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('a PNG attached for the saved vision model reaches it as an image part; the turn is marked untrusted', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('model-picker').waitFor();
    await chooseModel(page, { id: visionId });
    await page
      .getByTestId('composer-attach-input')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: RED_PNG });
    await page.getByTestId('composer-attachment').waitFor();
    // The vision model takes images: no hint.
    expect(await page.getByTestId('composer-vision-hint').count()).toBe(0);
    await page.getByTestId('composer-input').fill(VISION_PROMPT);
    await page.getByTestId('composer-send').click();

    const answer = page.getByTestId('message-assistant').filter({ hasText: VISION_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    // The answer names its model as the picker does (the label; the model's name as tooltip).
    const modelName = answer.getByTestId('message-model');
    await expect.poll(() => modelName.textContent(), POLL).toBe('Seeing model');
    expect(await modelName.getAttribute('title')).toBe('scripted-model');
    await expect
      .poll(() => page.getByTestId('turn-taint').first().getAttribute('aria-label'), POLL)
      .toMatch(/^Read untrusted content: attachment red\.png\. /);

    const request = llm.requests.find((entry) =>
      JSON.stringify(entry.body.messages ?? []).includes(VISION_PROMPT),
    );
    const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
    const user = messages.filter((message) => message.role === 'user').at(-1);
    expect(user?.content).toEqual([
      { type: 'text', text: expect.stringContaining('- red.png (image/png, 70 B)') as unknown },
      {
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${RED_PNG.toString('base64')}` },
      },
    ]);
    await screenshot(page, 'chat-vision');
  });

  it('the model picker: grouped, searchable, with capability badges, and chosen by keyboard', async () => {
    const { page } = browser;
    await page.getByTestId('new-chat').click();
    const toggle = page.getByTestId('model-picker');
    await toggle.click();
    const popover = page.getByTestId('model-picker-popover');
    await popover.waitFor();
    const options = popover.getByTestId('model-option');
    // The default (the saved default, Seeing model) first, then the provider's two models.
    expect(await options.locator('.model-option-label').allTextContents()).toEqual([
      'Default: Seeing model',
      'Seeing model',
      'Text-only model',
    ]);
    expect(await popover.locator('.model-group-title').allTextContents()).toEqual([
      'Default',
      new URL(llm.baseUrl).host,
    ]);
    const seeing = options.and(page.locator(`[data-model-id="${visionId}"]`));
    const blind = options.and(page.locator(`[data-model-id="${blindId}"]`));
    expect(
      await seeing
        .locator('[data-badge]')
        .evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-badge'))),
    ).toEqual(['vision', 'prompt-tools', 'context']);
    expect(await blind.locator('[data-badge="vision"]').count()).toBe(0);
    await screenshot(page, 'composer-model-picker');
    // Typing filters; ↓ and Enter choose; the toggle then shows the label.
    await page.getByTestId('model-picker-search').fill('text');
    expect(await options.count()).toBe(1);
    await page.keyboard.press('Enter');
    await popover.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('data-model-id')).toBe(blindId);
    expect(await toggle.textContent()).toBe('Text-only model');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'model-picker',
    );
    // Esc closes without choosing; nothing matches says so.
    await toggle.click();
    await page.getByTestId('model-picker-search').fill('no such model');
    expect(await popover.textContent()).toContain('No model matches');
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await toggle.getAttribute('data-model-id')).toBe(blindId);
    await chooseModel(page, { id: visionId });
  });

  it('a model without vision: the composer says so and the model gets only the description', async () => {
    const { page } = browser;
    await page.getByTestId('new-chat').click();
    await chooseModel(page, { id: blindId });
    await page
      .getByTestId('composer-attach-input')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: RED_PNG });
    const hint = page.getByTestId('composer-vision-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toMatch(/^This model does not take images/);
    // Switching to the vision model removes the hint; back again, it returns.
    await chooseModel(page, { id: visionId });
    await expect.poll(() => hint.count(), POLL).toBe(0);
    await chooseModel(page, { id: blindId });
    await hint.waitFor();
    await screenshot(page, 'composer-vision-hint');

    await page.getByTestId('composer-input').fill(BLIND_PROMPT);
    await page.getByTestId('composer-send').click();
    const answer = page.getByTestId('message-assistant').filter({ hasText: BLIND_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    const request = llm.requests.find((entry) =>
      JSON.stringify(entry.body.messages ?? []).includes(BLIND_PROMPT),
    );
    const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
    const user = messages.filter((message) => message.role === 'user').at(-1);
    expect(typeof user?.content).toBe('string');
    expect(user?.content).toContain('- red.png (image/png, 70 B)');
    expect(await page.getByTestId('turn-taint').count()).toBe(0);

    // Regenerate with another saved model: the new version names the model that wrote it.
    await expect
      .poll(() => answer.getByTestId('message-model').textContent(), POLL)
      .toBe('Text-only model');
    const last = page.getByTestId('message-assistant').last();
    await last.hover();
    await last.getByTestId('message-regenerate-mode').click();
    await page.getByTestId('message-regenerate-model').filter({ hasText: 'Seeing model' }).click();
    await expect
      .poll(() => page.getByTestId('version-count').last().textContent(), POLL)
      .toBe('2/2');
    const rewritten = page.getByTestId('message-assistant').last();
    await expect.poll(() => rewritten.getAttribute('data-status'), POLL).toBe('complete');
    await expect
      .poll(() => rewritten.getByTestId('message-model').textContent(), POLL)
      .toBe('Seeing model');
    // The composer keeps its own model.
    expect(await page.getByTestId('model-picker').getAttribute('data-model-id')).toBe(blindId);
  });
});
