/**
 * Settings → MCP → Import in real Chromium over the real `aivory serve`, with a config whose
 * stdio server (the real @modelcontextprotocol/server-everything) carries
 * `NODE_OPTIONS=--import=data:…` writing a marker file: the plan shows the payload in clear with
 * a loader warning and an unticked box; imported so, the server runs without it (no marker).
 * Ticked for a second server, the import passes it (the marker appears). At 390 px wide the
 * warning and its box stay inside the dialog. The add form's confirmation refuses a loader
 * variable until its own box is ticked.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EVERYTHING_SCRIPT } from '../support/mcp-everything-server';
import { useAppFixture } from './helpers/app-fixture';
import { seriousViolations } from './helpers/axe';

function config(name: string, marker: string): string {
  const code = `import{writeFileSync}from'node:fs';writeFileSync(${JSON.stringify(marker)},'ran')`;
  return JSON.stringify(
    {
      mcpServers: {
        [name]: {
          command: process.execPath,
          args: [EVERYTHING_SCRIPT, 'stdio'],
          env: { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(code)}` },
        },
      },
    },
    null,
    2,
  );
}

async function openImport(page: Page, text: string): Promise<void> {
  await page.getByTestId('mcp-import').click();
  await page.getByTestId('mcp-import-dialog').waitFor();
  await page.getByTestId('mcp-import-text').fill(text);
  await page.getByTestId('mcp-import-check').click();
  await page.getByTestId('mcp-import-plan').waitFor();
}

async function runImport(page: Page): Promise<void> {
  await page.getByTestId('mcp-import-confirm').check();
  await page.getByTestId('mcp-import-run').click();
  const result = page.getByTestId('mcp-import-result');
  await result.waitFor({ timeout: 60_000 });
  expect(await result.getAttribute('class')).toBe('check-ok');
  await page.getByTestId('mcp-import-done').click();
  await page.getByTestId('mcp-import-dialog').waitFor({ state: 'detached' });
}

describe('e2e: importing a server with a loader variable', () => {
  const app = useAppFixture(() => ({ content: 'unused' }));

  it('refuses NODE_OPTIONS unless its box is ticked for that server', async () => {
    const { page } = app().browser;
    const dir = mkdtempSync(join(tmpdir(), 'aivory-e2e-loader-'));
    const refusedMarker = join(dir, 'refused.txt');
    const allowedMarker = join(dir, 'allowed.txt');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-mcp').click();
    await page.getByTestId('settings-page-mcp').waitFor();
    await page.getByTestId('mcp-allow-local').click();
    await expect.poll(() => page.getByTestId('mcp-allow-local').isChecked()).toBe(true);

    await openImport(page, config('memory', refusedMarker));
    const warning = page.getByTestId('mcp-import-loader');
    expect(await warning.textContent()).toContain(
      'NODE_OPTIONS is a loader variable: Node.js loads and runs the modules it names (--require, --import).',
    );
    expect(await page.getByTestId('mcp-import-loader-verdict').textContent()).toBe(
      'Refused: it is left out unless you allow it.',
    );
    // The payload is shown in clear: the user sees what would run.
    expect(await page.getByTestId('mcp-import-value').textContent()).toContain(
      '--import=data:text/javascript,import',
    );
    expect(await page.getByTestId('mcp-import-allow-NODE_OPTIONS').isChecked()).toBe(false);
    // At the narrowest width the warning and its box stay inside the dialog.
    await page.setViewportSize({ width: 390, height: 844 });
    const dialog = await page.getByTestId('mcp-import-dialog').boundingBox();
    const box = await warning.boundingBox();
    if (!dialog || !box) throw new Error('not drawn');
    expect(box.x + box.width).toBeLessThanOrEqual(dialog.x + dialog.width);
    expect(await seriousViolations(page, '[data-testid="mcp-import-dialog"]')).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 900 });
    await runImport(page);
    expect(existsSync(refusedMarker)).toBe(false);

    await openImport(page, config('allowed memory', allowedMarker));
    await page.getByTestId('mcp-import-allow-NODE_OPTIONS').check();
    await expect
      .poll(() => page.getByTestId('mcp-import-loader-verdict').textContent())
      .toBe('Allowed: the server runs with it.');
    await runImport(page);
    expect(readFileSync(allowedMarker, 'utf8')).toBe('ran');
    expect(existsSync(refusedMarker)).toBe(false);
  }, 180_000);

  it('the add form refuses a loader variable until its box is ticked', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-mcp').click();
    await page.getByTestId('settings-page-mcp').waitFor();
    if (!(await page.getByTestId('mcp-allow-local').isChecked()))
      await page.getByTestId('mcp-allow-local').click();
    await expect.poll(() => page.getByTestId('mcp-allow-local').isChecked()).toBe(true);
    await page.getByTestId('mcp-new').click();
    await page.getByTestId('mcp-form-name').fill('preloaded');
    await page.getByTestId('mcp-form-description').fill('A server with a preload.');
    await page.getByTestId('mcp-form-transport').selectOption('stdio');
    await page.getByTestId('mcp-form-command').fill('npx');
    await page.getByTestId('mcp-form-args').fill('-y\n@example/notes-server');
    await page.getByTestId('mcp-env-add').click();
    await page.getByTestId('mcp-env-name-0').fill('LD_PRELOAD');
    await page.getByTestId('mcp-env-value-0').fill('/tmp/evil.so');
    await page.getByTestId('mcp-form-save').click();
    expect(await page.getByTestId('mcp-stdio-loader').textContent()).toContain(
      'Allow LD_PRELOAD for this service. It is a loader variable',
    );
    // Confirmed without the box: refused, under the environment rows, nothing saved.
    await page.getByTestId('mcp-stdio-confirm-yes').click();
    await expect
      .poll(() => page.getByTestId('mcp-envs-error').textContent())
      .toContain('LD_PRELOAD is a loader variable');
    expect(
      await page.getByTestId('mcp-service').and(page.locator('[data-name="preloaded"]')).count(),
    ).toBe(0);
    await page.getByTestId('mcp-form-save').click();
    await page.getByTestId('mcp-stdio-allow-LD_PRELOAD').check();
    await page.getByTestId('mcp-stdio-confirm-yes').click();
    await page.getByTestId('mcp-service').and(page.locator('[data-name="preloaded"]')).waitFor();
  }, 120_000);
});
