import { describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser';
import {
  chatScript,
  CUT_OFF_ANSWER,
  CUT_OFF_PROMPT,
  EMPTY_PROMPT,
  FLAKY_ANSWER,
  FLAKY_PROMPT,
  SLOW_PROMPT,
  TOOLS_PROMPT,
} from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';

describe('e2e: chatting in the browser host (model from AIVORY_* variables, prompt mode)', () => {
  const app = useAppFixture(chatScript);

  it('a turn with two tool calls shows live trace cards, the budget meter and the answer', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill(TOOLS_PROMPT);
    await page.getByTestId('composer-input').press('Enter');

    const traces = page.getByTestId('tool-trace');
    const memory = traces.and(page.locator('[data-tool-name="save_memory"]'));
    await memory.waitFor();
    // The first card is on screen while the turn is still running (the Stop button is there).
    expect(await page.getByTestId('turn-stop').count()).toBe(1);
    await expect.poll(() => memory.getAttribute('data-status')).toBe('ok');
    // Finished, the card folds to its head; the user opens it (most often while the turn still
    // runs), and it stays open when the live answer becomes the stored one.
    const memoryToggle = memory.getByTestId('tool-trace-toggle');
    await expect.poll(() => memoryToggle.getAttribute('aria-expanded')).toBe('false');
    await memoryToggle.click();
    expect(await memoryToggle.getAttribute('aria-expanded')).toBe('true');
    const skill = traces.and(page.locator('[data-tool-name="use_skill"]'));
    await expect.poll(() => skill.getAttribute('data-status')).toBe('ok');

    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 15_000 })
      .toBe('complete');
    expect(await answer.locator('strong').textContent()).toBe('document-generation');
    expect(await answer.textContent()).toContain('Done: I saved the memory');
    expect(await traces.count()).toBe(2);
    // save_memory and use_skill have no per-tool cap; the turn's total is capped at 48.
    expect(await page.getByTestId('budget-meter').textContent()).toBe(
      'save_memory 1 · use_skill 1 · total 2/48',
    );
    expect(await page.getByTestId('turn-stop').count()).toBe(0);
    expect(await memoryToggle.getAttribute('aria-expanded')).toBe('true');
    expect(await memory.getByTestId('tool-result-preview').isVisible()).toBe(true);
    // The user's choice holds; the other finished card is one line: the toggle (a button saying
    // whether it is open: name, status, duration) and nothing else in view.
    const skillToggle = skill.getByTestId('tool-trace-toggle');
    expect(await skillToggle.evaluate((element) => element.tagName)).toBe('BUTTON');
    expect(await skillToggle.getAttribute('aria-expanded')).toBe('false');
    expect(await skillToggle.textContent()).toMatch(/^Use a skillok.+ s$/);
    expect(await skill.getByTestId('tool-result-preview').isVisible()).toBe(false);
    const skillBox = await skill.boundingBox();
    expect(skillBox?.height ?? 0).toBeGreaterThan(0);
    expect(skillBox?.height ?? 999).toBeLessThanOrEqual(44);
    // Keyboard: Enter on the focused head closes the opened card, Space opens the other.
    await memoryToggle.focus();
    await page.keyboard.press('Enter');
    expect(await memoryToggle.getAttribute('aria-expanded')).toBe('false');
    expect(await memory.getByTestId('tool-result-preview').isVisible()).toBe(false);
    // The chevron has turned (no transition caught half-way in the picture).
    await page.waitForFunction(() => document.getAnimations().length === 0);
    await screenshot(page, 'chat-tool-traces');
    await skillToggle.focus();
    await page.keyboard.press('Space');
    expect(await skillToggle.getAttribute('aria-expanded')).toBe('true');
    expect(await skill.getByTestId('tool-result-preview').isVisible()).toBe(true);
    await memoryToggle.click();
    await memory.locator('summary').first().click();
    expect(await memory.locator('pre').first().textContent()).toContain('The user likes green tea');

    // Reopened after a reload, the meter reads as it did live (limits included).
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await expect
      .poll(() => page.getByTestId('budget-meter').textContent())
      .toBe('save_memory 1 · use_skill 1 · total 2/48');
    // Each answer says which model wrote it.
    expect(await page.getByTestId('message-model').last().textContent()).toBe('scripted-model');
    // And the tokens it used (the scripted server reports a rough count when asked).
    expect(await page.getByTestId('message-usage').last().textContent()).toMatch(
      /^[\d,]+ tokens in · [\d,]+ out$/,
    );

    // Copy puts the Markdown (or the plain text) of an answer on the clipboard.
    await app().browser.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const stored = page.getByTestId('message-assistant').last();
    await stored.getByTestId('message-copy').click();
    await expect
      .poll(() => stored.getByTestId('message-copy').getAttribute('data-state'))
      .toBe('copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
      'read the **document-generation** skill',
    );
    await stored.getByTestId('message-copy-text').click();
    // As text: the answer as shown, without markup and without the tool cards.
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(
        'Let me note that.\n\nDone: I saved the memory and read the document-generation skill.',
      );
  }, 60_000);

  it('Stop mid-stream leaves a canceled message, also after a reload', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(SLOW_PROMPT);
    await page.getByTestId('composer-send').click();
    const answer = page.getByTestId('message-assistant').filter({ hasText: 'Once upon a time' });
    await answer.waitFor();
    await page.getByTestId('turn-stop').click();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('canceled');
    expect(await answer.getByTestId('stop-reason').getAttribute('data-reason')).toBe('canceled');
    const streamed = (await answer.locator('.markdown').textContent()) ?? '';
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan('Once upon a time, '.repeat(400).length);
    await screenshot(page, 'chat-stopped');

    await page.reload();
    await page.getByTestId('conversation-item').filter({ hasText: SLOW_PROMPT }).click();
    const stored = page.getByTestId('message-assistant').filter({ hasText: 'Once upon a time' });
    await expect.poll(() => stored.getAttribute('data-status')).toBe('canceled');
    expect(await stored.getByTestId('stop-reason').textContent()).toBe('Stopped.');
  }, 60_000);

  it('switching the language to 简体中文 changes every string and survives a reload', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    expect(await page.getByTestId('composer-input').getAttribute('placeholder')).toContain(
      'Message Aivory',
    );
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-language').selectOption('zh-CN');
    expect(await page.getByTestId('settings-close').textContent()).toContain('关闭');
    await screenshot(page, 'settings-zh');
    await page.getByTestId('settings-close').click();
    expect(await page.getByTestId('composer-input').getAttribute('placeholder')).toContain(
      '给 Aivory 发消息',
    );
    expect(await page.getByTestId('new-chat').textContent()).toContain('新对话');

    await page.reload();
    // Titles are the first 60 characters of the first message.
    await page
      .getByTestId('conversation-item')
      .filter({ hasText: TOOLS_PROMPT.slice(0, 40) })
      .click();
    await page.getByTestId('tool-trace').first().waitFor();
    expect(await page.getByTestId('composer-send').textContent()).toBe('发送');
    expect(await page.getByTestId('tool-trace').first().locator('.tool-status').textContent()).toBe(
      '成功',
    );
    // After a reload the meter shows the stored counts (the live caps are gone).
    expect(await page.getByTestId('budget-meter').textContent()).toBe(
      'save_memory 1 · use_skill 1 · 总计 2/48',
    );
    await screenshot(page, 'chat-zh');
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-language').selectOption('en');
    expect(await page.getByTestId('settings-close').textContent()).toContain('Close');
  }, 60_000);

  it('an answer cut off mid-stream keeps its text, says it was cut off and offers Retry', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(CUT_OFF_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('error');
    await expect
      .poll(() => answer.getByTestId('stop-reason').textContent())
      .toContain("The model's answer was cut off: the model server at");
    expect(await answer.textContent()).toContain(CUT_OFF_ANSWER.slice(0, 21));
    expect(await answer.textContent()).not.toContain(CUT_OFF_ANSWER);

    // Stored as failed, with what arrived: a reload shows the same.
    await page.reload();
    const reopened = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => reopened.getByTestId('stop-reason').textContent())
      .toContain('closed the connection before it finished');
    expect(await reopened.textContent()).toContain(CUT_OFF_ANSWER.slice(0, 21));

    await reopened.getByTestId('retry-turn').click();
    await expect
      .poll(() => page.getByTestId('message-assistant').last().textContent())
      .toContain(CUT_OFF_ANSWER);
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getAttribute('data-status'))
      .toBe('complete');
    expect(await page.getByTestId('message-assistant').count()).toBe(1);
  }, 60_000);

  it('a failed turn says why, also after a reload, and Retry replaces it with a new answer; an empty reply says so', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(FLAKY_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('error');
    const reason = answer.getByTestId('stop-reason');
    // The reason in words (the UI's language may be 简体中文 here: the server's reason is not).
    await expect
      .poll(() => reason.textContent())
      .toContain('The model server rejected the API key (HTTP 401)');
    expect(await reason.getAttribute('data-reason')).toBe('error');

    // A reload reopens the conversation that was open, and it still says why.
    await page.reload();
    const reopened = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => reopened.getByTestId('stop-reason').textContent())
      .toContain('The model server rejected the API key (HTTP 401)');
    await screenshot(page, 'chat-failed-turn');

    await reopened.getByTestId('retry-turn').click();
    await expect
      .poll(() => page.getByTestId('message-assistant').last().textContent())
      .toContain(FLAKY_ANSWER);
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getAttribute('data-status'))
      .toBe('complete');
    // One question, one answer: the failed answer was replaced, the question not repeated.
    expect(await page.getByTestId('message-user').count()).toBe(1);
    expect(await page.getByTestId('message-assistant').count()).toBe(1);
    expect(await page.getByTestId('retry-turn').count()).toBe(0);
    const retried = app().llm.requests.filter((request) =>
      JSON.stringify(request.body.messages).includes(FLAKY_PROMPT),
    );
    expect(retried).toHaveLength(2);
    const lastMessages = retried[1]?.body.messages as { role: string; content: string }[];
    expect(lastMessages.filter((message) => message.content.includes(FLAKY_PROMPT))).toHaveLength(
      1,
    );
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(1);
    expect(await page.getByTestId('message-user').count()).toBe(1);

    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(EMPTY_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    await page.getByTestId('empty-reply').waitFor();
    // Retry is offered on the stored answer, once the reload after the turn brought it.
    await expect.poll(() => page.getByTestId('retry-turn').count()).toBe(1);
  }, 90_000);

  it('scrolling up while an answer streams stays put and offers a jump back to the latest', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.setViewportSize({ width: 1280, height: 500 });
    try {
      await page.getByTestId('composer-input').fill(SLOW_PROMPT);
      await page.getByTestId('composer-input').press('Enter');
      const answer = page.getByTestId('message-assistant').filter({ hasText: 'Once upon a time' });
      await answer.waitFor();
      const list = page.getByTestId('messages');
      const measure = () =>
        list.evaluate((element) => ({
          top: element.scrollTop,
          fromBottom: element.scrollHeight - element.scrollTop - element.clientHeight,
          height: element.scrollHeight,
          overflow: element.scrollHeight - element.clientHeight,
        }));
      // Following the stream: the view is at the end while it grows past the screen.
      await expect.poll(async () => (await measure()).overflow).toBeGreaterThan(150);
      // (a frame may pass between a chunk's growth and the view following it)
      await expect.poll(async () => (await measure()).fromBottom).toBeLessThanOrEqual(80);
      expect(await page.getByTestId('jump-to-latest').count()).toBe(0);

      await list.evaluate((element) => element.scrollTo({ top: 0 }));
      await page.getByTestId('jump-to-latest').waitFor();
      const heightThen = (await measure()).height;
      await expect.poll(async () => (await measure()).height).toBeGreaterThan(heightThen + 60);
      // More arrived, and the view stayed where the user put it.
      expect((await measure()).top).toBe(0);

      // The sidebar marks the conversation while its answer runs.
      expect(await page.getByTestId('conversation-running').count()).toBe(1);
      await page.getByTestId('jump-to-latest').click();
      await expect.poll(async () => (await measure()).fromBottom).toBeLessThanOrEqual(80);
      expect(await page.getByTestId('jump-to-latest').count()).toBe(0);
      await page.getByTestId('turn-stop').click();
      await expect.poll(() => answer.getAttribute('data-status')).toBe('canceled');
      await expect.poll(() => page.getByTestId('conversation-running').count()).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 90_000);

  it('deleting a question takes its answer with it, after a confirming click, and survives a reload', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    for (const text of ['First question', 'Second question']) {
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
      await expect
        .poll(() => page.getByTestId('message-assistant').last().getAttribute('data-status'))
        .toBe('complete');
      await expect
        .poll(() => page.getByTestId('message-user').last().textContent())
        .toContain(text);
    }
    await expect.poll(() => page.getByTestId('message-user').count()).toBe(2);
    const first = page.getByTestId('message-user').first();
    await first.getByTestId('message-delete').click();
    await first.getByTestId('message-delete-confirm').click();
    await expect.poll(() => page.getByTestId('message-user').count()).toBe(1);
    expect(await page.getByTestId('message-assistant').count()).toBe(1);
    expect(await page.getByTestId('message-user').first().textContent()).toContain(
      'Second question',
    );
    await page.reload();
    await expect.poll(() => page.getByTestId('message-user').count()).toBe(1);
    expect(await page.getByTestId('message-assistant').count()).toBe(1);
  }, 90_000);
});
