/**
 * e2e: the dark theme and the keyboard shortcuts in the browser host (`aivory serve` + the
 * scripted model, Chromium emulating `prefers-color-scheme`). Each main screen — first-run setup,
 * a finished turn with a tool trace card, code, math and a diagram, settings — is drawn in both
 * themes (screenshots `*-dark.png` beside the light ones in docs/screenshots/), their backgrounds
 * differ and body text reads at ≥ 4.5:1 in both. `ui.theme` overrides the system and survives a
 * reload. Then every shortcut, the `?` help sheet (focus trapped, Esc and backdrop close it),
 * settings taking focus and closing on Esc or a backdrop click, Esc stopping a turn only when no
 * dialog or popover is open, and long titles ending in "…".
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio } from '../support/contrast';
import type { ScriptedResponse } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import { turnState } from './helpers/chat-script';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';
import { useAppFixture } from './helpers/app-fixture';

const CODE_PROMPT = 'Remember that I write Python, then show me a function';
const SLOW_PROMPT = 'Tell me a very long story';
const LONG_PROMPT =
  'Please summarise this extremely long question about the history of tea in Yunnan and Fujian provinces';
const SAVE_MEMORY =
  '<tool_call>{"name":"save_memory","arguments":{"memory_text":"The user writes Python"}}</tool_call>';
const CODE_ANSWER = [
  'Noted. Here is the **area** of a circle, $A = \\pi r^2$:',
  '',
  '```python',
  'import math',
  '',
  'def area(r: float) -> float:',
  '    # the circle',
  '    return math.pi * r ** 2  # 3.14…',
  '```',
  '',
  '```mermaid',
  'graph LR',
  '  A[Ask] --> B[Answer]',
  '```',
].join('\n');

function script(request: Parameters<typeof turnState>[0]): ScriptedResponse {
  const { text, toolResults } = turnState(request);
  if (text.includes(CODE_PROMPT)) {
    if (toolResults === 0) return { content: `Let me note that.${SAVE_MEMORY}`, delayMs: 20 };
    return { content: CODE_ANSWER, chunkSize: 40, delayMs: 10 };
  }
  if (text.includes(SLOW_PROMPT)) {
    return { content: 'Once upon a time, '.repeat(600), chunkSize: 6, delayMs: 40 };
  }
  return { content: 'Hello from the scripted model.' };
}

/** Colours of an element as drawn: its text colour and the first opaque background behind it. */
async function colours(page: Page, selector: string): Promise<{ text: string; back: string }> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      let node: Element | null = element;
      let back = 'rgb(255, 255, 255)';
      while (node) {
        const colour = getComputedStyle(node).backgroundColor;
        const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(colour)?.[1];
        if (colour !== 'transparent' && (alpha === undefined || Number(alpha) === 1)) {
          back = colour;
          break;
        }
        node = node.parentElement;
      }
      return { text: getComputedStyle(element).color, back };
    });
}

/** Every selector's text reads at ≥ 4.5:1 on what is behind it. */
async function expectLegible(page: Page, selectors: readonly string[]): Promise<void> {
  for (const selector of selectors) {
    const { text, back } = await colours(page, selector);
    expect(contrastRatio(text, back), `${selector}: ${text} on ${back}`).toBeGreaterThanOrEqual(
      4.5,
    );
  }
}

async function theme(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.documentElement.dataset.theme);
}

/** The page's background (the root's, which the canvas and body show). */
async function pageBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

/** Where focus is: the test id of the focused element or of its nearest marked ancestor. */
async function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.activeElement?.closest('[data-testid]')?.getAttribute('data-testid') ?? null,
  );
}

async function focusInside(page: Page, testId: string): Promise<boolean> {
  return page.evaluate(
    (id) =>
      document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement) ?? false,
    testId,
  );
}

const CHAT_TEXT = [
  '[data-testid="message-assistant"] .markdown p',
  '[data-testid="message-user"] .message-body',
  '.tool-trace .tool-name',
  '.tool-trace .tool-status',
  '.code-block code',
  '.code-block .hljs-keyword',
  '.code-block .hljs-comment',
  '.code-block .hljs-number',
  '.code-block-bar',
  '.conversation-item',
  '.brand',
  '.budget-meter',
  '.katex',
];

describe('e2e: dark theme and keyboard shortcuts in the browser host', () => {
  const app = useAppFixture(script);

  it('chat and settings in light and dark: system follows live, ui.theme overrides and persists', async () => {
    const { page } = app().browser;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill(CODE_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('complete');
    await answer.locator('.code-block .hljs-keyword').first().waitFor();
    await answer.locator('.katex').first().waitFor();
    const diagram = answer.getByTestId('mermaid-diagram');
    await diagram.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => diagram.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(await page.getByTestId('tool-trace').count()).toBe(1);

    expect(await theme(page)).toBe('light');
    const lightBody = await pageBackground(page);
    const lightMessage = await colours(page, '[data-testid="message-assistant"] .markdown p');
    await expectLegible(page, CHAT_TEXT);
    await screenshot(page, 'chat-code-trace');

    // "Follow the system" (the default) follows it live, without a reload.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => theme(page)).toBe('dark');
    expect(await pageBackground(page)).not.toBe(lightBody);
    const darkMessage = await colours(page, '[data-testid="message-assistant"] .markdown p');
    expect(darkMessage.text).not.toBe(lightMessage.text);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
      'dark',
    );
    await expectLegible(page, CHAT_TEXT);
    // Diagrams are redrawn with mermaid's dark theme, with no white backing.
    await expect.poll(() => diagram.getAttribute('data-theme'), { timeout: 20_000 }).toBe('dark');
    await expect
      .poll(() => diagram.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(await diagram.evaluate((image) => getComputedStyle(image).backgroundColor)).not.toBe(
      'rgb(255, 255, 255)',
    );
    await screenshot(page, 'chat-code-trace-dark');

    await page.getByTestId('settings-open').click();
    const select = page.getByTestId('settings-theme');
    expect(await select.inputValue()).toBe('system');
    const settingsText = [
      '.settings-page-title',
      '.settings-nav-item:not(.active)',
      '.settings-nav-item.active',
      '.settings-block h3',
      '[data-testid="settings-theme"]',
      '.settings-block .muted',
    ];
    await expectLegible(page, settingsText);
    await screenshot(page, 'settings-general-dark');

    // The setting wins over the system, and survives a reload (first paint included).
    await select.selectOption('light');
    await expect.poll(() => theme(page)).toBe('light');
    await expectLegible(page, settingsText);
    await screenshot(page, 'settings-general');
    await page.emulateMedia({ colorScheme: 'light' });
    await select.selectOption('dark');
    await expect.poll(() => theme(page)).toBe('dark');
    await page.reload();
    expect(await theme(page)).toBe('dark');
    await page.getByTestId('conversation-item').first().waitFor();
    expect(await theme(page)).toBe('dark');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByTestId('conversation-item').first().waitFor();
    await expect.poll(() => theme(page)).toBe('dark');

    await page.getByTestId('settings-open').click();
    expect(await page.getByTestId('settings-theme').inputValue()).toBe('dark');
    await page.getByTestId('settings-theme').selectOption('system');
    await expect.poll(() => theme(page)).toBe('light');
    await page.getByTestId('settings-close').click();
  }, 90_000);

  it('shortcuts: new chat, search, composer, previous/next, the help sheet, Esc', async () => {
    const { page } = app().browser;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(app().serve.url);
    // Two more conversations, one with a title too long for the sidebar.
    for (const text of ['Hello there', LONG_PROMPT]) {
      await page.getByTestId('new-chat').click();
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
      await page
        .getByTestId('message-assistant')
        .filter({ hasText: 'Hello from the scripted model.' })
        .waitFor();
      await page
        .getByTestId('conversation-item')
        .filter({ hasText: text.slice(0, 30) })
        .waitFor();
    }
    const items = page.getByTestId('conversation-item');
    expect(await items.count()).toBe(3);

    // The long title ends in "…" (clipped by CSS) and shows whole as the tooltip.
    const long = items.first();
    const title = (await long.getAttribute('title')) ?? '';
    expect(LONG_PROMPT.startsWith(title.replace(/…$/, ''))).toBe(true);
    const clipped = await long.locator('.conversation-title').evaluate((span) => ({
      overflow: getComputedStyle(span).textOverflow,
      cut: span.scrollWidth > span.clientWidth,
    }));
    expect(clipped).toEqual({ overflow: 'ellipsis', cut: true });

    // Ctrl+N: a new chat, the composer focused.
    expect(await long.getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Control+n');
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');
    expect(
      await items.evaluateAll((all) =>
        all.some((item) => item.getAttribute('aria-current') === 'page'),
      ),
    ).toBe(false);
    expect(await page.getByTestId('message-user').count()).toBe(0);

    // Ctrl+K: the sidebar search; Ctrl+L: back to the composer.
    await page.keyboard.press('Control+k');
    await expect.poll(() => focusedTestId(page)).toBe('conversation-search');
    await page.keyboard.press('Control+l');
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');

    // Ctrl+↓ from a new chat opens the newest, then the next; Ctrl+↑ goes back.
    const activeIndex = (): Promise<number> =>
      items.evaluateAll((all) =>
        all.findIndex((item) => item.getAttribute('aria-current') === 'page'),
      );
    await page.keyboard.press('Control+ArrowDown');
    await expect.poll(activeIndex).toBe(0);
    await page.keyboard.press('Control+ArrowDown');
    await expect.poll(activeIndex).toBe(1);
    await page.getByTestId('message-user').filter({ hasText: 'Hello there' }).waitFor();
    await page.keyboard.press('Control+ArrowDown');
    await expect.poll(activeIndex).toBe(2);
    await page.keyboard.press('Control+ArrowDown');
    await page.keyboard.press('Control+ArrowUp');
    await expect.poll(activeIndex).toBe(1);

    // ? in a text field is a question mark; elsewhere it opens the help sheet.
    await page.getByTestId('composer-input').focus();
    await page.keyboard.press('?');
    expect(await page.getByTestId('composer-input').inputValue()).toBe('?');
    expect(await page.getByTestId('shortcut-help').count()).toBe(0);
    await page.getByTestId('composer-input').fill('');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('?');
    const sheet = page.getByTestId('shortcut-help');
    await sheet.waitFor();
    expect(await sheet.getAttribute('role')).toBe('dialog');
    expect(await focusInside(page, 'shortcut-help')).toBe(true);
    expect(await sheet.getByTestId('shortcut-row-search').textContent()).toContain('CtrlK');
    // Shortcuts are off while it is open; Tab stays inside.
    await page.keyboard.press('Control+ArrowDown');
    for (let index = 0; index < 4; index += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInside(page, 'shortcut-help')).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside(page, 'shortcut-help')).toBe(true);
    await screenshot(page, 'shortcuts-help');
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.count()).toBe(0);
    expect(await activeIndex()).toBe(1);
    // A click on the backdrop closes it too; a click inside does not.
    await page.keyboard.press('?');
    await sheet.waitFor();
    await sheet.locator('h1').click();
    expect(await sheet.count()).toBe(1);
    await page.mouse.click(10, 10);
    await expect.poll(() => sheet.count()).toBe(0);
  }, 90_000);

  it('settings take focus and close on Esc or a backdrop click; Esc stops a turn only then', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    const opener = page.getByTestId('settings-open');
    await opener.click();
    await expect.poll(() => focusInside(page, 'settings-panel')).toBe(true);
    expect(await focusedTestId(page)).toBe('settings-nav-general');
    for (let index = 0; index < 12; index += 1) await page.keyboard.press('Tab');
    expect(await focusInside(page, 'settings-panel')).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('settings-panel').count()).toBe(0);
    expect(await focusedTestId(page)).toBe('settings-open');
    await opener.click();
    await page.getByTestId('settings-panel').waitFor();
    await page.mouse.click(40, 400);
    await expect.poll(() => page.getByTestId('settings-panel').count()).toBe(0);

    // A running turn: Esc with settings open closes settings and nothing else; then it stops.
    await page.keyboard.press('Control+n');
    await page.getByTestId('composer-input').fill(SLOW_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').filter({ hasText: 'Once upon a time' });
    await answer.waitFor();
    await opener.click();
    await page.getByTestId('settings-panel').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('settings-panel').count()).toBe(0);
    expect(await page.getByTestId('turn-stop').count()).toBe(1);
    // Nor does Esc closing a composer popover stop it.
    await page.getByTestId('tool-toggles-open').click();
    await page.locator('.popover').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.popover').count()).toBe(0);
    expect(await page.getByTestId('turn-stop').count()).toBe(1);
    expect(await answer.getAttribute('data-status')).not.toBe('canceled');
    await page.keyboard.press('Escape');
    await expect.poll(() => answer.getAttribute('data-status')).toBe('canceled');
    expect(await page.getByTestId('turn-stop').count()).toBe(0);
  }, 90_000);
});

describe('e2e: the first-run setup screen in both themes', () => {
  let serve: ServeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    serve = await startServe();
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('is legible light and dark', async () => {
    const { page } = browser;
    const text = ['.setup-card h1', '.setup-card p', '.model-form label', '.model-form input'];
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(serve.url);
    await page.getByTestId('setup-screen').waitFor();
    expect(await theme(page)).toBe('light');
    const light = await pageBackground(page);
    await expectLegible(page, text);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => theme(page)).toBe('dark');
    expect(await pageBackground(page)).not.toBe(light);
    await expectLegible(page, text);
    await screenshot(page, 'first-run-setup-dark');
  }, 60_000);
});
