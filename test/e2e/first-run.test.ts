import { describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser';
import { chatScript } from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';

describe('e2e: first run in the browser host', () => {
  const app = useAppFixture(chatScript, {
    configured: false,
    llm: { models: ['scripted-model', 'other-model'] },
  });

  it('no model configured → setup screen → check the connection → save → chat works', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('setup-screen').waitFor();
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await screenshot(page, 'first-run-setup');

    await page.getByTestId('setup-base-url').fill(app().llm.baseUrl);
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
