/**
 * A ~2,000,000-character answer (the most a turn may write) in Chromium: while it streams the
 * composer takes typing; when it ends, its end is shown with the part above folded behind a
 * button that reveals more of it; copying copies all of it; the conversation reopens to the
 * same end. Nothing here is timed: `npm run bench -- --only=ui-long` measures the main thread.
 */
import { describe, expect, it } from 'vitest';
import {
  LONG_ANSWER_END,
  longAnswerPrompt,
  longAnswerScript,
  longAnswerText,
} from '../support/long-answer';
import { useAppFixture } from './helpers/app-fixture';

/** Under the turn's 2,000,000-character bound, with room for the end marker. */
const CHARS = 1_999_000;
const TYPED = 'typed meanwhile';

describe('e2e: a 2 MB answer keeps the page usable', () => {
  const app = useAppFixture(longAnswerScript);

  it('streams with the composer usable, shows its end, copies whole and reopens', async () => {
    const { page, context } = app().browser;
    await page.goto(app().serve.url);
    const composer = page.getByTestId('composer-input');
    // 2 MB in 20 s: typing has all that time to land, however loaded the machine.
    const prompt = longAnswerPrompt('markdown', CHARS, true);
    await composer.fill(prompt);
    await composer.press('Enter');

    const answer = page.getByTestId('message-assistant').last();
    await answer.locator('.markdown p').first().waitFor();
    // Typing while it streams: every key lands, and the answer was still streaming after them.
    await composer.pressSequentially(TYPED);
    expect(await composer.inputValue()).toBe(TYPED);
    expect(await answer.getAttribute('data-status')).toBe('streaming');

    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 120_000, interval: 500 })
      .toBe('complete');
    await expect.poll(() => composer.inputValue()).toBe(TYPED);
    // The end is on screen; the part above is folded behind a button, which reveals more of it.
    const end = answer.getByText(LONG_ANSWER_END);
    await end.waitFor();
    expect(await end.isVisible()).toBe(true);
    const earlier = answer.getByTestId('markdown-earlier');
    const before = (await earlier.textContent()) ?? '';
    expect(before).toMatch(/\(1\.\d MB above not shown\)/);
    const paragraphs = await answer.locator('.markdown p').count();
    await earlier.click();
    await expect.poll(() => answer.locator('.markdown p').count()).toBeGreaterThan(paragraphs);

    // Copy (Markdown and plain text) puts all of it on the clipboard, not what is shown.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await answer.getByTestId('message-copy').click();
    await expect
      .poll(() => answer.getByTestId('message-copy').getAttribute('data-state'))
      .toBe('copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.length).toBeGreaterThan(CHARS);
    expect(copied.startsWith(longAnswerText('markdown', 200))).toBe(true);
    await answer.getByTestId('message-copy-text').click();
    await expect
      .poll(() => answer.getByTestId('message-copy-text').getAttribute('data-state'))
      .toBe('copied');
    const plain = await page.evaluate(() => navigator.clipboard.readText());
    expect(plain.startsWith('Paragraph 0: w0 w1')).toBe(true);
    expect(plain).toContain(LONG_ANSWER_END);
    expect(plain).not.toContain('**');

    // Another chat, then this conversation again: it opens at the same end.
    await page.getByTestId('new-chat').click();
    await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(0);
    await page.getByTestId('conversation-item').filter({ hasText: prompt }).click();
    const reopened = page.getByTestId('message-assistant').last();
    await reopened.getByText(LONG_ANSWER_END).waitFor();
    expect(await reopened.getByText(LONG_ANSWER_END).isVisible()).toBe(true);
    expect(await reopened.getByTestId('markdown-earlier').isVisible()).toBe(true);
    expect(await composer.isEditable()).toBe(true);
  }, 240_000);
});
