/**
 * Versions in the browser: Regenerate writes a second answer and ‹ › switches between them (also
 * after a reload); editing a question forks the conversation; ⌘/Ctrl+Shift+R regenerates.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import { screenshot } from './helpers/browser';
import { turnState } from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';

let numbers = 0;
/** "Pick a number" gets Number 1, 2, 3… (one per request); anything else is echoed. */
function versionsScript(request: RecordedRequest): ScriptedResponse {
  const { text } = turnState(request);
  if (text.includes('Pick a number')) {
    numbers += 1;
    return { content: `Number ${numbers}.` };
  }
  return { content: `You said: ${text}` };
}

describe('e2e: message versions', () => {
  const app = useAppFixture(versionsScript);

  it('regenerate makes a second version, ‹ › switches, a reload keeps the shown one; an edit forks', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill('Pick a number');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.textContent()).toContain('Number 1.');
    await expect.poll(() => answer.getAttribute('data-status')).toBe('complete');

    await answer.getByTestId('message-regenerate').click();
    await expect.poll(() => answer.textContent()).toContain('Number 2.');
    await expect
      .poll(() => answer.getByTestId('version-count').textContent({ timeout: 5000 }))
      .toBe('2/2');
    expect(await page.getByTestId('message-assistant').count()).toBe(1);
    expect(await page.getByTestId('message-user').count()).toBe(1);
    await answer.hover();
    await screenshot(page, 'chat-versions');
    // The model got the same question again, without the first answer.
    const resent = app().llm.requests.at(-1)?.body.messages as { role: string }[];
    expect(resent.map((message) => message.role)).toEqual(['system', 'user']);

    await answer.getByTestId('version-previous').click();
    await expect.poll(() => answer.getByTestId('version-count').textContent()).toBe('1/2');
    expect(await answer.textContent()).toContain('Number 1.');
    expect(await answer.getByTestId('version-previous').isDisabled()).toBe(true);
    await page.reload();
    const reloaded = page.getByTestId('message-assistant').last();
    await expect.poll(() => reloaded.getByTestId('version-count').textContent()).toBe('1/2');
    expect(await reloaded.textContent()).toContain('Number 1.');
    await reloaded.getByTestId('version-next').click();
    await expect.poll(() => reloaded.textContent()).toContain('Number 2.');

    // ⌘/Ctrl+Shift+R: a third version of the last answer.
    await page.getByTestId('composer-input').click();
    await page.keyboard.press('Control+Shift+R');
    await expect.poll(() => reloaded.textContent()).toContain('Number 3.');
    await expect.poll(() => reloaded.getByTestId('version-count').textContent()).toBe('3/3');

    // A follow-up, then editing the first question: the follow-up stays in the old branch.
    await page.getByTestId('composer-input').fill('And another thing');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(() => page.getByTestId('message-user').count()).toBe(2);
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getAttribute('data-status'))
      .toBe('complete');
    const question = page.getByTestId('message-user').first();
    await question.getByTestId('message-edit').click();
    await question.getByTestId('question-editor-text').fill('Pick a colour');
    await question.getByTestId('question-editor-text').press('Enter');
    await expect
      .poll(() => page.getByTestId('message-assistant').last().textContent())
      .toContain('You said: Pick a colour');
    await expect.poll(() => page.getByTestId('message-user').count()).toBe(1);
    await expect.poll(() => question.getByTestId('version-count').textContent()).toBe('2/2');
    await question.getByTestId('version-previous').click();
    await expect.poll(() => page.getByTestId('message-user').count()).toBe(2);
    expect(await page.getByTestId('message-user').last().textContent()).toContain(
      'And another thing',
    );
    expect(await page.getByTestId('message-assistant').first().textContent()).toContain(
      'Number 3.',
    );

    // Esc leaves an edit without sending.
    const requests = app().llm.requests.length;
    await question.getByTestId('message-edit').click();
    await question.getByTestId('question-editor-text').press('Escape');
    await expect.poll(() => question.getByTestId('question-editor').count()).toBe(0);
    expect(app().llm.requests.length).toBe(requests);
  }, 120_000);
});
