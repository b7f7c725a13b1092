/**
 * The sidebar as a person uses it: renaming in place (the row's menu, a double click, the chat
 * header), deleting after the app's own confirmation (Electron has no window.confirm or
 * window.prompt, so no browser dialog may appear), and search hits that stay inside the sidebar,
 * read as text (no Markdown markers), highlight the match and open the conversation at the hit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import { seriousViolations } from './helpers/axe';
import { downloadedBytes, screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';

const MATH_PROMPT = "Explain how throughput follows «Little»'s law in **queues**";
const MATH_ANSWER =
  "# Little's law\n\nThroughput follows **Little's law**: $L = \\lambda W$ for stable queues.\n\n| term | meaning |\n|:--|--:|\n| L | items in the system |";
const OTHER_PROMPT = 'Suggest a name for a cat';

function script(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body.messages ?? []) as { role: string; content: string }[];
  const last = messages.at(-1)?.content ?? '';
  return { content: last.includes('throughput') ? MATH_ANSWER : 'Call it Pixel.' };
}

async function ask(page: Page, text: string): Promise<void> {
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
  await expect
    .poll(() => page.getByTestId('message-assistant').last().getAttribute('data-status'), {
      timeout: 15_000,
    })
    .toBe('complete');
}

/**
 * The composer's toolbar at the window's size: every tool and Send inside the composer, Send at
 * the right end of the message box; `one row`: the tools and Send on one line, the empty box at
 * most two lines high. Polled: right after the window is resized the layout may not have
 * settled yet (a loaded machine drew one frame late once).
 */
async function composerFits(page: Page, rows: 'one row' | 'wraps'): Promise<void> {
  await expect.poll(() => composerProblems(page, rows)).toEqual([]);
}

/** What is wrong with the composer's toolbar at this size (see `composerFits`), if anything. */
async function composerProblems(page: Page, rows: 'one row' | 'wraps'): Promise<string[]> {
  const composer = await page.getByTestId('composer').boundingBox();
  const input = await page.getByTestId('composer-input').boundingBox();
  const send = await page.getByTestId('composer-send').boundingBox();
  if (!composer || !input || !send) return ['the composer is not drawn'];
  const tools = await page
    .locator('.composer-tools > :is(.button, .popover-anchor, .mode-picker)')
    .evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      }),
    );
  const problems: string[] = [];
  if (tools.length !== 6) problems.push(`${tools.length} tools, not 6`);
  const inside = (box: { left: number; right: number }): boolean =>
    box.left >= composer.x - 1 && box.right <= composer.x + composer.width + 1;
  if (!tools.every(inside)) problems.push('a tool outside the composer');
  if (!inside({ left: send.x, right: send.x + send.width })) problems.push('Send outside');
  if (Math.abs(send.x + send.width - (input.x + input.width)) > 1) {
    problems.push('Send not at the right end of the box');
  }
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scrollWidth > (page.viewportSize()?.width ?? 0)) problems.push('the page scrolls sideways');
  if (rows === 'one row') {
    const middle = send.y + send.height / 2;
    if (tools.some((box) => Math.abs((box.top + box.bottom) / 2 - middle) >= 4)) {
      problems.push('the tools and Send are not on one row');
    }
    if (input.height > 72) problems.push(`the empty box is ${input.height} px high`);
  }
  return problems;
}

async function titles(page: Page): Promise<string[]> {
  return page.getByTestId('conversation-item').allTextContents();
}

describe('e2e: the conversations sidebar', () => {
  // The title the model gives a conversation after its first answer (conversation-titles.ts);
  // the cat's is held until the test has seen the answer, so only the host's event can bring it.
  let releaseTitle: () => void = () => undefined;
  const titleHeld = new Promise<void>((resolve) => {
    releaseTitle = resolve;
  });
  const app = useAppFixture(script, {
    llm: {
      titles: (request) =>
        JSON.stringify(request.body.messages ?? []).includes('cat')
          ? { content: '"Naming a **cat**"', pauseAfterChunks: { count: 1, until: titleHeld } }
          : { content: "Little's law" },
    },
  });
  const browserDialogs: string[] = [];

  it('a new chat greets with starter prompts that go into the composer', async () => {
    const { page } = app().browser;
    const started = page.viewportSize();
    // The next tests start at the fixture's size, also when this one fails midway.
    onTestFinished(async () => {
      if (started) await page.setViewportSize(started);
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    const empty = page.getByTestId('empty-chat');
    await empty.waitFor();
    expect(await empty.getByRole('heading').textContent()).toBe('What can I help with?');
    const starters = page.getByTestId('starter-prompt');
    await expect.poll(() => starters.count()).toBe(4);

    // The header says what this is: a new chat, and the model as the picker names it; the
    // conversation's actions in their places, disabled until the first message makes one.
    const header = page.getByTestId('new-chat-header');
    expect(await header.getByTestId('chat-title').textContent()).toBe('New chat');
    const picked = await page.locator('.model-picker-current').textContent();
    expect(picked).toBe('Default: scripted-model');
    await expect
      .poll(() => header.getByTestId('chat-header-model').textContent())
      .toBe(`Model: ${picked}`);
    const actions = header.locator('.chat-header-actions button');
    expect(await actions.count()).toBe(3);
    for (const action of await actions.all()) expect(await action.isDisabled()).toBe(true);
    await composerFits(page, 'one row');
    await screenshot(page, 'chat-empty-state');
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
        .toBe(scheme);
      expect(await seriousViolations(page), scheme).toEqual([]);
    }
    // The box grows with what is typed, a line at a time, and shrinks back.
    const input = page.getByTestId('composer-input');
    const emptyHeight = (await input.boundingBox())?.height ?? 0;
    await input.fill('one\ntwo\nthree\nfour\nfive');
    expect((await input.boundingBox())?.height ?? 0).toBeGreaterThan(emptyHeight + 2 * 20);
    await input.fill('');
    expect((await input.boundingBox())?.height ?? 0).toBe(emptyHeight);

    // The desktop minimum and a phone: the toolbar still fits, Send inside the composer.
    await page.setViewportSize({ width: 720, height: 480 });
    await composerFits(page, 'one row');
    await page.setViewportSize({ width: 390, height: 844 });
    await composerFits(page, 'wraps');
    await page.setViewportSize({ width: 1440, height: 900 });

    // In Chinese too.
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-language').selectOption('zh-CN');
    await page.getByTestId('settings-close').click();
    expect(await header.getByTestId('chat-title').textContent()).toBe('新对话');
    expect(await header.getByTestId('chat-header-model').textContent()).toBe(
      '模型：默认：scripted-model',
    );
    await composerFits(page, 'one row');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-language').selectOption('en');
    await page.getByTestId('settings-close').click();
    if (started) await page.setViewportSize(started);
    await starters.nth(1).click();
    const box = page.getByTestId('composer-input');
    expect(await box.inputValue()).toMatch(/^Search the web for /);
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await box.fill('');
  }, 60_000);

  it('renames in place and deletes after the app asks, with no browser dialog', async () => {
    const { page } = app().browser;
    page.on('dialog', (dialog) => {
      browserDialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await page.goto(app().serve.url);
    await ask(page, OTHER_PROMPT);
    // After the first answer the model names the conversation (its quotes and Markdown dropped);
    // the sidebar shows it when it comes, without a reload.
    await expect.poll(() => titles(page)).toContain(OTHER_PROMPT);
    await expect.poll(() => app().llm.titleRequests.length).toBe(1);
    releaseTitle();
    await expect.poll(() => titles(page)).toContain('Naming a cat');
    expect(app().llm.titleRequests.length).toBe(1);
    await ask(page, MATH_PROMPT);

    // The row's menu → Rename: the title becomes a field in the row; Enter saves.
    const row = page.getByTestId('conversation-row').first();
    await row.hover();
    await row.getByTestId('conversation-row-menu').click();
    await page.getByTestId('conversation-row-rename').click();
    const field = page.getByTestId('conversation-title-input');
    await field.waitFor();
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    await field.fill('Queueing notes');
    await field.press('Enter');
    await expect.poll(() => titles(page)).toContain('Queueing notes');
    expect(await page.getByTestId('chat-title').textContent()).toBe('Queueing notes');

    // Esc cancels; an empty title saves nothing.
    await page.getByTestId('conversation-item').first().dblclick();
    await field.fill('Not this');
    await field.press('Escape');
    await field.waitFor({ state: 'detached' });
    await page.getByTestId('conversation-item').first().dblclick();
    await field.fill('   ');
    await field.press('Enter');
    await field.waitFor({ state: 'detached' });
    expect(await titles(page)).toContain('Queueing notes');

    // The chat header's Rename edits the title where it is shown.
    await page.getByTestId('conversation-menu').click();
    await page.getByTestId('conversation-rename').click();
    const headerField = page.getByTestId('chat-title-input');
    await headerField.fill("Little's law");
    await headerField.press('Enter');
    await expect.poll(() => page.getByTestId('chat-title').textContent()).toBe("Little's law");
    await expect.poll(() => titles(page)).toContain("Little's law");

    // Export downloads a file the server wrote (not text sent over the socket), in both formats.
    for (const format of ['md', 'json'] as const) {
      await page.getByTestId('conversation-menu').click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId(`conversation-export-${format}`).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`Little-s-law.${format}`);
      const text = (await downloadedBytes(download)).toString('utf8');
      if (format === 'md') expect(text).toMatch(/^# Little's law\n/);
      else expect(JSON.parse(text)).toMatchObject({ conversation: { title: "Little's law" } });
      expect(text).toContain(MATH_PROMPT);
    }

    // Delete asks in the app's own dialog: Cancel keeps the conversation.
    const before = (await titles(page)).length;
    await page.getByTestId('conversation-menu').click();
    await page.getByTestId('conversation-delete').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain("Little's law");
    await screenshot(page, 'conversation-delete-confirm');
    // Cancel has the focus first (a destructive action): Enter right away deletes nothing.
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect((await titles(page)).length).toBe(before);
    // Esc also cancels; the Delete button deletes.
    await page.getByTestId('conversation-menu').click();
    await page.getByTestId('conversation-delete').click();
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect((await titles(page)).length).toBe(before);
    await page.getByTestId('conversation-menu').click();
    await page.getByTestId('conversation-delete').click();
    await page.getByTestId('confirm-accept').click();
    await expect.poll(async () => (await titles(page)).length).toBe(before - 1);
    expect(await titles(page)).not.toContain("Little's law");
    expect(browserDialogs).toEqual([]);
  }, 90_000);

  it('a search hit stays in the sidebar, reads as text with the match marked, and opens at it', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(app().serve.url);
    await ask(page, MATH_PROMPT);
    await page.getByTestId('conversation-search').fill('stable queues');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor();
    const snippet = hit.getByTestId('search-hit-snippet');
    const text = (await snippet.textContent()) ?? '';
    expect(text).toContain('stable');
    expect(text).not.toMatch(/\*\*|\$|\||:--|^#/);
    expect(await snippet.locator('mark').allTextContents()).toEqual(
      expect.arrayContaining(['stable', 'queues']),
    );
    // Inside the sidebar's box, no sideways scrolling, at most two lines of text.
    const layout = await hit.evaluate((element) => {
      const sidebar = element.closest('.sidebar')?.getBoundingClientRect();
      const list = element.closest('.conversation-list');
      const box = element.getBoundingClientRect();
      const snippetElement = element.querySelector('.hit-snippet');
      const lineHeight = snippetElement
        ? Number.parseFloat(getComputedStyle(snippetElement).lineHeight)
        : 0;
      return {
        inside:
          sidebar !== undefined &&
          box.left >= sidebar.left - 0.5 &&
          box.right <= sidebar.right + 0.5 &&
          box.width > 0,
        sideways: list === null ? true : list.scrollWidth > list.clientWidth,
        lines: snippetElement ? snippetElement.getBoundingClientRect().height / lineHeight : 99,
      };
    });
    expect(layout).toEqual({ inside: true, sideways: false, lines: expect.any(Number) as number });
    expect(layout.lines).toBeLessThanOrEqual(2.2);
    await screenshot(page, 'sidebar-search-hit');
    await hit.click();
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.textContent()).toContain('stable queues');
    // The hit's message is on screen.
    await expect
      .poll(() =>
        answer.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const list = element.closest('[data-testid="messages"]')?.getBoundingClientRect();
          return list !== undefined && box.bottom > list.top && box.top < list.bottom;
        }),
      )
      .toBe(true);
    expect(browserDialogs).toEqual([]);
  }, 60_000);
});
