/**
 * e2e: accessibility of the main screens, checked by axe-core in the real page (`aivory serve` +
 * the scripted model, Chromium), in light and dark: the first-run setup screen, the chat with a
 * finished answer (a tool trace card, Markdown with code), its menus open, every settings page and
 * the shortcuts help sheet; then the sidebar folded away (wide), the drawer over the chat and
 * settings at 390 wide. Any `serious` or `critical` violation fails the test and is printed
 * (rule, impact, help, the elements and why). Then the menus and pins by keyboard: the header's
 * "more" menu (arrows, Esc gives focus back), the sidebar row menu pinning a conversation to the
 * top (the Pinned group), the message toolbar reachable by Tab, and the finished answer
 * announced in a polite live region.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../support/scripted-llm-server';
import { screenshot } from './helpers/browser';
import { turnState } from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

const PROMPT = 'Remember that I write Python, then show me a function';
const SAVE_MEMORY =
  '<tool_call>{"name":"save_memory","arguments":{"memory_text":"The user writes Python"}}</tool_call>';
const ANSWER = [
  'Noted. Here is the **area** of a circle, with a [reference](https://example.com/circle):',
  '',
  '```python',
  'import math',
  '',
  'def area(r: float) -> float:',
  '    return math.pi * r ** 2',
  '```',
  '',
  '| r | area |',
  '| - | ---- |',
  '| 1 | 3.14 |',
  '',
  '- one `inline` item',
  '- [x] a task',
].join('\n');

function script(request: Parameters<typeof turnState>[0]): ScriptedResponse {
  const { text, toolResults } = turnState(request);
  if (text.includes(PROMPT)) {
    if (toolResults === 0) return { content: `Let me note that.${SAVE_MEMORY}` };
    return { content: ANSWER, chunkSize: 60 };
  }
  return { content: 'Hello from the scripted model.' };
}

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
  html: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** Runs axe on the page as it is now; returns the serious and critical violations, readable. */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `[${screen}] ${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .map(
            (node) =>
              `    ${JSON.stringify(node.target)} ${node.html.slice(0, 160)}\n      ${(node.failureSummary ?? '').replace(/\n/g, '\n      ')}`,
          )
          .join('\n'),
    );
}

/** Collects each screen's serious and critical violations; `check` fails with all of them. */
function axeAudit(page: Page): { audit(screen: string): Promise<void>; check(): void } {
  const found: string[] = [];
  return {
    audit: async (screen) => {
      found.push(...(await seriousViolations(page, screen)));
    },
    check: () => expect(found, `\n${found.join('\n')}`).toEqual([]),
  };
}

async function setScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
}

const SETTINGS_PAGES = ['general', 'models', 'tools', 'mcp', 'skills', 'prompts', 'memory'];

describe('e2e accessibility: the first-run setup screen', () => {
  const app = useAppFixture(script, { configured: false });

  it('has no serious or critical axe violations, light and dark', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('setup-screen').waitFor();
    const { audit, check } = axeAudit(page);
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await audit(`setup ${scheme}`);
    }
    check();
  }, 60_000);
});

describe('e2e accessibility: chat, menus, settings and the shortcuts sheet', () => {
  const app = useAppFixture(script);

  it('has no serious or critical axe violations, light and dark', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill(PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('complete');
    await answer.getByTestId('tool-trace').waitFor();
    await answer.locator('.code-block .hljs-keyword').first().waitFor();
    await page.getByTestId('conversation-item').first().waitFor();

    const { audit, check } = axeAudit(page);
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await page.getByTestId('composer-input').focus();
      await audit(`chat ${scheme}`);

      // The message toolbar while shown (hover), and the two menus while open.
      await answer.hover();
      await audit(`chat toolbar ${scheme}`);
      await page.getByTestId('conversation-menu').click();
      await page.getByTestId('conversation-menu-menu').waitFor();
      await audit(`header menu ${scheme}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('conversation-row-menu').first().click();
      await page.getByTestId('conversation-row-menu-menu').waitFor();
      await audit(`row menu ${scheme}`);
      await page.keyboard.press('Escape');

      await page.getByTestId('settings-open').click();
      for (const id of SETTINGS_PAGES) {
        const nav = page.getByTestId(`settings-nav-${id}`);
        await nav.click();
        await expect.poll(() => nav.getAttribute('class')).toContain('active');
        await page.locator('.settings-page-title').waitFor();
        await audit(`settings ${id} ${scheme}`);
      }
      await page.getByTestId('settings-close').click();
      await page.getByTestId('settings-panel').waitFor({ state: 'detached' });

      await page.getByTestId('messages').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('?');
      await page.getByTestId('shortcut-help').waitFor();
      await audit(`shortcuts ${scheme}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('shortcut-help').waitFor({ state: 'detached' });
    }
    check();
  }, 180_000);

  it('menus and pins work by keyboard; the message toolbar is reachable by Tab', async () => {
    const { page } = app().browser;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(app().serve.url);
    // Two conversations of its own: the older one is below the newer, until pinned.
    for (const text of ['An older question', 'Hello there']) {
      await page.getByTestId('new-chat').click();
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
      await page.getByTestId('conversation-item').filter({ hasText: text }).waitFor();
    }
    await page
      .getByTestId('message-assistant')
      .filter({ hasText: 'Hello from the scripted model.' })
      .waitFor();
    // The finished answer is announced politely (not every streamed piece).
    const announcer = page.getByTestId('live-announcer');
    expect(await announcer.getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => announcer.textContent()).toBe('Hello from the scripted model.');
    const firstTwo = async (): Promise<string[]> =>
      (await page.getByTestId('conversation-item').allTextContents()).slice(0, 2);
    await expect.poll(firstTwo).toEqual(['Hello there', 'An older question']);
    expect(await groups(page)).toEqual(['today']);

    // The header's "more" menu: Enter opens it on its first item, arrows wrap, Esc closes it
    // and focus goes back to the button.
    const more = page.getByTestId('conversation-menu');
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    expect(await focusedTestId(page)).toBe('conversation-rename');
    await page.keyboard.press('ArrowUp');
    expect(await focusedTestId(page)).toBe('conversation-delete');
    await page.keyboard.press('ArrowDown');
    expect(await focusedTestId(page)).toBe('conversation-rename');
    await page.keyboard.press('End');
    expect(await focusedTestId(page)).toBe('conversation-delete');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('conversation-menu');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    // Esc in the menu closed only the menu: the conversation is still open.
    expect(await page.getByTestId('chat-title').textContent()).toBe('Hello there');

    // Pin the older conversation from its row menu, by keyboard: it heads the list.
    const olderRow = page.getByTestId('conversation-row').filter({ hasText: 'An older question' });
    await olderRow.getByTestId('conversation-row-menu').focus();
    await page.keyboard.press('ArrowDown');
    expect(await focusedTestId(page)).toBe('conversation-row-pin');
    await page.keyboard.press('Enter');
    await expect.poll(firstTwo).toEqual(['An older question', 'Hello there']);
    expect(await groups(page)).toEqual(['pinned', 'today']);
    expect(await page.getByTestId('conversation-row').first().getAttribute('data-pinned')).toBe(
      'true',
    );
    // The sidebar with its groups, a row menu open (docs/screenshots/sidebar-pinned-menu.png).
    await page
      .getByTestId('conversation-row')
      .filter({ hasText: 'Hello there' })
      .getByTestId('conversation-row-menu')
      .click();
    await page.getByRole('menu').waitFor();
    await screenshot(page, 'sidebar-pinned-menu');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    // Pinned survives a reload (it is stored), and the header's pin button says so.
    await page.reload();
    await expect.poll(firstTwo).toEqual(['An older question', 'Hello there']);
    await page.getByTestId('conversation-item').first().click();
    const pin = page.getByTestId('conversation-pin');
    await expect.poll(() => pin.getAttribute('aria-pressed')).toBe('true');
    await pin.click();
    await expect.poll(() => groups(page)).toEqual(['today']);
    await expect.poll(firstTwo).toEqual(['Hello there', 'An older question']);

    // The toolbar of a message is in the tab order and shows when focus is inside it.
    const answer = page.getByTestId('message-assistant').last();
    const copy = answer.getByTestId('message-copy');
    expect(await copy.getAttribute('aria-label')).toBe('Copy');
    expect(await copy.getAttribute('title')).toBe('Copy');
    await page.mouse.move(0, 0);
    const toolbar = answer.getByTestId('message-actions');
    await expect
      .poll(() => toolbar.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('0');
    await copy.focus();
    await expect
      .poll(() => toolbar.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('1');
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('message-copy-text');
  }, 90_000);
});

describe('e2e accessibility: the narrow and collapsed layouts', () => {
  const app = useAppFixture(script);

  it('the drawer, the collapsed sidebar and settings at 390 wide have no serious axe violations, light and dark', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill('Hello there');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status')).toBe('complete');
    const layout = page.getByTestId('layout');
    const { audit, check } = axeAudit(page);
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      // Wide, the sidebar folded away (Ctrl+B) and back.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.keyboard.press('Control+b');
      await expect.poll(() => layout.getAttribute('data-sidebar')).toBe('closed');
      await audit(`collapsed ${scheme}`);
      await page.keyboard.press('Control+b');
      await expect.poll(() => layout.getAttribute('data-sidebar')).toBe('open');
      // A phone: the chat, the drawer open over it, settings with its navigation as tabs.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => layout.getAttribute('data-narrow')).toBe('true');
      await audit(`chat 390 ${scheme}`);
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('sidebar-backdrop').waitFor();
      await audit(`drawer 390 ${scheme}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('sidebar-backdrop').waitFor({ state: 'detached' });
      await page.getByTestId('sidebar-toggle').click();
      await page.getByTestId('settings-open').click();
      await page.getByTestId('settings-page-general').waitFor();
      await audit(`settings 390 ${scheme}`);
      await page.getByTestId('settings-close').click();
      await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    check();
  }, 120_000);
});

async function groups(page: Page): Promise<string[]> {
  return page
    .getByTestId('conversation-group')
    .evaluateAll((sections) => sections.map((section) => section.getAttribute('data-group') ?? ''));
}

async function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
}
