import { describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';

const INSTRUCTIONS = 'Answer in exactly three words.';

interface CompletionBody {
  messages: { role: string; content: string }[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

describe('e2e: a conversation’s own instructions and parameters', () => {
  const app = useAppFixture([
    { content: 'First answer here.' },
    { content: 'Second answer here.' },
    { content: 'Third answer here.' },
  ]);

  it('set in the dialog, they reach the model’s request and are still there after a reload', async () => {
    const { page } = app().browser;
    const completions = (): CompletionBody[] =>
      app()
        .llm.requests.filter((request) => request.path.endsWith('/chat/completions'))
        .map((request) => request.body as unknown as CompletionBody);
    await page.goto(app().serve.url);
    const send = async (text: string, count: number): Promise<void> => {
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
      const answers = page.getByTestId('message-assistant');
      await expect.poll(() => answers.count(), { timeout: 15_000 }).toBe(count);
      await expect
        .poll(() => answers.nth(count - 1).getAttribute('data-status'), { timeout: 15_000 })
        .toBe('complete');
    };
    await send('Hello there', 1);
    expect(completions()[0]).not.toHaveProperty('temperature');

    await page.getByTestId('conversation-settings-open').click();
    const dialog = page.getByTestId('conversation-settings');
    await dialog.waitFor();
    // Nothing set yet: the fields are empty and say what an empty one means.
    expect(await dialog.getByTestId('conv-temperature').inputValue()).toBe('');
    expect(await dialog.getByTestId('conv-temperature').getAttribute('placeholder')).toBe(
      'server default',
    );
    await dialog.getByTestId('conv-instructions-kind-text').check();
    await dialog.getByTestId('conv-instructions-text').fill(INSTRUCTIONS);
    // Out of range first: refused next to the field, nothing saved.
    await dialog.getByTestId('conv-temperature').fill('2.5');
    await dialog.getByTestId('conv-settings-save').click();
    await dialog.getByTestId('conv-temperature-error').waitFor();
    await dialog.getByTestId('conv-temperature').fill('0.4');
    await dialog.getByTestId('conv-context-messages').check();
    await dialog.getByTestId('conv-context-count').fill('1');
    await dialog.getByTestId('conv-settings-save').click();
    await dialog.getByTestId('conv-settings-save-done').waitFor();
    expect(await dialog.getByTestId('conv-info-turns').textContent()).toBe('1');
    expect(await dialog.getByTestId('conv-info-models').textContent()).toBe('scripted-model');
    expect(await dialog.getByTestId('conv-info-tokens').textContent()).toMatch(
      /^[1-9][\d,]* in · [1-9][\d,]* out$/,
    );
    await screenshot(page, 'conversation-settings');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await send('And now?', 2);
    const second = completions()[1];
    expect(second?.temperature).toBe(0.4);
    expect(second).not.toHaveProperty('top_p');
    expect(second).not.toHaveProperty('max_tokens');
    const system = second?.messages[0];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain(
      `<conversation_instructions>\n${INSTRUCTIONS}\n</conversation_instructions>`,
    );
    // The main prompt still comes first.
    expect(system?.content.startsWith('You are Aivory')).toBe(true);
    // Last 1 message: only the first answer would go, and a history starts with a question, so
    // both earlier messages are left out — and the answer says so.
    expect(second?.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(await page.getByTestId('omitted-messages').last().textContent()).toBe(
      '2 earlier messages not sent (context policy)',
    );

    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await page.getByTestId('message-assistant').nth(1).waitFor();
    expect(await page.getByTestId('omitted-messages').last().textContent()).toBe(
      '2 earlier messages not sent (context policy)',
    );
    await page.getByTestId('conversation-settings-open').click();
    const reopened = page.getByTestId('conversation-settings');
    await reopened.getByTestId('conv-temperature').waitFor();
    expect(await reopened.getByTestId('conv-temperature').inputValue()).toBe('0.4');
    expect(await reopened.getByTestId('conv-instructions-text').inputValue()).toBe(INSTRUCTIONS);
    expect(await reopened.getByTestId('conv-context-count').inputValue()).toBe('1');
    expect(await reopened.getByTestId('conv-info-turns').textContent()).toBe('2');

    // Back to defaults: the next request carries no temperature and no instructions.
    await reopened.getByTestId('conv-settings-reset').click();
    await reopened.getByTestId('conv-settings-save-done').waitFor();
    await reopened.getByTestId('conversation-settings-close').click();
    await send('Once more', 3);
    const third = completions()[2];
    expect(third).not.toHaveProperty('temperature');
    expect(third?.messages[0]?.content).not.toContain('<conversation_instructions>');
  }, 90_000);
});
