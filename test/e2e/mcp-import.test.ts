/**
 * Settings → MCP → Import in the real browser host against the real
 * @modelcontextprotocol/server-everything: a VS Code config pasted (JSONC, a password input), the
 * plan shown with the header masked and a left-out entry with its reason, the input filled in,
 * imported; the service is listed tested and synced with its tools waiting for review, and the
 * secret is neither on the page nor in the database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { useAppFixture } from './helpers/app-fixture';
import { seriousViolations } from './helpers/axe';
import { screenshot } from './helpers/browser';

const TOKEN = 'sk-import-e2e-token-0123456789';

/** Import and Cancel lie inside the window and the dialog, and are what a click there hits. */
async function importButtonsInView(page: Page, size: string): Promise<void> {
  const dialog = await page.getByTestId('mcp-import-dialog').boundingBox();
  if (!dialog) throw new Error('the dialog is not drawn');
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  expect(dialog.y, size).toBeGreaterThanOrEqual(0);
  expect(dialog.y + dialog.height, size).toBeLessThanOrEqual(viewport.height);
  for (const id of ['mcp-import-run', 'mcp-import-cancel']) {
    const button = page.getByTestId(id);
    const box = await button.boundingBox();
    if (!box) throw new Error(`${id} is not drawn at ${size}`);
    expect(box.y, `${id} ${size}`).toBeGreaterThanOrEqual(dialog.y);
    expect(box.y + box.height, `${id} ${size}`).toBeLessThanOrEqual(
      Math.min(viewport.height, dialog.y + dialog.height),
    );
    expect(box.x + box.width, `${id} ${size}`).toBeLessThanOrEqual(viewport.width);
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('button')?.dataset.testid,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit, `${id} ${size}`).toBe(id);
  }
}

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
    await page.setViewportSize({ width: 1440, height: 900 });
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
    // "Choose a file… · or drop the file here · Show what it adds" is one row, centred.
    const row = await page
      .locator('.mcp-import-source-actions > :not(input)')
      .evaluateAll((elements) =>
        elements.map((element) => {
          const box = element.getBoundingClientRect();
          return box.top + box.height / 2;
        }),
      );
    expect(row.length).toBe(3);
    for (const middle of row) expect(Math.abs(middle - (row[0] ?? 0))).toBeLessThan(2);
    await screenshot(page, 'mcp-import-plan');
    // At every size the dialog keeps to the window, its body scrolls, Import and Cancel stay in
    // view at its foot (nothing covers them).
    for (const [width, height] of [
      [390, 844],
      [1440, 900],
      [720, 480],
    ] as const) {
      await page.setViewportSize({ width, height });
      await importButtonsInView(page, `${width}×${height}`);
    }
    const body = dialog.locator('.dialog-body');
    expect(await body.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(
      true,
    );
    expect(await seriousViolations(page, '[data-testid="mcp-import-dialog"]')).toEqual([]);

    // Imported from the desktop minimum: a real click on the button where it is.
    await page.getByTestId('mcp-import-run').click({ trial: true, timeout: 2_000 });
    await page.getByTestId('mcp-import-run').click();
    const result = page.getByTestId('mcp-import-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getAttribute('class')).toBe('check-ok');
    expect(await result.textContent()).toMatch(/imported everything.+\d+/);
    // Done replaces Import and Cancel, in the same place.
    expect(await page.getByTestId('mcp-import-run').count()).toBe(0);
    // One review of the imported tools (folded per service), one button to accept and enable.
    const review = page.getByTestId('mcp-import-review');
    await expect
      .poll(() => review.textContent())
      .toMatch(/imported everything\s*Tools to review: \d+/);
    await review.locator('summary').first().click();
    await review.getByTestId('mcp-diff').waitFor();
    expect(await seriousViolations(page, '[data-testid="mcp-import-dialog"]')).toEqual([]);
    await page.getByTestId('mcp-import-enable-all').click();
    await expect
      .poll(() => page.getByTestId('mcp-import-enabled').textContent())
      .toBe('Accepted and enabled: imported everything.');
    await page.getByTestId('mcp-import-done').click();
    await dialog.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1440, height: 900 });

    const card = page.getByTestId('mcp-service');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toContain('imported everything');
    expect(await card.getByTestId('mcp-test-state').getAttribute('data-state')).toBe('connected');
    // Accepted and on: nothing held for review, the switch is on.
    await expect.poll(() => card.getByTestId('mcp-enabled').isChecked()).toBe(true);
    expect(await card.getByTestId('mcp-pending').count()).toBe(0);
    expect(await page.content()).not.toContain(TOKEN);
    expect(readFileSync(join(app().serve.home, 'aivory.db')).includes(TOKEN)).toBe(false);
  }, 120_000);
});
