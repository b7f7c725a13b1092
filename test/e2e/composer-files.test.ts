/**
 * e2e: files in the composer (`aivory serve`, the scripted model, Chromium). An image's chip
 * shows a thumbnail from an object URL of the local file, revoked when the chip goes; other
 * files show a file-type icon. Files dropped anywhere on the window attach (an overlay says so
 * while they are dragged over it, gone on leave, drop or Esc), through the same checks as the
 * attach button; a drag of text does nothing special; with a modal open there is no overlay and
 * nothing attaches. Screenshots: docs/screenshots/composer-files-*.png.
 */
import type { JSHandle, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildPng } from '../support/fetch-images';
import { screenshot } from './helpers/browser';
import { chatScript } from './helpers/chat-script';
import { useAppFixture } from './helpers/app-fixture';
import { watchConsoleErrors } from './helpers/console-errors';

const PNG = buildPng(64, 48, [40, 120, 200]);
const LONG_NAME = `${'quarterly-report-draft-'.repeat(13).slice(0, 296)}.txt`;

/** A DataTransfer in the page with files named `names` (text files), or only `text`. */
async function transfer(
  page: Page,
  content: { names?: string[]; text?: string },
): Promise<JSHandle<DataTransfer>> {
  return page.evaluateHandle(({ names, text }) => {
    const data = new DataTransfer();
    for (const name of names ?? []) {
      data.items.add(new File(['some notes\n'], name, { type: 'text/plain' }));
    }
    if (text !== undefined) data.setData('text/plain', text);
    return data;
  }, content);
}

/** Fires drag events on the element `testId` as a drag from the file manager would. */
async function drag(
  page: Page,
  testId: string,
  types: string[],
  data: JSHandle<DataTransfer>,
): Promise<void> {
  for (const type of types) {
    await page.getByTestId(testId).dispatchEvent(type, { dataTransfer: data });
  }
}

/** Waits until the page has drawn a frame after the events so far (React has rendered them). */
async function drawn(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );
}

function chips(page: Page) {
  return page.getByTestId('composer-attachment');
}

describe('e2e: files in the composer (thumbnails, drops on the window)', () => {
  const app = useAppFixture(chatScript);

  it('an image chip shows a thumbnail (an object URL, revoked on removal); others an icon', async () => {
    const { page } = app().browser;
    const errors = watchConsoleErrors(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(app().serve.url);
    await page.getByTestId('composer-attach-input').setInputFiles([
      { name: 'chart.png', mimeType: 'image/png', buffer: PNG },
      { name: 'visits.csv', mimeType: 'text/csv', buffer: Buffer.from('city,visits\nOslo,3\n') },
      { name: 'notes.py', mimeType: '', buffer: Buffer.from('print(1)\n') },
    ]);
    await expect.poll(() => chips(page).count()).toBe(3);
    const image = chips(page).filter({ hasText: 'chart.png' });
    const thumbnail = image.getByTestId('composer-attachment-thumbnail');
    await thumbnail.waitFor();
    const src = (await thumbnail.getAttribute('src')) ?? '';
    expect(src).toMatch(/^blob:/);
    await expect
      .poll(() =>
        thumbnail.evaluate((element) => {
          const img = element as HTMLImageElement;
          return img.complete ? `${img.naturalWidth}x${img.naturalHeight}` : 'loading';
        }),
      )
      .toBe('64x48');
    const csv = chips(page).filter({ hasText: 'visits.csv' });
    expect(await csv.getAttribute('data-kind')).toBe('sheet');
    expect(await csv.getByTestId('composer-attachment-icon').locator('svg').count()).toBe(1);
    expect(await csv.getByTestId('composer-attachment-thumbnail').count()).toBe(0);
    const python = chips(page).filter({ hasText: 'notes.py' });
    expect(await python.getAttribute('data-kind')).toBe('code');
    await screenshot(page, 'composer-files-1440-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    await screenshot(page, 'composer-files-1440-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'composer-files-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // While the chip is there its URL loads (as an image: the CSP's img-src allows blob:, its
    // connect-src does not); once removed, the URL is revoked and loads nothing.
    const fetched = (url: string) =>
      page.evaluate(
        (address) =>
          new Promise<string>((resolve) => {
            const probe = new Image();
            probe.onload = () => resolve('loaded');
            probe.onerror = () => resolve('revoked');
            probe.src = address;
          }),
        url,
      );
    expect(await fetched(src)).toBe('loaded');
    expect(errors.take()).toEqual([]);
    await image.getByTestId('composer-attachment-remove').click();
    await expect.poll(() => chips(page).count()).toBe(2);
    await expect.poll(() => fetched(src)).toBe('revoked');
    // The only console errors are the probe's own failed loads of the revoked URL.
    const probeErrors = errors.take();
    expect(probeErrors.length).toBeGreaterThan(0);
    expect(new Set(probeErrors)).toEqual(
      new Set(['console: Failed to load resource: net::ERR_FILE_NOT_FOUND']),
    );
  }, 60_000);

  it('files dropped anywhere on the window attach, with an overlay while dragging', async () => {
    const { page } = app().browser;
    const errors = watchConsoleErrors(page);
    await page.getByTestId('new-chat').click();
    await expect.poll(() => chips(page).count()).toBe(0);
    const overlay = page.getByTestId('drop-overlay');

    // Dragged over the messages and away again.
    const report = await transfer(page, { names: ['report.txt'] });
    await drag(page, 'messages', ['dragenter', 'dragover'], report);
    await overlay.waitFor();
    expect(await overlay.textContent()).toBe('Drop files to attach');
    await screenshot(page, 'composer-files-drop-overlay');
    await drag(page, 'messages', ['dragleave'], report);
    await overlay.waitFor({ state: 'detached' });

    // Esc takes the overlay away.
    await drag(page, 'messages', ['dragenter', 'dragover'], report);
    await overlay.waitFor();
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });

    // Dropped on the messages (not the composer): attached, the overlay gone.
    await drag(page, 'messages', ['dragenter', 'dragover', 'drop'], report);
    await chips(page).filter({ hasText: 'report.txt' }).waitFor();
    expect(await overlay.count()).toBe(0);

    // The attach button's checks: a name too long is refused with the reason.
    const long = await transfer(page, { names: [LONG_NAME] });
    await drag(page, 'messages', ['dragenter', 'dragover', 'drop'], long);
    await page.getByTestId('composer-refusal').waitFor();
    expect(await chips(page).count()).toBe(1);

    // Text dragged over the window: no overlay, and a drop attaches nothing.
    const text = await transfer(page, { text: 'just words' });
    await drag(page, 'messages', ['dragenter', 'dragover'], text);
    await drawn(page);
    expect(await overlay.count()).toBe(0);
    await drag(page, 'messages', ['drop'], text);
    await drawn(page);
    expect(await chips(page).count()).toBe(1);

    // A modal dialog open: no overlay, nothing attached.
    await page.getByTestId('settings-open').click();
    const dialog = page.locator('[aria-modal="true"]');
    await dialog.waitFor();
    const other = await transfer(page, { names: ['other.txt'] });
    await dialog.dispatchEvent('dragenter', { dataTransfer: other });
    await dialog.dispatchEvent('dragover', { dataTransfer: other });
    await drawn(page);
    expect(await overlay.count()).toBe(0);
    await dialog.dispatchEvent('drop', { dataTransfer: other });
    await drawn(page);
    await page.getByTestId('settings-close').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await chips(page).count()).toBe(1);
    expect(errors.take()).toEqual([]);
  }, 60_000);
});
