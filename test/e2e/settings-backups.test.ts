/**
 * Settings → Data → Backups in the browser host (issue 42, item 3): "Back up now" writes and
 * verifies a backup with its progress shown, and the page then tells its age, file, size and that
 * the secrets were left out; an automatic backup that fails in the running serve (its folder is a
 * file) is announced at once — a banner and the page's warning with the reason — without a
 * reload. The section at 1440×900, 720×480 and 390 wide, light and dark
 * (docs/screenshots/settings-data-backups-*.png), with no serious axe violation and nothing wider
 * than the window.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/run-cli';
import { seriousViolations } from './helpers/axe';
import { useAppFixture } from './helpers/app-fixture';
import { screenshot } from './helpers/browser';

async function openDataPage(page: Page): Promise<void> {
  await page.getByTestId('settings-open').click();
  await page.getByTestId('settings-nav-data').click();
  await page.getByTestId('backups').waitFor();
}

async function widest(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe('e2e: Settings → Data → Backups', () => {
  const app = useAppFixture(() => ({ content: 'ok' }), {
    env: { AIVORY_BACKUP_CHECK_MS: '200' },
  });

  it('backs up now, shows the progress, then the verified backup', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(app().serve.url);
    await openDataPage(page);
    await expect
      .poll(() => page.getByTestId('backup-last-good').textContent())
      .toBe('No verified backup yet.');
    expect(await page.getByTestId('backup-warning').count()).toBe(0);

    const frames: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && payload.includes('"backups.progress"'))
          frames.push(payload);
      }),
    );
    await page.reload();
    await openDataPage(page);
    await page.getByTestId('backup-now').click();
    await page.getByTestId('backup-done').waitFor();
    expect(frames.some((frame) => frame.includes('"phase":"database"'))).toBe(true);
    expect(frames.some((frame) => frame.includes('"phase":"files"'))).toBe(true);
    const shown = (await page.getByTestId('backup-last-good').textContent()) ?? '';
    expect(shown).toMatch(/^Last verified backup: \d+ seconds? ago/);
    const file = /(\/\S+\/backups\/aivory-backup-\d{8}-\d{6}\.tar) \(\d/.exec(shown)?.[1];
    expect(file).toBeDefined();
    expect(existsSync(file!)).toBe(true);
    expect(shown).toContain('No secrets were stored.');
    const status = await runCli(['backup', 'status', '--json'], cliEnv(app().serve.home));
    expect(JSON.parse(status.stdout)).toMatchObject({ health: 'ok', lastGood: { file } });
    expect(await seriousViolations(page, '[data-testid="backups"]')).toEqual([]);
    await page.getByTestId('backups').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-data-backups-1440-light');
  });

  it('announces a failed automatic backup with its reason, in the banner and the page', async () => {
    const { page } = app().browser;
    const { home } = app().serve;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await openDataPage(page);
    const notAFolder = join(home, 'not-a-folder');
    writeFileSync(notAFolder, 'a file');
    // Set from another process while the page is open: serve's next check fails and says so.
    for (const [field, value] of [
      ['backups.folder', notAFolder],
      ['backups.intervalHours', '1'],
      ['backups.auto', 'true'],
    ]) {
      expect((await runCli(['settings', 'set', field!, value!], cliEnv(home))).code).toBe(0);
    }
    // The last good backup is recent, so only an old one makes the schedule due: back-date it.
    const database = join(home, 'aivory.db');
    const Database = (await import('better-sqlite3')).default;
    const sqlite = new Database(database);
    try {
      const row = sqlite
        .prepare("SELECT value FROM settings WHERE key = 'backup-status'")
        .get() as {
        value: string;
      };
      const status = JSON.parse(row.value) as Record<'last' | 'lastGood', Record<string, number>>;
      for (const attempt of [status.last, status.lastGood]) {
        attempt.at! -= 2 * 3_600_000;
        attempt.verifiedAt! -= 2 * 3_600_000;
      }
      sqlite
        .prepare("UPDATE settings SET value = ? WHERE key = 'backup-status'")
        .run(JSON.stringify(status));
    } finally {
      sqlite.close();
    }
    const banner = page.getByTestId('backup-failed-banner');
    await banner.waitFor();
    const reason = `The backup folder ${notAFolder} is a file, not a folder: choose a folder in Settings → Data → Backups.`;
    expect(await banner.textContent()).toContain(`A backup failed: ${reason}`);
    const warning = page.getByTestId('backup-warning');
    await warning.waitFor();
    expect(await warning.getAttribute('data-health')).toBe('failed');
    expect(await warning.textContent()).toMatch(/^The last backup failed \(\d+ seconds? ago\): /);
    expect(await warning.textContent()).toContain(reason);
    // The schedule set by the CLI shows in the open form.
    expect(await page.getByTestId('backup-auto').isChecked()).toBe(true);
    expect(await page.getByTestId('backup-folder').inputValue()).toBe(notAFolder);
    // The verified backup made before is still the one shown.
    expect(await page.getByTestId('backup-last-good').textContent()).toMatch(
      /^Last verified backup: 2 hours ago/,
    );
    const doctor = await runCli(['doctor'], cliEnv(home));
    expect(doctor.stdout).toContain(`✗ backup: The last backup failed`);
    expect(doctor.stdout).toContain(reason);
    await page.getByTestId('backups').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-data-backups-1440-light-failed');
  });

  it('fits at 1440×900 dark, 720×480 and 390 wide, light and dark', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await openDataPage(page);
    await page.getByTestId('backup-include-secrets').check();
    for (const [width, height, scheme, name] of [
      [1440, 900, 'dark', 'settings-data-backups-1440-dark'],
      [720, 480, 'light', 'settings-data-backups-720-light'],
      [720, 480, 'dark', 'settings-data-backups-720-dark'],
      [390, 844, 'light', 'settings-data-backups-390-light'],
      [390, 844, 'dark', 'settings-data-backups-390-dark'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByTestId('backups').scrollIntoViewIfNeeded();
      expect(await widest(page), name).toBeLessThanOrEqual(0);
      const button = await page.getByTestId('backup-now').boundingBox();
      expect(button && button.x + button.width <= width, name).toBe(true);
      await screenshot(page, name);
    }
    expect(await seriousViolations(page, '[data-testid="backups"]')).toEqual([]);
  });
});
