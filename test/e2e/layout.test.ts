/**
 * e2e: the app shell at the sizes people use (`aivory serve` + the scripted model + the real
 * @modelcontextprotocol/server-everything, Chromium): 1440×900 in both themes, the desktop
 * window's minimum 720×480, and a 390-wide phone. The sidebar collapses and comes back by the
 * button and by Ctrl+B; at 900 px and below it is a drawer over the chat. At 720×480 the messages
 * keep most of the height; at 390 wide nothing scrolls sideways on the chat or settings screens.
 * "Jump to latest" stays under the settings dialog. No console error — a CSP "inline style"
 * refusal is one — across the chat (code, math, a diagram), every settings page and an MCP
 * service added, synced and called. Screenshots: docs/screenshots/layout-*.png.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import { turnState } from './helpers/chat-script';
import type { ConsoleErrors } from './helpers/console-errors';
import { watchConsoleErrors } from './helpers/console-errors';
import { ECHO_PROMPT, mcpScript } from './helpers/mcp-script';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';

const CODE_PROMPT = 'Remember that I write Python, then show me a function with its area';
const LONG_PROMPT = 'Give me many paragraphs about tea';
const SAVE_MEMORY =
  '<tool_call>{"name":"save_memory","arguments":{"memory_text":"The user writes Python"}}</tool_call>';
const CODE_ANSWER = [
  'Noted. Here is the **area** of a circle, $A = \\pi r^2$, with a [reference](https://example.com/circle):',
  '',
  '```python',
  'import math',
  '',
  'def area(r: float) -> float:',
  '    return math.pi * r ** 2',
  '```',
  '',
  '| r | area |',
  '| -: | :--- |',
  '| 1 | 3.14 |',
  '',
  '```mermaid',
  'graph LR',
  '  A[Ask] --> B[Answer]',
  '```',
].join('\n');
const LONG_ANSWER = Array.from(
  { length: 60 },
  (_, index) => `Paragraph ${index + 1}: green tea, oolong and pu-erh each have their season.`,
).join('\n\n');

function script(request: RecordedRequest): ScriptedResponse {
  const { text, toolResults } = turnState(request);
  if (text.includes(CODE_PROMPT)) {
    if (toolResults === 0) return { content: `Let me note that.${SAVE_MEMORY}` };
    return { content: CODE_ANSWER, chunkSize: 60 };
  }
  if (text.includes(LONG_PROMPT)) return { content: LONG_ANSWER, chunkSize: 400 };
  return mcpScript(request);
}

const SETTINGS_PAGES = ['general', 'models', 'tools', 'mcp', 'skills', 'prompts', 'memory'];

async function sidebarState(page: Page): Promise<string | null> {
  return page.getByTestId('layout').getAttribute('data-sidebar');
}

/** The sidebar's drawn width (0 once collapsed; the column animates). */
async function sidebarWidth(page: Page): Promise<number> {
  return page.locator('#app-sidebar').evaluate((element) => {
    const box = element.getBoundingClientRect();
    // A drawer slid out of the window counts as not shown.
    return box.right <= 0 ? 0 : Math.round(box.width);
  });
}

/** Whether `selector`'s elements (or the page) are wider than their box. */
async function overflowing(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((query) => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
      // Name the widest elements past the window's right edge (what to fix).
      const past = [...document.body.querySelectorAll('*')]
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
        .slice(0, 5)
        .map((element) => `${element.tagName}.${String(element.className)}`);
      found.push(`page ${root.scrollWidth}: ${past.join(', ')}`);
    }
    for (const element of document.querySelectorAll(query)) {
      if (element.scrollWidth > element.clientWidth + 1)
        found.push(`${element.className} ${element.scrollWidth} > ${element.clientWidth}`);
    }
    return found;
  }, selector);
}

async function sendAndWait(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('composer-input').fill(prompt);
  await page.getByTestId('composer-input').press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await page.getByTestId('message-user').filter({ hasText: prompt }).waitFor();
  await expect.poll(() => answer.getAttribute('data-status'), { timeout: 30_000 }).toBe('complete');
}

describe('e2e: the app shell at desktop, minimum and phone sizes', () => {
  let llm: ScriptedLlmServer;
  let everything: EverythingServer;
  let serve: ServeProcess;
  let browser: TestBrowser;
  let errors: ConsoleErrors;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(script);
    everything = await startEverythingServer('streamableHttp');
    serve = await startServe({
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'prompt',
    });
    browser = await openBrowser();
    errors = watchConsoleErrors(browser.page);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await everything?.stop();
    await llm?.close();
  });

  it('1440×900: a finished answer in both themes, the question on the right, the sidebar collapsing by button and Ctrl+B', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(serve.url);
    await sendAndWait(page, CODE_PROMPT);
    const answer = page.getByTestId('message-assistant').last();
    await answer.locator('.code-block .hljs-keyword').first().waitFor();
    await answer.locator('.katex').first().waitFor();
    // The diagram is drawn (its SVG is a valid image), with no CSP report on the way.
    const diagram = answer.getByTestId('mermaid-diagram');
    await expect
      .poll(() =>
        diagram.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      )
      .toBeGreaterThan(0);

    // The question is a bubble at the column's right, not a full-width band.
    const question = page.getByTestId('message-user').last();
    const column = await question.boundingBox();
    const bubble = await question.locator('.message-body').boundingBox();
    if (!column || !bubble) throw new Error('the question is not drawn');
    expect(Math.abs(column.x + column.width - (bubble.x + bubble.width))).toBeLessThan(2);
    expect(bubble.width).toBeLessThan(column.width * 0.8);
    // The brand mark heads the sidebar.
    const mark = await page
      .locator('.brand')
      .evaluate((element) => getComputedStyle(element, '::before').backgroundImage);
    expect(mark).toContain('svg');
    await screenshot(page, 'layout-1440-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    await expect.poll(() => diagram.getAttribute('data-theme')).toBe('dark');
    await screenshot(page, 'layout-1440-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Headings have a scale: the dialog's title over its page title over a group title.
    await page.getByTestId('settings-open').click();
    const size = async (selector: string): Promise<number> =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    const dialogTitle = await size('.settings-panel .panel-header h1');
    const pageTitle = await size('.settings-page-title');
    expect(dialogTitle).toBeGreaterThanOrEqual(pageTitle * 1.15);
    expect(pageTitle).toBeGreaterThan(await size('.settings-nav-group h2'));
    // Every navigation item has its icon; no fieldset keeps the browser's etched border.
    for (const id of SETTINGS_PAGES) {
      expect(await page.getByTestId(`settings-nav-${id}`).locator('svg').count()).toBe(1);
    }
    await page.getByTestId('settings-nav-models').click();
    await page.getByTestId('settings-page-models').waitFor();
    await page.getByTestId('settings-close').click();

    // Wide: the sidebar is a column; Ctrl+B (even while typing) and the button fold it away.
    const toggle = page.getByTestId('sidebar-toggle');
    expect(await sidebarState(page)).toBe('open');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByTestId('composer-input').focus();
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('closed');
    await expect.poll(() => sidebarWidth(page)).toBe(0);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(
      await page.locator('#app-sidebar').evaluate((element: HTMLElement) => element.inert),
    ).toBe(true);
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('open');
    await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
    await toggle.click();
    await expect.poll(() => sidebarWidth(page)).toBe(0);
    // The choice survives a reload (a wide window's preference).
    await page.reload();
    await page.getByTestId('composer-input').waitFor();
    expect(await sidebarState(page)).toBe('closed');
    await page.getByTestId('sidebar-toggle').click();
    await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
    expect(errors.take()).toEqual([]);
  }, 120_000);

  it('720×480: the messages keep most of the height; the sidebar is a drawer opened and closed by Ctrl+B, the button, Esc and picking a conversation', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 720, height: 480 });
    await page.goto(serve.url);
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('conversation-item').first().click();
    await page.getByTestId('message-assistant').last().waitFor();
    const messages = await page.getByTestId('messages').boundingBox();
    expect(messages?.height ?? 0).toBeGreaterThanOrEqual(480 * 0.55);
    await page.getByTestId('mermaid-diagram').waitFor();
    // Narrow: the drawer starts closed, the chat takes the whole width.
    expect(await sidebarState(page)).toBe('closed');
    // Picking the conversation slid the drawer out (it animates): wait for it to be gone.
    await expect.poll(() => sidebarWidth(page)).toBe(0);
    await screenshot(page, 'layout-720x480');

    await page.getByTestId('composer-input').focus();
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('open');
    await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
    await page.getByTestId('sidebar-backdrop').waitFor();
    await screenshot(page, 'layout-720x480-drawer');
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('closed');
    await page.getByTestId('sidebar-backdrop').waitFor({ state: 'detached' });

    const toggle = page.getByTestId('sidebar-toggle');
    await toggle.click();
    await expect.poll(() => sidebarState(page)).toBe('open');
    await page.keyboard.press('Escape');
    await expect.poll(() => sidebarState(page)).toBe('closed');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'sidebar-toggle',
    );
    await toggle.click();
    await page.getByTestId('sidebar-backdrop').click({ position: { x: 690, y: 240 } });
    await expect.poll(() => sidebarState(page)).toBe('closed');
    await toggle.click();
    await page.getByTestId('new-chat').click();
    await expect.poll(() => sidebarState(page)).toBe('closed');
    expect(errors.take()).toEqual([]);
  }, 90_000);

  it('390 wide: nothing scrolls sideways on the chat or any settings page; answers keep their width', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(serve.url);
    await page.getByTestId('sidebar-toggle').click();
    await page.getByTestId('conversation-item').filter({ hasText: 'Remember' }).first().click();
    await expect.poll(() => sidebarState(page)).toBe('closed');
    const answer = page.getByTestId('message-assistant').last();
    await answer.getByTestId('mermaid-diagram').waitFor();
    expect(await overflowing(page, '.chat, .messages, .composer, .chat-header')).toEqual([]);
    const paragraph = await answer.locator('.message-body p').first().boundingBox();
    expect(paragraph?.width ?? 0).toBeGreaterThan(300);
    await screenshot(page, 'layout-390');

    // Settings is at the drawer's foot.
    await page.getByTestId('sidebar-toggle').click();
    await screenshot(page, 'layout-390-drawer');
    await page.getByTestId('settings-open').click();
    for (const id of SETTINGS_PAGES) {
      await page.getByTestId(`settings-nav-${id}`).click();
      await page.getByTestId(`settings-page-${id}`).waitFor();
      expect(await overflowing(page, '.settings-panel, .settings-content'), id).toEqual([]);
      if (id === 'general') await screenshot(page, 'layout-390-settings');
    }
    await page.getByTestId('settings-close').click();
    expect(errors.take()).toEqual([]);
  }, 90_000);

  it('"Jump to latest" stays under the settings dialog', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(serve.url);
    await page.getByTestId('new-chat').click();
    await sendAndWait(page, LONG_PROMPT);
    await page.getByTestId('messages').evaluate((element) => element.scrollTo({ top: 0 }));
    const jump = page.getByTestId('jump-to-latest');
    await jump.waitFor();
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-general').waitFor();
    const box = await jump.boundingBox();
    if (!box) throw new Error('"Jump to latest" is not drawn');
    const onTop = await page.evaluate(
      ([x, y]) => {
        const element = document.elementFromPoint(x ?? 0, y ?? 0);
        return element?.closest('[data-testid="settings-panel"]') !== null;
      },
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(onTop).toBe(true);
    await page.getByTestId('settings-close').click();
    expect(errors.take()).toEqual([]);
  }, 90_000);

  it('an MCP service added, tested, synced, enabled and called logs no console error', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-mcp').click();
    await page.getByTestId('mcp-empty').waitFor();
    await page.getByTestId('mcp-new').click();
    await page.getByTestId('mcp-form-name').fill('everything');
    await page.getByTestId('mcp-form-icon').fill('🧪');
    await page.getByTestId('mcp-form-description').fill('Test utilities from the MCP project.');
    await page.getByTestId('mcp-form-url').fill(everything.url);
    // Save and connect: tested and synced in place, its tools shown, one click to accept and
    // enable (settings-mcp.test.ts takes the card's step-by-step way).
    await page.getByTestId('mcp-form-save-connect').click();
    const added = page.getByTestId('mcp-added');
    await added.getByTestId('mcp-import-review').waitFor({ timeout: 30_000 });
    await expect
      .poll(() => added.textContent())
      .toMatch(/Added everything.*everything\s*Tools to review: \d+/);
    await added.getByTestId('mcp-added-enable').click();
    await expect
      .poll(() => added.getByTestId('mcp-import-enabled').textContent())
      .toBe('Accepted and enabled: everything.');
    await added.getByTestId('mcp-added-done').click();
    const card = page.getByTestId('mcp-service').and(page.locator('[data-name="everything"]'));
    expect(await card.getByTestId('mcp-test-state').getAttribute('data-state')).toBe('connected');
    await expect.poll(() => card.getAttribute('data-enabled')).toBe('true');
    expect(await card.getByTestId('mcp-pending').count()).toBe(0);
    await card.getByTestId('mcp-tools-toggle').click();
    await card.getByTestId('mcp-approval-echo').selectOption('ask');
    await page.getByTestId('settings-close').click();

    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(ECHO_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    await page.getByTestId('approval-card').waitFor({ timeout: 30_000 });
    await page.getByTestId('approval-once').click();
    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('complete');
    expect(await answer.textContent()).toContain('Echo: hello from the e2e test');
    expect(errors.take()).toEqual([]);
  }, 120_000);
});
