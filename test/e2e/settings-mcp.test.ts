/**
 * Settings and MCP in the real browser host: settings saved, refused with a message next to the
 * field, and still there after a reload; an MCP service added against the real
 * @modelcontextprotocol/server-everything, tested, synced (diff accepted) and enabled; then a
 * prompt-mode turn whose MCP call waits for the approval card and runs once allowed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import { ECHO_ARGUMENTS, ECHO_PROMPT, mcpScript } from './helpers/mcp-script';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';

const HEADER_SECRET = 'Bearer sk-e2e-mcp-secret-0123456789';
const SEARCH_KEY = 'sk-e2e-search-key-abcdef987654';

/** Opens settings on `page` (a nav id such as `tools` or `mcp`). */
async function openSettings(page: Page, section: string): Promise<void> {
  await page.getByTestId('settings-open').click();
  await page.getByTestId(`settings-nav-${section}`).click();
  await page.getByTestId(`settings-page-${section}`).waitFor();
}

describe('e2e: settings and MCP services in the browser host', () => {
  let llm: ScriptedLlmServer;
  let everything: EverythingServer;
  let serve: ServeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(mcpScript);
    everything = await startEverythingServer('streamableHttp');
    serve = await startServe({
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'prompt',
    });
    browser = await openBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await everything?.stop();
    await llm?.close();
  });

  it('tools page: search backend, key (masked) and sandbox limits are validated, saved and survive a reload', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await openSettings(page, 'tools');
    const status = page.getByTestId('sandbox-status');
    await expect.poll(() => status.getAttribute('data-state')).toBe('unavailable');
    expect(await status.textContent()).toContain('请先配置沙盒');
    const python = page
      .getByTestId('settings-tool')
      .and(page.locator('[data-tool-name="python_execute"]'));
    expect(await python.getAttribute('data-available')).toBe('false');
    expect(await python.textContent()).toContain('请先配置沙盒');
    // A friendly name for people, the real one beside it.
    expect(await python.locator('.tool-label').textContent()).toBe('Run Python');
    expect(await python.locator('.tool-real-name').textContent()).toBe('python_execute');

    await page.getByTestId('settings-search-provider').selectOption('searxng');
    await page.getByTestId('settings-search-baseUrl').fill('http://127.0.0.1:8888');
    await page.getByTestId('settings-search-engines').fill('bing, wikipedia');
    await page.getByTestId('settings-search-save').click();
    await page.getByTestId('settings-search-save-done').waitFor();
    await page.getByTestId('settings-search-key').fill(SEARCH_KEY);
    await page.getByTestId('settings-search-key-save').click();
    await expect
      .poll(() => page.getByTestId('settings-search-key-masked').textContent())
      .toContain('sk-…7654');

    const timeout = page.getByTestId('settings-sandbox-execTimeoutSeconds');
    await timeout.fill('5');
    await page.getByTestId('settings-sandbox-save').click();
    expect(await page.getByTestId('settings-sandbox-execTimeoutSeconds-error').textContent()).toBe(
      'Must be between 10 and 600.',
    );
    await screenshot(page, 'settings-tools-validation');
    await timeout.fill('300');
    await page.getByTestId('settings-sandbox-idleReapSeconds').fill('7200');
    expect(await page.getByTestId('settings-sandbox-runtime').inputValue()).toBe('auto');
    await page.getByTestId('settings-sandbox-runtime').selectOption('runc');
    await page.getByTestId('settings-sandbox-save').click();
    await page.getByTestId('settings-sandbox-save-done').waitFor();
    expect(await page.getByTestId('settings-sandbox-execTimeoutSeconds-error').count()).toBe(0);
    await screenshot(page, 'settings-tools');

    await page.reload();
    await openSettings(page, 'tools');
    expect(await page.getByTestId('settings-search-provider').inputValue()).toBe('searxng');
    expect(await page.getByTestId('settings-search-baseUrl').inputValue()).toBe(
      'http://127.0.0.1:8888',
    );
    expect(await page.getByTestId('settings-search-engines').inputValue()).toBe('bing, wikipedia');
    expect(await page.getByTestId('settings-sandbox-execTimeoutSeconds').inputValue()).toBe('300');
    expect(await page.getByTestId('settings-sandbox-idleReapSeconds').inputValue()).toBe('7200');
    expect(await page.getByTestId('settings-sandbox-runtime').inputValue()).toBe('runc');
    expect(await page.getByTestId('settings-search-key-masked').textContent()).toContain(
      'sk-…7654',
    );
    expect(await page.content()).not.toContain(SEARCH_KEY);

    await page.getByTestId('settings-close').click();
  }, 90_000);

  it('an MCP service is added, tested, synced, accepted and enabled; an "ask" tool waits for the approval card', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await openSettings(page, 'mcp');
    await page.getByTestId('mcp-empty').waitFor();
    await screenshot(page, 'mcp-empty');

    await page.getByTestId('mcp-new').click();
    await page.getByTestId('mcp-form-save').click();
    expect(await page.getByTestId('mcp-form-name-error').textContent()).toBe('Required.');
    await page.getByTestId('mcp-form-name').fill('everything');
    await page.getByTestId('mcp-form-icon').fill('🧪');
    await page
      .getByTestId('mcp-form-description')
      .fill('Test utilities from the MCP project: echo, sums and a tiny image.');
    await page.getByTestId('mcp-form-url').fill(everything.url);
    await page.getByTestId('mcp-form-local-notice').waitFor();
    await page.getByTestId('mcp-header-add').click();
    await page.getByTestId('mcp-header-name-0').fill('Authorization');
    await page.getByTestId('mcp-header-value-0').fill(HEADER_SECRET);
    await screenshot(page, 'mcp-new-service');
    await page.getByTestId('mcp-form-save').click();

    const card = page.getByTestId('mcp-service').and(page.locator('[data-name="everything"]'));
    await card.waitFor();
    const state = card.getByTestId('mcp-test-state');
    expect(await state.getAttribute('data-state')).toBe('untested');
    expect(await card.getByTestId('mcp-enabled').isDisabled()).toBe(true);
    expect(await card.getByTestId('mcp-headers').textContent()).toContain(
      'Authorization: Bea…6789',
    );
    expect(await page.content()).not.toContain('sk-e2e-mcp-secret');

    await card.getByTestId('mcp-test').click();
    await expect
      .poll(() => state.getAttribute('data-state'), { timeout: 30_000 })
      .toBe('connected');
    await card.getByTestId('mcp-sync').click();
    const echoRow = card.getByTestId('mcp-diff-row').and(page.locator('[data-tool="echo"]'));
    await echoRow.waitFor({ timeout: 30_000 });
    expect(await echoRow.getAttribute('data-kinds')).toBe('added');
    await expect
      .poll(() => card.getByTestId('mcp-sync-info').textContent(), { timeout: 30_000 })
      .toMatch(/found \d+ · last synced at/);
    await screenshot(page, 'mcp-sync-diff');
    await card.getByTestId('mcp-accept').click();
    await card.getByTestId('mcp-diff-empty').waitFor();
    await card.getByTestId('mcp-enabled').click();
    await expect.poll(() => card.getAttribute('data-enabled')).toBe('true');

    // Editing keeps what is not changed (the masked header stays saved).
    await card.getByTestId('mcp-edit').click();
    await card.getByTestId('mcp-form-headers-kept').waitFor();
    await card.getByTestId('mcp-form-description').fill('Echo, sums and a tiny image.');
    await card.getByTestId('mcp-form-save').click();
    await expect
      .poll(() => card.textContent(), { timeout: 30_000 })
      .toContain('Echo, sums and a tiny image.');
    expect(await card.getAttribute('data-enabled')).toBe('true');

    await card.getByTestId('mcp-tools-toggle').click();
    await card.getByTestId('mcp-approval-echo').selectOption('ask');
    await expect.poll(() => card.getByTestId('mcp-approval-echo').inputValue()).toBe('ask');
    await screenshot(page, 'mcp-service');
    await page.getByTestId('settings-close').click();

    // The composer inserts a server prompt (with its argument) as editable text.
    await page.getByTestId('mcp-picker-open').click();
    await page.getByTestId('mcp-picker-service').first().click();
    await page.getByTestId('mcp-picker-prompt').filter({ hasText: 'args-prompt' }).click();
    await page.locator('[data-testid="mcp-picker-argument"][data-name="city"]').fill('Oslo');
    await page.getByTestId('mcp-picker-insert').click();
    await expect
      .poll(() => page.getByTestId('composer-input').inputValue(), { timeout: 30_000 })
      .toContain("What's weather in Oslo");
    await page.getByTestId('composer-input').fill('');
    // A resource template: its variable filled in, the resource read and attached as a file.
    await page.getByTestId('mcp-picker-open').click();
    await page.getByTestId('mcp-picker-service').first().click();
    await page
      .getByTestId('mcp-picker-template')
      .filter({ hasText: 'Dynamic Text Resource' })
      .click();
    await page.locator('[data-testid="mcp-picker-argument"][data-name="resourceId"]').fill('3');
    await page.getByTestId('mcp-picker-insert').click();
    const chip = page.getByTestId('composer-attachment').and(page.locator('[data-name="3.txt"]'));
    await chip.waitFor({ timeout: 30_000 });
    expect(await chip.getByTestId('composer-attachment-source').textContent()).toContain(
      'from everything',
    );
    expect(await page.getByTestId('composer-input').inputValue()).toBe('');
    await chip.getByTestId('composer-attachment-remove').click();
    await chip.waitFor({ state: 'detached' });

    await page.getByTestId('composer-input').fill(ECHO_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const approval = page.getByTestId('approval-card');
    await approval.waitFor({ timeout: 30_000 });
    expect(await approval.getAttribute('data-tool-name')).toBe('everything__echo');
    expect(JSON.parse((await page.getByTestId('approval-arguments').textContent()) ?? '')).toEqual(
      ECHO_ARGUMENTS,
    );
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator('[data-tool-name="everything__echo"]'));
    expect(await trace.getAttribute('data-status')).toBe('running');
    await screenshot(page, 'mcp-approval');
    await page.getByTestId('approval-once').click();
    await expect.poll(() => trace.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    expect(await approval.count()).toBe(0);
    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('complete');
    expect(await answer.textContent()).toContain('Echo: hello from the e2e test');
    await screenshot(page, 'mcp-chat-trace');
  }, 120_000);

  it('a local command server needs the setting and a confirmation; model MCP defaults show the markers', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await openSettings(page, 'mcp');
    await page.getByTestId('mcp-new').click();
    expect(
      await page.locator('[data-testid="mcp-form-transport"] option[value="stdio"]').count(),
    ).toBe(0);
    await page.getByTestId('mcp-allow-local').click();
    await page.locator('[data-testid="mcp-form-transport"] option[value="stdio"]').waitFor({
      state: 'attached',
    });
    await page.getByTestId('mcp-form-name').fill('local-notes');
    await page.getByTestId('mcp-form-description').fill('Reads my local notes.');
    await page.getByTestId('mcp-form-transport').selectOption('stdio');
    await page.getByTestId('mcp-form-command').fill('npx');
    await page.getByTestId('mcp-form-args').fill('-y\n@example/notes-server');
    await page.getByTestId('mcp-form-save').click();
    expect(await page.getByTestId('mcp-stdio-command').textContent()).toBe(
      'npx -y @example/notes-server',
    );
    await screenshot(page, 'mcp-stdio-confirm');
    await page.getByTestId('mcp-stdio-confirm-yes').click();
    const card = page.getByTestId('mcp-service').and(page.locator('[data-name="local-notes"]'));
    await card.waitFor();
    expect(await card.getByTestId('mcp-enabled').isDisabled()).toBe(true);

    // A model whose MCP defaults name both services: the unsynced one is marked, then deleted.
    await page.getByTestId('settings-nav-models').click();
    await page
      .getByTestId('settings-page-models')
      .getByRole('button', { name: 'Add a model' })
      .click();
    await page.getByTestId('model-base-url').fill(llm.baseUrl);
    await page.getByTestId('model-name').fill('scripted-model');
    await page.getByTestId('model-context').fill('100');
    await page.getByTestId('model-save').click();
    expect(await page.getByTestId('model-context-error').textContent()).toBe(
      'Must be between 1024 and 10000000.',
    );
    await page.getByTestId('model-context').fill('65536');
    await page.getByTestId('model-mcp-defaults-some').check();
    const option = (name: string) =>
      page.getByTestId('model-mcp-defaults-option').filter({ hasText: name }).locator('input');
    await option('everything').check();
    await option('local-notes').check();
    expect(
      await page
        .getByTestId('model-mcp-defaults-option')
        .filter({ hasText: 'local-notes' })
        .getByTestId('mcp-default-marker')
        .getAttribute('data-marker'),
    ).toBe('已停用');
    await screenshot(page, 'settings-model-editor');
    await page.getByTestId('model-save').click();
    const model = page.getByTestId('settings-model');
    await model.waitFor();
    expect(await model.textContent()).toContain('MCP defaults: everything, local-notes (disabled)');
    await screenshot(page, 'settings-models');

    await page.getByTestId('settings-nav-mcp').click();
    await card.getByTestId('mcp-remove').click();
    // The app asks in its own dialog (Electron has no window.confirm).
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.textContent()).toContain('local-notes');
    await page.getByTestId('confirm-accept').click();
    await card.waitFor({ state: 'detached' });
    await page.getByTestId('settings-nav-models').click();
    await expect
      .poll(() => page.getByTestId('settings-model').textContent())
      .toContain('(deleted)');
  }, 60_000);
  it('advanced MCP settings: server log levels (default and per service) and the OAuth client metadata URL survive a reload', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await openSettings(page, 'mcp');
    const section = page.getByTestId('mcp-advanced');
    await section.waitFor();
    const level = section.getByTestId('mcp-log-level');
    expect(await level.inputValue()).toBe('warning');
    await level.selectOption('error');
    const perService = section
      .getByTestId('mcp-service-log-level')
      .and(page.locator('[data-name="everything"]'));
    await expect
      .poll(() => perService.locator('option').first().textContent())
      .toBe('Default (error)');
    await perService.selectOption('debug');

    const url = section.getByTestId('mcp-cimd-url');
    await url.fill('http://example.com/aivory.json');
    await section.getByTestId('mcp-cimd-save').click();
    expect(await section.getByTestId('mcp-cimd-url-error').textContent()).toBe(
      'Enter an https:// URL with a path, or leave it empty.',
    );
    await url.fill('https://example.com/aivory.json');
    await section.getByTestId('mcp-cimd-save').click();
    await section.getByTestId('mcp-cimd-save-done').waitFor();
    await screenshot(page, 'mcp-advanced');

    await page.reload();
    await openSettings(page, 'mcp');
    await page.getByTestId('mcp-advanced').waitFor();
    expect(await page.getByTestId('mcp-log-level').inputValue()).toBe('error');
    await expect.poll(() => perService.inputValue()).toBe('debug');
    await expect
      .poll(() => page.getByTestId('mcp-cimd-url').inputValue())
      .toBe('https://example.com/aivory.json');
    await perService.selectOption('');
    await expect.poll(() => perService.inputValue()).toBe('');
    await page.getByTestId('settings-close').click();
  }, 90_000);
});
