/**
 * In the browser host against real MCP servers: server-everything's completable prompt and
 * resource template get the server's suggestions as the user types (keyboard and mouse), and a
 * resource of a server that announces its changes (test/support/mcp-watched-server.ts) is shown on
 * the service card and read again on each change while "Watch for changes" is on; switched off,
 * the server is told (unsubscribe). Screens at 1440×900, 720×480 and 390 wide, light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { EverythingServer } from '../support/mcp-everything-server';
import { CLOCK_URI, startWatchedServer } from '../support/mcp-watched-server';
import type { WatchedServer } from '../support/mcp-watched-server';
import { cliEnv, runCli } from '../support/run-cli';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const POLL = { timeout: 30_000 };

async function openMcpSettings(page: Page): Promise<void> {
  await page.getByTestId('settings-open').click();
  await page.getByTestId('settings-nav-mcp').click();
  await page.getByTestId('settings-page-mcp').waitFor();
}

describe('e2e: MCP argument suggestions and watched resources', () => {
  let llm: ScriptedLlmServer;
  let everything: EverythingServer;
  let watched: WatchedServer;
  let serve: RunningServe;
  let browser: TestBrowser;
  let home: string;

  beforeAll(async () => {
    [everything, watched] = await Promise.all([
      startEverythingServer('streamableHttp'),
      startWatchedServer({ intervalMs: 400, maxTicks: 100 }),
    ]);
    llm = await startScriptedLlmServer(() => ({ content: 'Hello from the scripted model.' }));
    home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
    const env = cliEnv(home);
    const model = await runCli(
      ['models', 'add', '--base-url', llm.baseUrl, '--model', 'scripted-model', '--default'],
      env,
    );
    expect(model.code, model.stderr).toBe(0);
    for (const [name, url] of [
      ['everything', everything.url],
      ['clock', watched.url],
    ] as const) {
      for (const step of [
        ['mcp', 'add', '--name', name, '--url', url, '--description', `The ${name} server.`],
        ['mcp', 'sync', name],
        ['mcp', 'accept', name],
        ['mcp', 'enable', name],
      ]) {
        const result = await runCli(step, env);
        expect(result.code, `${step.join(' ')}\n${result.stderr}`).toBe(0);
      }
    }
    serve = await serveAt(home);
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await everything?.stop();
    await watched?.close();
    await llm?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("suggests a prompt's argument values as the user types; arrows and Enter or a click pick one", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(serve.url);
    await page.getByTestId('mcp-picker-open').click();
    await page.getByTestId('mcp-picker-service').filter({ hasText: 'everything' }).click();
    await page.getByTestId('mcp-picker-prompt').filter({ hasText: 'completable-prompt' }).click();
    const department = page.locator('[data-testid="mcp-picker-argument"][data-name="department"]');
    const options = page.getByTestId('mcp-completion');
    await department.click();
    // Focus asks with the empty value: every department.
    await expect
      .poll(() => options.allTextContents(), POLL)
      .toEqual(['Engineering', 'Sales', 'Marketing', 'Support']);
    expect(await department.getAttribute('role')).toBe('combobox');
    expect(await department.getAttribute('aria-expanded')).toBe('true');
    await department.pressSequentially('S');
    await expect.poll(() => options.allTextContents(), POLL).toEqual(['Sales', 'Support']);
    await screenshot(page, 'mcp-completion');
    await department.press('ArrowDown');
    await department.press('ArrowDown');
    expect(await department.getAttribute('aria-activedescendant')).toBeTruthy();
    await department.press('Enter');
    expect(await department.inputValue()).toBe('Support');
    expect(await options.count()).toBe(0);
    // The second argument's suggestions depend on the first (sent as context).
    const name = page.locator('[data-testid="mcp-picker-argument"][data-name="name"]');
    await name.click();
    await expect.poll(() => options.allTextContents(), POLL).toEqual(['John', 'Kim', 'Lee']);
    // Escape closes the list, not the picker.
    await name.press('Escape');
    expect(await options.count()).toBe(0);
    expect(await page.getByTestId('mcp-picker-insert').isVisible()).toBe(true);
    await name.pressSequentially('K');
    await options.filter({ hasText: 'Kim' }).click();
    expect(await name.inputValue()).toBe('Kim');
    await page.getByTestId('mcp-picker-insert').click();
    await expect
      .poll(() => page.getByTestId('composer-input').inputValue(), POLL)
      .toContain('Please promote Kim to the head of the Support team.');
    await page.getByTestId('composer-input').fill('');

    // A resource template's variable, on a narrow dark screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByTestId('mcp-picker-open').click();
    await page.getByTestId('mcp-picker-service').filter({ hasText: 'everything' }).click();
    await page
      .getByTestId('mcp-picker-template')
      .filter({ hasText: 'Dynamic Text Resource' })
      .click();
    const id = page.locator('[data-testid="mcp-picker-argument"][data-name="resourceId"]');
    await id.pressSequentially('42');
    await expect.poll(() => options.allTextContents(), POLL).toEqual(['42']);
    await screenshot(page, 'mcp-completion-390-dark');
    await id.press('Escape');
    await page.getByTestId('mcp-picker-open').click();
  }, 120_000);

  it('shows a resource on the service card and reads it again on each change while watched', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(serve.url);
    await openMcpSettings(page);
    const card = page.getByTestId('mcp-service').and(page.locator('[data-name="clock"]'));
    await card.getByTestId('mcp-resources-toggle').click();
    const resource = card
      .getByTestId('mcp-resource')
      .and(page.locator(`[data-uri="${CLOCK_URI}"]`));
    await resource.getByTestId('mcp-resource-view').click();
    const text = card.getByTestId('mcp-resource-text');
    await expect.poll(() => text.textContent(), POLL).toMatch(/^tick \d+$/);
    const view = card.getByTestId('mcp-resource-content');
    expect(await view.getAttribute('data-watching')).toBe('false');
    const first = Number(((await text.textContent()) ?? '').slice(5));

    await card.getByTestId('mcp-resource-watch').check();
    await expect.poll(() => view.getAttribute('data-watching'), POLL).toBe('true');
    expect(watched.requests).toEqual(['subscribe']);
    await expect
      .poll(async () => Number(await view.getAttribute('data-updates')), POLL)
      .toBeGreaterThan(1);
    await expect
      .poll(async () => Number(((await text.textContent()) ?? '').slice(5)), POLL)
      .toBeGreaterThan(first);
    expect(await card.getByTestId('mcp-resource-watch-status').textContent()).toMatch(
      /^Changed at .+: read again\.$/,
    );
    await resource.scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-resource-watch');
    for (const [width, height, scheme, shot] of [
      [720, 480, 'dark', 'mcp-resource-watch-720-dark'],
      [390, 844, 'light', 'mcp-resource-watch-390'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await view.scrollIntoViewIfNeeded();
      await screenshot(page, shot);
    }

    await card.getByTestId('mcp-resource-watch').uncheck();
    await expect.poll(() => view.getAttribute('data-watching'), POLL).toBe('false');
    await expect.poll(() => watched.requests, POLL).toEqual(['subscribe', 'unsubscribe']);
    expect(watched.subscribed()).toBe(0);

    // Watched again, then the view closes with the settings: unsubscribed too.
    await card.getByTestId('mcp-resource-watch').check();
    await expect
      .poll(() => watched.requests, POLL)
      .toEqual(['subscribe', 'unsubscribe', 'subscribe']);
    await page.getByTestId('settings-close').click();
    await expect
      .poll(() => watched.requests, POLL)
      .toEqual(['subscribe', 'unsubscribe', 'subscribe', 'unsubscribe']);
  }, 120_000);

  it('speaks Chinese: the section, the switch and the suggestions list', async () => {
    const zh = await openBrowser('zh-CN');
    try {
      const { page } = zh;
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(serve.url);
      await openMcpSettings(page);
      const card = page.getByTestId('mcp-service').and(page.locator('[data-name="clock"]'));
      await card.getByTestId('mcp-resources-toggle').click();
      await card.getByTestId('mcp-resource-view').click();
      await expect
        .poll(() => card.getByTestId('mcp-resource-text').textContent(), POLL)
        .toMatch(/^tick \d+$/);
      expect(await card.getByTestId('mcp-resources').textContent()).toContain('关注变化');
      await card.getByTestId('mcp-resource-content').scrollIntoViewIfNeeded();
      await screenshot(page, 'mcp-resource-watch-zh-dark');
      await page.getByTestId('settings-close').click();
      await page.getByTestId('mcp-picker-open').click();
      await page.getByTestId('mcp-picker-service').filter({ hasText: 'everything' }).click();
      await page.getByTestId('mcp-picker-prompt').filter({ hasText: 'completable-prompt' }).click();
      await page.locator('[data-testid="mcp-picker-argument"][data-name="department"]').click();
      const list = page.locator('[data-testid="mcp-completions"]:not([hidden])');
      await expect.poll(() => page.getByTestId('mcp-completion').count(), POLL).toBe(4);
      expect(await list.getAttribute('aria-label')).toBe('department 的建议值');
    } finally {
      await zh.close();
    }
  }, 120_000);
});
