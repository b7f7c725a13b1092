/// <reference lib="dom" />
/**
 * e2e: the artifact viewer (`aivory serve`, the scripted model, Chromium). The files are shipped
 * by the test as attachments of one message (the sandbox is not needed to make them: files.test.ts
 * covers a sandbox-made plot; attachments and artifacts share the chip and the `/files` route).
 * Each viewer opens from its chip and shows its text or cell: Markdown, JSON, code, an image, a
 * 100,000 × 50 CSV (scrolled end to end; the page's long tasks meanwhile are printed, not
 * enforced: on the shared 2-core test machine other processes' load lands in them), an SVG and an
 * HTML page whose script runs in its isolated frame but reaches neither the app, its API, the top
 * window nor the network (a loopback listener the test starts sees no request). Esc closes; `]` /
 * `[` step through the conversation's files; the panel fills the window at 720×480 and 390 wide.
 * Screenshots: docs/screenshots/artifact-*.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startObserving, stopObserving } from '../../bench/ui/page-probes';
import { buildPng } from '../support/fetch-images';
import { openBrowser, screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';
import { filesScript, HELLO_ANSWER } from './helpers/files-script';

const POLL = { timeout: 30_000 };
const ROWS = 100_000;
const COLUMNS = 50;

/** The big table: a header `c0…c49`, then row r's cells `r`, and `(r·7 + c) mod 1000`. */
function bigCsv(): Buffer {
  const lines = [Array.from({ length: COLUMNS }, (_, column) => `c${column}`).join(',')];
  for (let row = 1; row <= ROWS; row++) {
    const cells = [String(row)];
    for (let column = 1; column < COLUMNS; column++) cells.push(String((row * 7 + column) % 1000));
    lines.push(cells.join(','));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** A page that writes to its own DOM, then tries every way out it can think of. */
function attackPage(listener: string): string {
  return `<!doctype html><html><head><title>probe</title></head><body>
<h1 id="title">Sandboxed report</h1><ul id="results"></ul>
<button id="navigate" onclick="location.href='${listener}/self-navigation'">go</button>
<script>
  const note = (name, value) => {
    const item = document.createElement('li');
    item.dataset.name = name;
    item.textContent = name + ': ' + value;
    document.getElementById('results').append(item);
  };
  document.getElementById('title').textContent = 'Script ran in the frame';
  fetch('/api/conversations').then(() => note('api', 'reached'), () => note('api', 'blocked'));
  fetch('${listener}/fetch').then(() => note('outside', 'reached'), () => note('outside', 'blocked'));
  const image = new Image();
  image.onload = () => note('image', 'reached');
  image.onerror = () => note('image', 'blocked');
  image.src = '${listener}/image.png';
  try { top.location = '${listener}/top'; note('top', 'no error'); } catch (e) { note('top', 'blocked'); }
  try { note('token', String(parent.sessionStorage.length)); } catch (e) { note('token', 'blocked'); }
  try { note('cookie', String(document.cookie)); } catch (e) { note('cookie', 'blocked'); }
  try { window.open('${listener}/popup') ? note('popup', 'opened') : note('popup', 'blocked'); } catch (e) { note('popup', 'blocked'); }
  parent.postMessage({ type: 'aivory-steal', html: '<b>owned</b>' }, '*');
  note('posted', 'yes');
</script></body></html>`;
}

const FILES = {
  markdown: { name: 'notes.md', text: '# Quarterly notes\n\n- **Revenue** grew by 12 %\n' },
  json: { name: 'data.json', text: '{"city":"Oslo","visits":[3,5]}' },
  code: { name: 'fit.py', text: 'def fit(points):\n    # least squares\n    return sum(points)\n' },
  svg: {
    name: 'chart.svg',
    text: '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"><text id="label" x="10" y="40">SVG label</text></svg>',
  },
};

describe('e2e: the artifact viewer', () => {
  const app = useAppFixture(filesScript);
  /** What reached the test's own loopback listener: HTTP requests, and bare TCP connections. */
  const requests: string[] = [];
  let connections = 0;
  const listener = createServer((request: IncomingMessage, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(204).end();
  });
  listener.on('connection', () => (connections += 1));
  let listenerUrl = '';
  // The big table goes to the browser as a file on disk (a 20 MB buffer over CDP is slow).
  const folder = mkdtempSync(join(tmpdir(), 'aivory-artifacts-'));
  const csvPath = join(folder, 'table.csv');

  beforeAll(async () => {
    writeFileSync(csvPath, bigCsv());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    rmSync(folder, { recursive: true, force: true });
  });

  /** Sends one message with every test file attached; waits for the stored message's chips. */
  async function sendFiles(page: Page): Promise<void> {
    const file = (name: string, body: string | Buffer): string => {
      const path = join(folder, name);
      writeFileSync(path, body);
      return path;
    };
    await page.goto(app().serve.url);
    await page
      .getByTestId('composer-attach-input')
      .setInputFiles(
        [
          file(FILES.markdown.name, FILES.markdown.text),
          file(FILES.json.name, FILES.json.text),
          file(FILES.code.name, FILES.code.text),
          file('plot.png', buildPng(96, 64, [40, 120, 200])),
          csvPath,
          file(FILES.svg.name, FILES.svg.text),
          file('report.html', attackPage(listenerUrl)),
        ],
        { timeout: 60_000 },
      );
    await expect.poll(() => page.getByTestId('composer-attachment').count(), POLL).toBe(7);
    await page.getByTestId('composer-input').fill('Here are the files');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').filter({ hasText: HELLO_ANSWER });
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 90_000 })
      .toBe('complete');
    await expect.poll(() => page.getByTestId('file-view').count(), POLL).toBe(7);
  }

  function chip(page: Page, name: string) {
    return page.locator(
      `[data-testid="message-file"][data-name="${name}"] [data-testid="file-view"]`,
    );
  }

  function panel(page: Page) {
    return page.getByTestId('artifact-panel');
  }

  it('text, Markdown, JSON, code and an image open from their chips; Esc closes, ] and [ step', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await sendFiles(page);

    await chip(page, 'notes.md').click();
    await expect.poll(() => panel(page).getAttribute('data-kind'), POLL).toBe('markdown');
    const heading = panel(page).locator('.markdown h3');
    await expect.poll(() => heading.textContent(), POLL).toBe('Quarterly notes');
    expect(await panel(page).locator('strong').textContent()).toBe('Revenue');
    expect(await page.getByTestId('artifact-position').textContent()).toBe('1 of 7');
    // The panel is a column beside the chat, not over it.
    const chatBox = await page.locator('.chat').boundingBox();
    const panelBox = await panel(page).boundingBox();
    expect(chatBox && panelBox && chatBox.x + chatBox.width <= panelBox.x + 1).toBe(true);
    await screenshot(page, 'artifact-markdown');

    await page.keyboard.press(']');
    await expect
      .poll(() => page.getByTestId('artifact-title').textContent(), POLL)
      .toBe('data.json');
    const source = panel(page).locator('.code-block');
    await expect.poll(() => source.textContent(), POLL).toContain('"city": "Oslo"');
    await expect.poll(() => source.locator('.hljs-string').count(), POLL).toBeGreaterThan(0);

    await page.keyboard.press(']');
    await expect.poll(() => page.getByTestId('artifact-title').textContent(), POLL).toBe('fit.py');
    await expect
      .poll(() => panel(page).locator('.hljs-comment').textContent(), POLL)
      .toBe('# least squares');
    await page.keyboard.press('[');
    await expect
      .poll(() => page.getByTestId('artifact-title').textContent(), POLL)
      .toBe('data.json');

    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count(), POLL).toBe(0);
    await expect
      .poll(() => page.locator('.layout').getAttribute('data-artifact'), POLL)
      .toBe('closed');

    await page.getByTestId('file-view-image').click();
    const image = panel(page).getByTestId('artifact-image');
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth), POLL)
      .toBe(96);
    await page.emulateMedia({ colorScheme: 'dark' });
    await chip(page, 'fit.py').click();
    await expect.poll(() => panel(page).locator('.hljs-comment').count(), POLL).toBe(1);
    await screenshot(page, 'artifact-code-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('artifact-close').click();
    await expect.poll(() => panel(page).count(), POLL).toBe(0);
  }, 180_000);

  it('a 100,000 × 50 CSV shows its first and last cells, scrolled end to end', async () => {
    const { page } = app().browser;
    await chip(page, 'table.csv').click();
    const scroller = page.getByTestId('csv-scroller');
    await expect
      .poll(() => scroller.getAttribute('aria-rowcount'), { timeout: 60_000 })
      .toBe(String(ROWS + 1));
    const firstRow = page.getByTestId('csv-row').first();
    await expect.poll(() => firstRow.locator('[role="cell"]').nth(1).textContent(), POLL).toBe('8');
    expect(await page.locator('[role="columnheader"]').first().textContent()).toBe('c0');
    expect(await panel(page).locator('.artifact-note').textContent()).toContain('100,000 rows');
    await screenshot(page, 'artifact-csv');
    await startObserving(page);
    // Scroll to the end in 40 steps, a frame apart, as a dragged scrollbar would.
    await page.evaluate(async () => {
      const element = document.querySelector<HTMLElement>('[data-testid="csv-scroller"]');
      if (element === null) throw new Error('no table');
      for (let step = 1; step <= 40; step++) {
        element.scrollTop = (element.scrollHeight * step) / 40;
        element.scrollLeft = (element.scrollWidth * step) / 40;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    });
    const last = page
      .getByTestId('csv-row')
      .filter({ hasText: String(ROWS) })
      .last();
    const expected = String((ROWS * 7 + 49) % 1000);
    await expect
      .poll(() => last.locator(`[role="cell"][aria-colindex="${COLUMNS}"]`).textContent(), POLL)
      .toBe(expected);
    const stats = await stopObserving(page);
    // The figure is printed, not enforced: on this shared 2-core machine other work's long tasks
    // land in the page too (see the report / bench notes).
    console.log(`artifact CSV scroll: ${JSON.stringify(stats)}`);
    expect(
      await page.locator(`[role="columnheader"][aria-colindex="${COLUMNS}"]`).textContent(),
    ).toBe(`c${COLUMNS - 1}`);
    await page.keyboard.press('Escape');
  }, 180_000);

  it('an HTML page runs its own script isolated: no API, no top navigation, no network', async () => {
    const { page } = app().browser;
    await page.evaluate(() => {
      const received: unknown[] = [];
      (window as unknown as { __received: unknown[] }).__received = received;
      window.addEventListener('message', (event) => received.push(event.origin));
    });
    const appUrl = page.url();
    await chip(page, 'report.html').click();
    // A browser tab shows the page without its scripts until they are run by choice
    // (artifact-frame-webrtc.test.ts); here they run, and still reach nothing.
    await page.getByTestId('artifact-run-scripts').click();
    const frame = page.frameLocator('[data-testid="artifact-frame"]');
    await expect
      .poll(() => frame.locator('#title').textContent(), POLL)
      .toBe('Script ran in the frame');
    const result = (name: string) => frame.locator(`li[data-name="${name}"]`).textContent();
    await expect.poll(() => result('api'), POLL).toBe('api: blocked');
    await expect.poll(() => result('outside'), POLL).toBe('outside: blocked');
    await expect.poll(() => result('image'), POLL).toBe('image: blocked');
    expect(await result('token')).toBe('token: blocked');
    expect(await result('cookie')).toBe('cookie: blocked');
    expect(await result('popup')).toBe('popup: blocked');
    // The page's message reached the app's window only as from an opaque origin ("null"), and
    // the app did nothing with it.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __received: unknown[] }).__received))
      .toEqual(['null']);
    expect(page.url()).toBe(appUrl);
    await screenshot(page, 'artifact-html');
    // Nothing so far even opened a connection to the listener.
    expect({ requests, connections }).toEqual({ requests: [], connections: 0 });
    // The frame navigating itself away is refused too (the app's frame-src).
    await frame.locator('#navigate').click();
    await page.getByTestId('artifact-source-toggle').click();
    await expect
      .poll(() => panel(page).locator('.code-block').textContent(), POLL)
      .toContain('Sandboxed report');
    expect(page.url()).toBe(appUrl);
    expect(page.context().pages()).toHaveLength(1);

    await chip(page, 'chart.svg').click();
    const svgFrame = page.frameLocator('[data-testid="artifact-frame"]');
    await expect.poll(() => svgFrame.locator('#label').textContent(), POLL).toBe('SVG label');
    // No request ever arrived. (Chromium may open a bare TCP connection to the address of a
    // refused frame navigation before refusing it; no request is sent on it.)
    expect(requests).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count(), POLL).toBe(0);
  }, 120_000);

  it('fills the window at 720×480 and 390 wide, in both themes', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 720, height: 480 });
    await chip(page, 'notes.md').click();
    await expect
      .poll(() => panel(page).locator('.markdown h3').textContent(), POLL)
      .toBe('Quarterly notes');
    const box = await panel(page).boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 720, height: 480 });
    await screenshot(page, 'artifact-720');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.keyboard.press(']');
    await expect.poll(() => panel(page).locator('.hljs-string').count(), POLL).toBeGreaterThan(0);
    await screenshot(page, 'artifact-720-dark');
    await page.setViewportSize({ width: 390, height: 800 });
    const narrow = await panel(page).boundingBox();
    expect(narrow?.width).toBe(390);
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(sideways).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count(), POLL).toBe(0);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('file-view-image').click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => panel(page).getAttribute('data-kind'), POLL).toBe('image');
    await screenshot(page, 'artifact-image-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
  }, 120_000);

  it('speaks 简体中文 in a Chinese browser', async () => {
    const chinese = await openBrowser('zh-CN');
    try {
      const page = chinese.page;
      await page.goto(app().serve.url);
      await page.getByTestId('conversation-item').filter({ hasText: 'Here are the files' }).click();
      await chip(page, 'report.html').click();
      await expect
        .poll(() => panel(page).getAttribute('aria-label'), POLL)
        .toBe('查看器：report.html');
      expect(await page.getByTestId('artifact-close').getAttribute('aria-label')).toBe(
        '关闭查看器（Esc）',
      );
      expect(await page.getByTestId('artifact-source-toggle').textContent()).toBe('显示源代码');
      expect(await page.getByTestId('artifact-position').textContent()).toBe('第 7 个，共 7 个');
    } finally {
      await chinese.close();
    }
  }, 120_000);
});
