import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import { chatScript } from './helpers/chat-script';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';

describe('e2e: first run in the browser host', () => {
  let llm: ScriptedLlmServer;
  let serve: ServeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(chatScript, { models: ['scripted-model', 'other-model'] });
    serve = await startServe();
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await llm?.close();
  });

  it('no model configured → setup screen → check the connection → save → chat works', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('setup-screen').waitFor();
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await screenshot(page, 'first-run-setup');

    await page.getByTestId('setup-base-url').fill(llm.baseUrl);
    await page.getByTestId('setup-model').fill('scripted-model');
    await page.getByTestId('setup-tool-mode').selectOption('prompt');
    expect(await page.getByTestId('setup-save').isDisabled()).toBe(true);
    await page.getByTestId('setup-test').click();
    await expect
      .poll(() => page.getByTestId('setup-test-result').getAttribute('data-ok'))
      .toBe('true');
    expect(await page.getByTestId('setup-test-result').textContent()).toContain('2');
    await screenshot(page, 'first-run-checked');
    await page.getByTestId('setup-save').click();

    await page.getByTestId('composer-input').fill('Hello');
    await page.getByTestId('composer-send').click();
    await page.getByTestId('message-user').filter({ hasText: 'Hello' }).waitFor();
    const answer = page
      .getByTestId('message-assistant')
      .filter({ hasText: 'Hello from the scripted model.' });
    await answer.waitFor();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('complete');
    await page.getByTestId('conversation-item').filter({ hasText: 'Hello' }).waitFor();
  }, 60_000);
});
