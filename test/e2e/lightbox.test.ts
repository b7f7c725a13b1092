/**
 * e2e: the image lightbox and mermaid's dark theme in the browser host (`aivory serve` + the
 * scripted model). A remote image of an answer (served by the test through Chromium's request
 * routing: nothing leaves the machine) loads on the first click and opens in the lightbox on the
 * second: zoom by button, key and wheel, download link, no "show in folder" in the browser, Esc
 * closes and gives focus back. An attached image opens in the file viewer, whose image opens the
 * lightbox the same way, with its `/files` download.
 * A mermaid diagram is drawn with mermaid's dark theme while the app is dark, and again with the
 * light one when the theme changes.
 */
import { describe, expect, it } from 'vitest';
import { buildPng } from '../support/fetch-images';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import { screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';

const IMAGE_URL = 'https://images.example/charts/red%20square.png';
const IMAGE_PROMPT = 'Show me the chart';
const DIAGRAM_PROMPT = 'Draw the flow';
const ATTACH_PROMPT = 'Here is my picture';
/** Larger than the window, so "fit" shows it scaled down and a zoomed image can be dragged. */
const PNG = buildPng(1600, 1000, [200, 40, 40]);
const POLL = { timeout: 20_000 };

function lastUserText(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.findLast((message) => message.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

function script(request: RecordedRequest): ScriptedResponse {
  const text = lastUserText(request);
  if (text.includes(DIAGRAM_PROMPT))
    return { content: '```mermaid\ngraph TD\n  A[Ask] --> B[Answer]\n```' };
  if (text.includes(IMAGE_PROMPT))
    return { content: `Here it is:\n\n![Red square chart](${IMAGE_URL})` };
  return { content: 'A fine picture.' };
}

describe('e2e: image lightbox and dark diagrams in the browser host', () => {
  const app = useAppFixture(script);

  it('an answer image: click to load, click to open; zoom, download, Esc closes, focus returns', async () => {
    const { page } = app().browser;
    await page.emulateMedia({ colorScheme: 'light' });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.route('https://images.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: PNG }),
    );
    await page.goto(app().serve.url);
    await page.getByTestId('composer-input').fill(IMAGE_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');

    // First click: the image loads (nothing was requested before).
    await answer.getByTestId('image-placeholder').click();
    const inline = answer.getByTestId('markdown-image');
    await expect
      .poll(() => inline.evaluate((image: HTMLImageElement) => image.naturalWidth), POLL)
      .toBe(1600);

    // Second click: the lightbox, fitted to the window (scaled down).
    const opener = answer.getByTestId('image-zoom');
    await opener.click();
    const dialog = page.getByTestId('image-lightbox');
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const image = dialog.getByTestId('lightbox-image');
    const scale = async (): Promise<number> => Number(await image.getAttribute('data-scale'));
    await expect.poll(scale, POLL).toBeGreaterThan(0);
    const fit = await scale();
    expect(fit).toBeLessThan(1);
    expect(await dialog.getByTestId('lightbox-scale').textContent()).toBe(
      `${Math.round(fit * 100)}%`,
    );
    await screenshot(page, 'image-lightbox');

    // Zoom: the button, the keys (+, −, 0) and the wheel.
    await dialog.getByTestId('lightbox-zoom-in').click();
    await expect.poll(scale).toBeCloseTo(fit * 1.25, 3);
    await page.keyboard.press('+');
    await expect.poll(scale).toBeCloseTo(fit * 1.25 * 1.25, 3);
    await page.keyboard.press('-');
    await expect.poll(scale).toBeCloseTo(fit * 1.25, 3);
    await page.keyboard.press('0');
    await expect.poll(scale).toBeCloseTo(fit, 3);
    const viewport = dialog.getByTestId('lightbox-viewport');
    const box = await viewport.boundingBox();
    if (box === null) throw new Error('the lightbox viewport has no box');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -120);
    await expect.poll(scale).toBeGreaterThan(fit * 1.2);
    // Zoomed past the window, a drag pans the image.
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await expect.poll(async () => viewport.getAttribute('class')).toContain('pannable');
    const before = await image.evaluate(
      (element: HTMLImageElement) => getComputedStyle(element).transform,
    );
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2 - 40, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(() =>
        image.evaluate((element: HTMLImageElement) => getComputedStyle(element).transform),
      )
      .not.toBe(before);
    await dialog.waitFor(); // a drag is no click beside the image: still open

    // Download is the image's own address; "show in folder" is the desktop's only.
    const download = dialog.getByTestId('lightbox-download');
    expect(await download.getAttribute('href')).toBe(IMAGE_URL);
    expect(await download.getAttribute('download')).toBe('red square.png');
    expect(await dialog.getByTestId('lightbox-reveal').count()).toBe(0);

    // Esc closes; focus is back on the image, whose Enter opens it again.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'image-zoom',
    );
    // Esc in the dialog did not reach the window (no turn stopped, the chat is intact).
    expect(await answer.getAttribute('data-status')).toBe('complete');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByTestId('lightbox-close').click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('an attached image opens in the file viewer, then in the lightbox with its /files download', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('new-chat').click();
    await page
      .getByTestId('composer-attach-input')
      .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('composer-attachment').waitFor();
    await page.getByTestId('composer-input').fill(ATTACH_PROMPT);
    await page.getByTestId('composer-send').click();
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    const sent = page.getByTestId('message-user').filter({ hasText: ATTACH_PROMPT });
    // A message's file image opens the artifact viewer; its image there opens the lightbox.
    await sent.getByTestId('file-view-image').click(POLL);
    const opener = page.getByTestId('artifact-panel').getByTestId('image-zoom');
    await opener.waitFor(POLL);
    await opener.click();
    const dialog = page.getByTestId('image-lightbox');
    await dialog.waitFor();
    await expect
      .poll(() => dialog.getByTestId('lightbox-image').getAttribute('data-scale'), POLL)
      .not.toBeNull();
    const href = (await dialog.getByTestId('lightbox-download').getAttribute('href')) ?? '';
    const url = new URL(href);
    expect(url.pathname).toBe('/files');
    expect(url.searchParams.get('download')).toBe('1');
    expect(await dialog.getByTestId('lightbox-download').getAttribute('download')).toBe(
      'photo.png',
    );
    // A click beside the image (on the dark backdrop area of the viewport) closes.
    const box = await dialog.getByTestId('lightbox-viewport').boundingBox();
    if (box === null) throw new Error('the lightbox viewport has no box');
    await page.mouse.click(box.x + 4, box.y + 4);
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'image-zoom',
    );
  }, 90_000);

  it('a mermaid diagram follows the theme: mermaid dark when the app is dark', async () => {
    const { page } = app().browser;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(app().serve.url);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(DIAGRAM_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    const diagram = answer.getByTestId('mermaid-diagram');
    await diagram.waitFor(POLL);
    const svgOf = async (): Promise<string> => {
      const src = (await diagram.getAttribute('src')) ?? '';
      return decodeURIComponent(src.slice(src.indexOf(',') + 1));
    };
    expect(await diagram.getAttribute('data-theme')).toBe('dark');
    const dark = await svgOf();
    // Mermaid's dark theme fills nodes with its dark grey; no white backing behind the image.
    expect(dark).toContain('#1f2020');
    expect(await diagram.evaluate((image) => getComputedStyle(image).backgroundColor)).not.toBe(
      'rgb(255, 255, 255)',
    );
    const drawn = await diagram.boundingBox();
    expect(drawn?.width ?? 0).toBeGreaterThan(60);
    await answer.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-mermaid-dark');

    // The diagram opens in the lightbox too, on a dark backing.
    await answer.getByTestId('image-zoom').click();
    const dialog = page.getByTestId('image-lightbox');
    const image = dialog.getByTestId('lightbox-image');
    await expect.poll(() => image.getAttribute('data-scale'), POLL).not.toBeNull();
    expect(await image.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgba(0, 0, 0, 0)',
    );
    expect(await dialog.getByTestId('lightbox-download').getAttribute('download')).toBe(
      'diagram.svg',
    );
    await screenshot(page, 'image-lightbox-diagram-dark');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // The app turns light: the diagram is drawn again with the light theme.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => diagram.getAttribute('data-theme'), POLL).toBe('light');
    await expect.poll(svgOf, POLL).not.toContain('#1f2020');
    expect(await diagram.evaluate((image) => getComputedStyle(image).backgroundColor)).toBe(
      'rgb(255, 255, 255)',
    );
  }, 90_000);
});
