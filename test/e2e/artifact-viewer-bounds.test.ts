/// <reference lib="dom" />
/**
 * e2e: the attack's small files that expand past everything (issue 37) opened in the viewer, with
 * the renderer's memory watched, and a page that dies while opening a file (`aivory serve`,
 * Chromium). The test builds the files (`test/support/office-bombs.ts`): a 0.8 MB workbook whose
 * 4 million tiny cells name 300-character shared strings (1.2 billion characters expanded; before
 * the fix the reader kept them all and the page died), and a ~100 KB document of 400,000
 * paragraphs (30 MB of XML, 1.6 million elements; mammoth, unbounded, built a DOM of all of it).
 * Each must end in "too large to show here" with a way out, the page alive and its renderer
 * processes' peak resident memory (Chromium's own processes: its own browser, not the run's shared
 * one, so every renderer counted is this test's) under MEMORY_BOUND. Then a tab that crashes
 * (CDP `Page.crash`) while the viewer is opening a file loads again into the conversation, names
 * the file and does not open it. Screenshots: docs/screenshots/artifact-too-large*.png.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildParagraphBomb, buildSharedStringBomb } from '../support/office-bombs';
import { CHROMIUM_PATH, SCREENSHOT_DIR, screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';
import { filesScript, HELLO_ANSWER } from './helpers/files-script';

const POLL = { timeout: 60_000 };
/** Peak resident memory allowed to any renderer process (the attack took one to ~5.2 GB). */
const MEMORY_BOUND = 1024 * 1024 * 1024;

/** Peak and current resident bytes of each renderer process of `browser` (Linux /proc). */
async function rendererMemory(browser: Browser): Promise<{ peak: number; now: number }[]> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: { id: number; type: string }[];
    };
    return processInfo
      .filter((process) => process.type === 'renderer')
      .flatMap((process) => {
        try {
          const status = readFileSync(`/proc/${process.id}/status`, 'utf8');
          const kib = (field: string): number =>
            Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
          return [{ peak: kib('VmHWM'), now: kib('VmRSS') }];
        } catch {
          return [];
        }
      });
  } finally {
    await session.detach();
  }
}

describe('e2e: files that expand past every bound are refused, and a crashed tab recovers', () => {
  const app = useAppFixture(filesScript);
  const folder = mkdtempSync(join(tmpdir(), 'aivory-bombs-'));
  const paths: string[] = [];
  let browser: Browser;
  let page: Page;
  const crashes: string[] = [];

  beforeAll(async () => {
    const file = (name: string, body: Buffer): void => {
      const path = join(folder, name);
      writeFileSync(path, body);
      paths.push(path);
    };
    file(
      'bomb.xlsx',
      buildSharedStringBomb({ strings: 50, length: 300, rows: 20_000, columns: 200 }),
    );
    file('bomb.docx', buildParagraphBomb(400_000));
    file('notes.txt', Buffer.from('A small file, opened while the tab dies.\n'));
    // A Chromium of its own: the renderer processes measured are this test's only.
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.on('crash', () => crashes.push(page.url()));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const chip = (name: string) =>
    page.locator(`[data-testid="message-file"][data-name="${name}"] [data-testid="file-view"]`);
  const panel = () => page.getByTestId('artifact-panel');

  it('sends the files in a message', async () => {
    await page.goto(app().serve.url);
    await page.getByTestId('composer-attach-input').setInputFiles(paths);
    await expect.poll(() => page.getByTestId('composer-attachment').count(), POLL).toBe(3);
    await page.getByTestId('composer-input').fill('Here are the files');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').filter({ hasText: HELLO_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    await expect.poll(() => page.getByTestId('file-view').count(), POLL).toBe(3);
  }, 120_000);

  it('a shared-string bomb XLSX: "too large to show here", the page alive, memory bounded', async () => {
    await chip('bomb.xlsx').click();
    await expect.poll(() => panel().getAttribute('data-kind'), POLL).toBe('xlsx');
    const message = page.getByTestId('artifact-too-large');
    await expect
      .poll(() => message.textContent(), { timeout: 120_000 })
      .toContain('Too large to show here: its cells expand to too much text. Download it');
    // The way out: the browser downloads the file.
    expect(await page.getByTestId('artifact-too-large-download').getAttribute('href')).toMatch(
      /\/files\?.*download=1/,
    );
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    expect(crashes).toEqual([]);
    const memory = await rendererMemory(browser);
    console.log(
      `bomb.xlsx renderer memory (MB): ${JSON.stringify(memory.map((m) => Math.round(m.peak / 1048576)))}`,
    );
    expect(memory.length).toBeGreaterThan(0);
    for (const process of memory) expect(process.peak).toBeLessThan(MEMORY_BOUND);
    await screenshot(page, 'artifact-too-large');
  }, 180_000);

  it('an unbounded DOCX: refused before mammoth builds it, memory bounded', async () => {
    await chip('bomb.docx').click();
    await expect.poll(() => panel().getAttribute('data-kind'), POLL).toBe('docx');
    await expect
      .poll(() => page.getByTestId('artifact-too-large').textContent(), { timeout: 120_000 })
      .toContain('Too large to show here: it has too many parts');
    expect(await page.evaluate(() => document.title.length > 0)).toBe(true);
    expect(crashes).toEqual([]);
    const memory = await rendererMemory(browser);
    console.log(
      `bomb.docx renderer memory (MB): ${JSON.stringify(memory.map((m) => Math.round(m.peak / 1048576)))}`,
    );
    for (const process of memory) expect(process.peak).toBeLessThan(MEMORY_BOUND);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    // Nothing scrolls sideways once the narrow layout is in (polled: it follows the resize).
    await expect
      .poll(
        () =>
          page.evaluate(
            () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
          ),
        POLL,
      )
      .toBe(false);
    await screenshot(page, 'artifact-too-large-390-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('Escape');
    await expect.poll(() => panel().count(), POLL).toBe(0);
  }, 180_000);

  it('a tab that dies while opening a file loads again into the conversation, naming the file', async () => {
    // The file's body never comes (the page's own fetch is held for it): the viewer stays
    // "opening" it until the tab dies.
    await page.evaluate(() => {
      const fetchFile = window.fetch.bind(window);
      window.fetch = (input, init) =>
        String(input instanceof Request ? input.url : input).includes('notes.txt')
          ? new Promise<Response>(() => undefined)
          : fetchFile(input, init);
    });
    await chip('notes.txt').click();
    await expect.poll(() => page.getByTestId('artifact-loading').count(), POLL).toBe(1);
    expect(
      await page.evaluate(() => window.sessionStorage.getItem('aivory.viewerOpening')),
    ).toContain('notes.txt');
    const session = await page.context().newCDPSession(page);
    // Never answered: the page is gone. Playwright's page is unusable after a crash, so the same
    // tab is driven through its CDP session from here on (its sessionStorage is the tab's).
    void session.send('Page.crash').catch(() => undefined);
    await expect.poll(() => crashes.length, POLL).toBe(1);
    const evaluate = async (expression: string): Promise<unknown> => {
      const answer = (await session.send('Runtime.evaluate', {
        expression,
        returnByValue: true,
      })) as { result: { value?: unknown } };
      return answer.result.value;
    };
    // Load the tab again, as its user would. A crashed tab answers no evaluation, and a load sent
    // while the browser is still taking the crash in can be dropped: it is sent again (each
    // evaluation given 5 s as a hang guard) until the app is up.
    const origin = new URL(app().serve.url).origin;
    await session.send('Page.navigate', { url: `${origin}/` });
    const appUp = async (): Promise<boolean> => {
      const where = evaluate('location.origin').catch(() => 'gone');
      const guard = new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 5_000));
      if ((await Promise.race([where, guard])) !== origin) {
        // Still the crashed tab, or an error page of a dropped load: load it again.
        await session.send('Page.navigate', { url: `${origin}/` }).catch(() => undefined);
        return false;
      }
      return (
        (await evaluate(`document.querySelector('[data-testid="composer-input"]') !== null`)) ===
        true
      );
    };
    await expect.poll(appUp, POLL).toBe(true);
    const text = (testId: string) =>
      evaluate(`document.querySelector('[data-testid="${testId}"]')?.textContent ?? null`);
    await expect
      .poll(() => text('recovery-notice'), POLL)
      .toContain('It stopped while opening “notes.txt” in the viewer, which was not opened again');
    // Back in the conversation, with its files; the file is not opened again.
    await expect
      .poll(() => evaluate(`document.querySelectorAll('[data-testid="file-view"]').length`), POLL)
      .toBe(3);
    expect(await text('artifact-panel')).toBeNull();
    expect(await evaluate(`sessionStorage.getItem('aivory.viewerOpening')`)).toBeNull();
    const shot = (await session.send('Page.captureScreenshot', { format: 'png' })) as {
      data: string;
    };
    writeFileSync(join(SCREENSHOT_DIR, 'recovery-notice.png'), Buffer.from(shot.data, 'base64'));
    // Once said, it is not said again.
    await session.send('Page.reload');
    await expect
      .poll(() => evaluate(`document.querySelectorAll('[data-testid="file-view"]').length`), POLL)
      .toBe(3);
    expect(await text('recovery-notice')).toBeNull();
    // What the desktop window loads after its renderer died (crash-recovery.ts): the reason is
    // said, and taken off the address bar.
    await session.send('Page.navigate', { url: `${origin}/?stopped=oom` });
    await expect
      .poll(() => text('recovery-notice'), POLL)
      .toContain('The window stopped (out of memory) and was reloaded.');
    expect(await evaluate('location.search')).toBe('');
    await expect
      .poll(() => evaluate(`document.querySelectorAll('[data-testid="file-view"]').length`), POLL)
      .toBe(3);
  }, 120_000);
});
