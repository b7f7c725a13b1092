/**
 * Shared folders (MCP roots) on an MCP service card in the real browser host: none at first; a
 * relative path refused with the host's message under the field; a folder added with a name,
 * listed by its real path and still there after a reload; removed again. The browser host offers
 * no folder picker (the desktop's "Choose…" button is Electron's dialog, tested in the host tests).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/run-cli';
import { screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';
import { seriousViolations } from './helpers/axe';

const folders = realpathSync(mkdtempSync(join(tmpdir(), 'aivory-e2e-roots-')));

async function openMcpSettings(page: Page): Promise<void> {
  await page.getByTestId('settings-open').click();
  await page.getByTestId('settings-nav-mcp').click();
  await page.getByTestId('settings-page-mcp').waitFor();
}

describe('e2e: shared folders (MCP roots) in the browser host', () => {
  const app = useAppFixture([{ content: 'Hello from the scripted model.' }]);

  beforeAll(async () => {
    // The service exists before the page opens (the CLI and serve share the data directory).
    const added = await runCli(
      [
        'mcp',
        'add',
        '--name',
        'files',
        '--icon',
        '📁',
        '--url',
        'http://127.0.0.1:9/mcp',
        '--description',
        'Reads the notes in the folders you share.',
      ],
      cliEnv(app().serve.home),
    );
    expect(added.code, added.stderr).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(folders, { recursive: true, force: true }));

  it('adds a folder (by its real path) and removes it on the service card', async () => {
    const { page } = app().browser;
    const notes = join(folders, 'notes');
    mkdirSync(notes);
    const link = join(folders, 'notes-link');
    symlinkSync(notes, link);
    await page.goto(app().serve.url);
    await openMcpSettings(page);
    const card = page.getByTestId('mcp-service').and(page.locator('[data-name="files"]'));
    const roots = card.getByTestId('mcp-roots');
    await roots.getByTestId('mcp-roots-empty').waitFor();
    expect(await roots.getByTestId('mcp-roots-empty').textContent()).toContain('files');
    expect(await roots.getByTestId('mcp-root-pick').count()).toBe(0);
    expect(await roots.getByTestId('mcp-root-add').isDisabled()).toBe(true);

    await roots.getByTestId('mcp-root-path').fill('notes');
    await roots.getByTestId('mcp-root-add').click();
    await roots.getByTestId('mcp-roots-error').waitFor();
    expect(await roots.getByTestId('mcp-roots-error').textContent()).toContain('absolute path');

    await roots.getByTestId('mcp-root-path').fill(link);
    await roots.getByTestId('mcp-root-name').fill('Notes');
    await roots.getByTestId('mcp-root-add').click();
    const item = roots.getByTestId('mcp-root');
    await item.waitFor();
    expect(await item.getAttribute('data-path')).toBe(notes);
    expect(await item.textContent()).toContain('Notes');
    expect(await roots.getByTestId('mcp-roots-error').count()).toBe(0);
    expect(await roots.getByTestId('mcp-root-path').inputValue()).toBe('');
    await screenshot(page, 'mcp-roots');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
        .toBe(scheme);
      expect(await seriousViolations(page), scheme).toEqual([]);
    }

    // The same folder again: refused, the list unchanged.
    await roots.getByTestId('mcp-root-path').fill(notes);
    await roots.getByTestId('mcp-root-path').press('Enter');
    await roots.getByTestId('mcp-roots-error').waitFor();
    expect(await roots.getByTestId('mcp-roots-error').textContent()).toContain('already shared');
    expect(await roots.getByTestId('mcp-root').count()).toBe(1);

    await page.reload();
    await openMcpSettings(page);
    await roots.getByTestId('mcp-root').waitFor();
    expect(await roots.getAttribute('data-count')).toBe('1');
    const listed = await runCli(['mcp', 'roots', 'files'], cliEnv(app().serve.home));
    expect(listed.stdout).toBe(`${notes}\tNotes\n`);

    await roots.getByTestId('mcp-root-remove').click();
    await roots.getByTestId('mcp-roots-empty').waitFor();
    expect(await roots.getByTestId('mcp-root').count()).toBe(0);
    const after = await runCli(['mcp', 'roots', 'files'], cliEnv(app().serve.home));
    expect(after.stdout).toBe('No folders shared with files.\n');
  }, 90_000);
});
