/**
 * e2e (real sandbox, `aivory serve`, the scripted model, Chromium): a conversation whose only
 * sandbox save is damaged. Its python_execute call fails and the cell offers "Start with an empty
 * workspace"; the button asks first, then says where the damaged save is kept (the file is there,
 * byte for byte), and the next run starts with an empty /workspace.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { Locator } from 'playwright-core';
import type { TestBrowser } from './helpers/browser';
import { openBrowser } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const CONVERSATION = 'conv_damaged_save';
/** The sandbox starts on the first python_execute turn: a container on a loaded machine. */
const SANDBOX_TIMEOUT_MS = 120_000;
const POLL = { timeout: 30_000 };

/**
 * Clicks `target` until `shown` appears. The turn's end redraws its cells from the store (the
 * live card gives way to the stored one), and a click landing in that instant reaches neither:
 * one fresh-clone run lost the click on "Start with an empty workspace" so.
 */
async function clickUntilShown(target: Locator, shown: Locator): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await target.click();
    try {
      await shown.waitFor({ timeout: 3000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
const LIST_FILES = `import os
print(sorted(os.path.relpath(os.path.join(r, f), '/workspace') for r, _, fs in os.walk('/workspace') for f in fs))`;
const call = (code: string) =>
  `<tool_call>${JSON.stringify({ name: 'python_execute', arguments: { code } })}</tool_call>`;

/** The conversation in `home`'s database, and a save of its workspace cut in half. */
function seed(home: string, archiveDir: string): Buffer {
  const store = openStore(join(home, 'aivory.db'));
  try {
    store.conversations.createConversation({
      id: CONVERSATION,
      title: 'Damaged save',
      modelId: null,
    });
  } finally {
    store.close();
  }
  const source = mkdtempSync(join(tmpdir(), 'aivory-e2e-workspace-'));
  writeFileSync(join(source, 'report.txt'), 'lost words '.repeat(2000));
  const tar = execFileSync('tar', ['-c', '-C', source, '.']);
  rmSync(source, { recursive: true, force: true });
  const damaged = tar.subarray(0, Math.floor(tar.length / 2));
  mkdirSync(archiveDir, { recursive: true, mode: 0o700 });
  writeFileSync(archivePath(archiveDir), damaged);
  return damaged;
}

function archivePath(archiveDir: string): string {
  return join(archiveDir, `${createHash('sha256').update(CONVERSATION).digest('hex')}.tar.gz`);
}

describe('e2e: starting with an empty workspace when the only save is damaged', () => {
  let home: string;
  let archiveDir: string;
  let damaged: Buffer;
  let llm: ScriptedLlmServer;
  let serve: RunningServe | undefined;
  let browser: TestBrowser;

  beforeAll(async () => {
    requireDockerAndImage();
    home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
    archiveDir = join(home, 'archives');
    damaged = seed(home, archiveDir);
    llm = await startScriptedLlmServer([
      { content: call(LIST_FILES) },
      { content: 'The sandbox files could not be restored.' },
      { content: call(LIST_FILES) },
      { content: 'The workspace is empty.' },
    ]);
    serve = await serveAt(home, {
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'prompt',
      AIVORY_LOCAL_SANDBOX: '1',
      SANDBOX_ARCHIVE_DIR: archiveDir,
    });
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await llm?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it(
    'the failed cell offers the choice; it asks, keeps the save aside, and the next run is empty',
    async () => {
      const { page } = browser;
      await page.goto(serve?.url ?? '');
      await page.getByTestId('conversation-item').filter({ hasText: 'Damaged save' }).click();
      await page.getByTestId('composer-input').fill('List the files');
      await page.getByTestId('composer-input').press('Enter');

      const cells = page
        .getByTestId('tool-trace')
        .and(page.locator('[data-tool-name="python_execute"]'));
      const failed = cells.first();
      // The first turn waits for the local sandbox to start (serve keeps a warm container)
      // before it asks the model, so the cell shows as late as the sandbox starts.
      await failed.waitFor({ timeout: SANDBOX_TIMEOUT_MS });
      await expect
        .poll(() => failed.getAttribute('data-status'), { timeout: SANDBOX_TIMEOUT_MS })
        .toBe('error');
      const archive = archivePath(archiveDir);
      expect(await failed.getByTestId('cell-other').textContent()).toContain(
        `the damaged save is kept (${archive})`,
      );
      const button = failed.getByTestId('workspace-reset');
      expect(await button.textContent()).toBe('Start with an empty workspace');

      // Cancel changes nothing.
      await clickUntilShown(button, page.getByTestId('confirm-cancel'));
      await page.getByTestId('confirm-cancel').click();
      expect(readFileSync(archive).equals(damaged)).toBe(true);

      await clickUntilShown(button, page.getByTestId('confirm-accept'));
      await page.getByTestId('confirm-accept').click();
      const done = failed.getByTestId('workspace-reset-done');
      await done.waitFor(POLL);
      const kept = /kept at: (\S+)$/.exec((await done.textContent()) ?? '')?.[1] ?? '';
      expect(kept).toMatch(new RegExp(`^${archive}\\.damaged-[\\dT-]+Z$`));
      expect(readFileSync(kept).equals(damaged)).toBe(true);
      expect(existsSync(archive)).toBe(false);

      await page.getByTestId('composer-input').fill('List them again');
      await page.getByTestId('composer-input').press('Enter');
      const next = cells.nth(1);
      await next.waitFor(POLL);
      await expect
        .poll(() => next.getAttribute('data-status'), { timeout: SANDBOX_TIMEOUT_MS })
        .toBe('ok');
      // Done well, the cell is folded to its head: open it.
      await next.getByTestId('tool-trace-toggle').click();
      expect(await next.getByTestId('cell-stdout').textContent()).toBe('[]\n');
    },
    SANDBOX_TIMEOUT_MS * 3,
  );
});
