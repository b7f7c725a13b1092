/**
 * Settings → MCP → Import in the real browser host against the real
 * @modelcontextprotocol/server-everything: a VS Code config pasted (JSONC, a password input), the
 * plan shown with the header masked and a left-out entry with its reason, the input filled in,
 * imported; the service is listed tested and synced with its tools waiting for review, and the
 * secret is neither on the page nor in the database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { useAppFixture } from './helpers/app-fixture';
import { screenshot } from './helpers/browser';

const TOKEN = 'sk-import-e2e-token-0123456789';

describe('e2e: importing MCP servers from a config', () => {
  const app = useAppFixture(() => ({ content: 'unused' }));
  let everything: EverythingServer;
  beforeAll(async () => {
    everything = await startEverythingServer('streamableHttp');
  }, 60_000);
  afterAll(async () => {
    await everything?.stop();
  });

  it('pastes a VS Code config, shows the plan masked, imports, and lists the service', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-mcp').click();
    await page.getByTestId('settings-page-mcp').waitFor();
    await page.getByTestId('mcp-import').click();
    const dialog = page.getByTestId('mcp-import-dialog');
    await dialog.waitFor();

    const config = `{
  // from .vscode/mcp.json
  "inputs": [{ "type": "promptString", "id": "token", "description": "Everything token", "password": true }],
  "servers": {
    "imported everything": {
      "type": "http",
      "url": "${everything.url}",
      "headers": { "Authorization": "Bearer \${input:token}" },
    },
    "broken": { "type": "http", "url": "not a url" },
  },
}`;
    await page.getByTestId('mcp-import-text').fill(config);
    await page.getByTestId('mcp-import-check').click();
    const plan = page.getByTestId('mcp-import-plan');
    await plan.waitFor();
    expect(await page.getByTestId('mcp-import-skipped').textContent()).toContain(
      'broken: "not a url" is not a valid URL',
    );
    // No value yet: the header shows the file's own text, and the import waits for it.
    expect(await page.getByTestId('mcp-import-value').textContent()).toContain(
      'Bearer ${input:token}',
    );
    expect(await page.getByTestId('mcp-import-run').isDisabled()).toBe(true);

    const field = page.getByTestId('mcp-import-input-token');
    expect(await field.getAttribute('type')).toBe('password');
    await field.fill(TOKEN);
    await field.blur();
    await expect
      .poll(() => page.getByTestId('mcp-import-value').textContent())
      .toContain('Bea…6789');
    // Only the password field itself holds what was typed.
    expect(await plan.textContent()).not.toContain(TOKEN.slice(4, -4));
    await screenshot(page, 'mcp-import-plan');

    await page.getByTestId('mcp-import-run').click();
    const result = page.getByTestId('mcp-import-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getAttribute('class')).toBe('check-ok');
    expect(await result.textContent()).toMatch(/imported everything.+\d+/);
    await page.getByTestId('mcp-import-close').click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByTestId('mcp-service');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toContain('imported everything');
    expect(await card.getByTestId('mcp-test-state').getAttribute('data-state')).toBe('connected');
    await card.getByTestId('mcp-pending').waitFor();
    expect(await page.content()).not.toContain(TOKEN);
    expect(readFileSync(join(app().serve.home, 'aivory.db')).includes(TOKEN)).toBe(false);
  }, 120_000);
});
