/**
 * e2e: the composer's "/" prompt palette and the Prompts popover (`aivory serve`, the scripted
 * model, Chromium). "/" at the start of the box or after white space lists the saved prompts
 * filtered by the word after it; ↑/↓ and Enter insert in place of the "/word"; Esc closes and
 * leaves the text; nothing opens during an IME composition; the listbox is wired to the box by
 * aria-controls / aria-activedescendant. Variables are text areas that grow (Enter breaks the
 * line, Ctrl+Enter inserts) up to a bound, then scroll. The popover's Insert stays reachable at
 * 720×480 and 390 wide. Screenshots: docs/screenshots/composer-palette-*.png.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/run-cli';
import { screenshot } from './helpers/browser';
import { chatScript } from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';
import { watchConsoleErrors } from './helpers/console-errors';
import { seriousViolations } from './helpers/axe';

const TEMPLATES = [
  { title: 'Summarise a file', body: 'Summarise {{file}} in {{language}}.' },
  { title: 'Translate to English', body: 'Translate the following into English.' },
  { title: '翻译成中文', body: '请把下面的内容翻译成中文。' },
];

function box(page: Page) {
  return page.getByTestId('composer-input');
}

async function boxValue(page: Page): Promise<string> {
  return box(page).evaluate((element) => (element as HTMLTextAreaElement).value);
}

/** The titles the palette lists, in order. */
async function optionTitles(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="prompt-palette-option"] .palette-option-title')
    .allTextContents();
}

/** The box's aria-activedescendant points at the one selected option; returns its title. */
async function activeTitle(page: Page): Promise<string> {
  const id = await box(page).getAttribute('aria-activedescendant');
  expect(id).not.toBeNull();
  const option = page.locator(`[id="${id}"]`);
  expect(await option.getAttribute('role')).toBe('option');
  expect(await option.getAttribute('aria-selected')).toBe('true');
  expect(await page.locator('[role="option"][aria-selected="true"]').count()).toBe(1);
  return (await option.locator('.palette-option-title').textContent()) ?? '';
}

/** The box emptied and focused. */
async function emptyBox(page: Page): Promise<void> {
  await box(page).fill('');
  await box(page).focus();
}

/** The whole of `element` lies inside the window. */
async function insideWindow(page: Page, testId: string): Promise<void> {
  const rect = await page.getByTestId(testId).boundingBox();
  const size = page.viewportSize();
  if (rect === null || size === null) throw new Error(`${testId} is not shown`);
  expect(rect.x).toBeGreaterThanOrEqual(0);
  expect(rect.y).toBeGreaterThanOrEqual(0);
  expect(rect.x + rect.width).toBeLessThanOrEqual(size.width + 0.5);
  expect(rect.y + rect.height).toBeLessThanOrEqual(size.height + 0.5);
}

describe('e2e: the composer’s "/" prompt palette and the Prompts popover', () => {
  const app = useAppFixture(chatScript);

  beforeAll(async () => {
    const { serve } = app();
    for (const [index, template] of TEMPLATES.entries()) {
      const body = join(serve.home, `prompt-${index}.md`);
      writeFileSync(body, template.body);
      const added = await runCli(
        ['prompts', 'add', '--title', template.title, '--file', body],
        cliEnv(serve.home),
      );
      expect(added.code).toBe(0);
    }
  }, 60_000);

  it('"/" lists the prompts, filters them, ↑/↓ and Enter insert in place of the "/word"', async () => {
    const { page } = app().browser;
    const errors = watchConsoleErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await emptyBox(page);
    await page.keyboard.type('/');
    const palette = page.getByTestId('prompt-palette');
    await palette.waitFor();
    // The library's order: the newest first.
    await expect
      .poll(() => optionTitles(page))
      .toEqual(TEMPLATES.map((entry) => entry.title).reverse());
    const listbox = page.getByRole('listbox');
    expect(await box(page).getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
    expect(await box(page).getAttribute('aria-autocomplete')).toBe('list');
    expect(await activeTitle(page)).toBe('翻译成中文');
    await page.keyboard.press('ArrowDown');
    expect(await activeTitle(page)).toBe('Translate to English');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await activeTitle(page)).toBe('Summarise a file');
    expect(await seriousViolations(page, '[data-testid="composer"]')).toEqual([]);
    await screenshot(page, 'composer-palette-1440-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    expect(await seriousViolations(page, '[data-testid="composer"]')).toEqual([]);
    await screenshot(page, 'composer-palette-1440-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Typing filters; Enter inserts the body where "/tr" was, the text around it kept.
    await box(page).fill('Please help. ');
    await box(page).press('End');
    await page.keyboard.type('/tr');
    await expect.poll(() => optionTitles(page)).toEqual(['Translate to English']);
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    expect(await boxValue(page)).toBe('Please help. Translate the following into English.');
    expect(await box(page).getAttribute('aria-activedescendant')).toBeNull();
    // Nothing was sent: Enter went to the palette.
    expect(await page.getByTestId('message-user').count()).toBe(0);

    // "/" inside a word is text, not the palette; a word nothing matches says so.
    await emptyBox(page);
    await page.keyboard.type('and/or');
    expect(await palette.count()).toBe(0);
    await page.keyboard.type(' /zzz');
    await palette.waitFor();
    expect(await palette.textContent()).toContain('No prompt matches.');
    expect(await optionTitles(page)).toEqual([]);
    expect(errors.take()).toEqual([]);
  }, 60_000);

  it('Esc closes the palette and leaves "/" typed; a click inserts', async () => {
    const { page } = app().browser;
    await emptyBox(page);
    await page.keyboard.type('/tr');
    const palette = page.getByTestId('prompt-palette');
    await palette.waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    expect(await boxValue(page)).toBe('/tr');
    // Typing on in that word keeps it shut; a new "/" opens it again.
    await page.keyboard.type('a');
    expect(await palette.count()).toBe(0);
    await page.keyboard.type(' /');
    await palette.waitFor();
    await page.getByTestId('prompt-palette-option').filter({ hasText: '翻译成中文' }).click();
    await palette.waitFor({ state: 'detached' });
    expect(await boxValue(page)).toBe('/tra 请把下面的内容翻译成中文。');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');

    // A click elsewhere puts the list away; back in the box, it is there again.
    await page.keyboard.type(' /');
    await palette.waitFor();
    await page.getByTestId('messages').click();
    await palette.waitFor({ state: 'detached' });
    await box(page).focus();
    await palette.waitFor();
    await page.keyboard.press('Escape');
  }, 60_000);

  it('does not open during an IME composition; the committed text filters', async () => {
    const { page, context } = app().browser;
    await emptyBox(page);
    const cdp = await context.newCDPSession(page);
    // A composition whose text starts with "/": still being composed, so nothing opens.
    await cdp.send('Input.imeSetComposition', { text: '/fan', selectionStart: 4, selectionEnd: 4 });
    await expect.poll(() => boxValue(page)).toBe('/fan');
    const palette = page.getByTestId('prompt-palette');
    expect(await palette.count()).toBe(0);
    // The composition changes: still nothing.
    await cdp.send('Input.imeSetComposition', { text: '/翻', selectionStart: 2, selectionEnd: 2 });
    expect(await palette.count()).toBe(0);
    await cdp.send('Input.insertText', { text: '/翻译' });
    await palette.waitFor();
    await expect.poll(() => optionTitles(page)).toEqual(['翻译成中文']);
    await page.keyboard.press('Enter');
    await expect.poll(() => boxValue(page)).toBe('请把下面的内容翻译成中文。');
    await cdp.detach();
  }, 60_000);

  it('variables are growing text areas: Enter breaks the line, Ctrl+Enter inserts', async () => {
    const { page } = app().browser;
    await emptyBox(page);
    await page.keyboard.type('/sum');
    await page.getByTestId('prompt-palette').waitFor();
    await page.keyboard.press('Enter');
    const form = page.getByTestId('prompt-palette-form');
    await form.waitFor();
    const file = form.locator('[data-testid="prompt-variable"][data-name="file"]');
    await expect
      .poll(() => file.evaluate((element) => element === document.activeElement))
      .toBe(true);
    const oneLine = await file.evaluate((element) => element.clientHeight);
    await page.keyboard.type('line one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('line two');
    expect(await file.inputValue()).toBe('line one\nline two');
    await expect
      .poll(() => file.evaluate((element) => element.clientHeight))
      .toBeGreaterThan(oneLine);
    // Long values stop growing and scroll.
    await file.fill(Array.from({ length: 30 }, (_, index) => `row ${index}`).join('\n'));
    const sizes = await file.evaluate((element) => ({
      client: element.clientHeight,
      scroll: element.scrollHeight,
    }));
    expect(sizes.client).toBeLessThan(200);
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    await file.fill('notes.md');
    await form.locator('[data-testid="prompt-variable"][data-name="language"]').fill('Norwegian');
    await page.keyboard.press('Control+Enter');
    await form.waitFor({ state: 'detached' });
    expect(await boxValue(page)).toBe('Summarise notes.md in Norwegian.');
  }, 60_000);

  it('the Prompts popover keeps Insert reachable at 720×480 and 390 wide', async () => {
    const { page } = app().browser;
    const errors = watchConsoleErrors(page);
    const long = Array.from({ length: 40 }, (_, index) => `paragraph ${index}`).join('\n');
    for (const size of [
      { width: 720, height: 480, name: '720x480' },
      { width: 390, height: 844, name: '390' },
      { width: 390, height: 600, name: '390-short' },
    ]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await emptyBox(page);
      await page.getByTestId('prompt-picker-open').click();
      await page.getByTestId('prompt-item').filter({ hasText: 'Summarise a file' }).click();
      const file = page.locator('[data-testid="prompt-variable"][data-name="file"]');
      await file.fill(long);
      await page.locator('[data-testid="prompt-variable"][data-name="language"]').fill('Danish');
      await insideWindow(page, 'prompt-form-footer');
      await insideWindow(page, 'prompt-insert');
      const dialog = page.getByRole('dialog', { name: 'Prompts' });
      const panel = await dialog.boundingBox();
      const insert = await page.getByTestId('prompt-insert').boundingBox();
      if (panel === null || insert === null) throw new Error('no popover');
      expect(insert.y + insert.height).toBeLessThanOrEqual(panel.y + panel.height + 0.5);
      expect(panel.x).toBeGreaterThanOrEqual(0);
      expect(panel.x + panel.width).toBeLessThanOrEqual(size.width + 0.5);
      if (size.name !== '390') await screenshot(page, `composer-palette-prompts-${size.name}`);
      // A real click (Playwright checks nothing covers the button).
      await page.getByTestId('prompt-insert').click();
      await dialog.waitFor({ state: 'detached' });
      expect(await boxValue(page)).toBe(`Summarise ${long} in Danish.`);
    }
    // The palette fits a phone too.
    await emptyBox(page);
    await page.keyboard.type('/');
    await page.getByTestId('prompt-palette').waitFor();
    await insideWindow(page, 'prompt-palette');
    await screenshot(page, 'composer-palette-390');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(errors.take()).toEqual([]);
  }, 90_000);
});
