/// <reference lib="dom" />
/**
 * e2e: the artifact viewer's PDF, XLSX, DOCX and PPTX viewers (`aivory serve`, the scripted
 * model, Chromium). The PDF, the workbook and the document are made by the runner image's own
 * Python libraries (matplotlib's PDF backend, openpyxl, python-docx; `docker run` of
 * aivory-runner, no network); a PDF whose OpenAction, page actions and link are JavaScript and a
 * URI, a deck and a 100,000 × 50 workbook are built by the test (`test/support/office-files.ts`:
 * the runner has no reportlab or python-pptx). They go to the app as attachments of one message
 * (attachments and artifacts share the chip and `/files`). Each viewer opens and shows its text
 * or cell; PDF pages are drawn lazily, zoom and have selectable text; the scripted PDF and the
 * document's `javascript:` and outside links reach nothing (a loopback listener sees no request,
 * no dialog, window or message appears); a file past its cap is not read. Screenshots: docs/screenshots/artifact-pdf.png, artifact-xlsx-dark.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDockerAndImage, RUNNER_IMAGE } from '../../sandbox/test/support/docker-fixture';
import { startObserving, stopObserving } from '../../bench/ui/page-probes';
import { buildPng } from '../support/fetch-images';
import { buildPdf, buildPptx, buildXlsx } from '../support/office-files';
import { openBrowser, screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';
import { filesScript, HELLO_ANSWER } from './helpers/files-script';

const POLL = { timeout: 30_000 };
const ROWS = 100_000;
const COLUMNS = 50;

/**
 * What the runner image's Python writes: a workbook, a document (with a `javascript:` link and a
 * link to `listener`) and a three-page PDF.
 */
const makeFiles = (listener: string): string => `
import base64, datetime, io, json
from openpyxl import Workbook
wb = Workbook()
ws = wb.active
ws.title = 'Results'
ws.append(['City', 'Visits', 'Since'])
ws.append(['Oslo', 1234, datetime.date(2025, 1, 1)])
wb.create_sheet('Notes')['A1'] = 'Second sheet note'
xlsx = io.BytesIO()
wb.save(xlsx)
from docx import Document
d = Document()
d.add_heading('Project report', 1)
d.add_paragraph('The DOCX viewer shows this paragraph.')
t = d.add_table(rows=2, cols=2)
t.cell(0, 0).text = 'Metric'
t.cell(0, 1).text = 'Value'
t.cell(1, 0).text = 'Uptime'
t.cell(1, 1).text = '99.9 %'
from docx.oxml.shared import OxmlElement, qn
HYPERLINK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink'
for target, text in (('javascript:parent.postMessage("docx-script", "*")', 'a scripted link'),
                     ('${listener}/docx-link', 'an outside link')):
    link = OxmlElement('w:hyperlink')
    link.set(qn('r:id'), d.part.relate_to(target, HYPERLINK, is_external=True))
    run = OxmlElement('w:r')
    words = OxmlElement('w:t')
    words.text = text
    run.append(words)
    link.append(run)
    d.add_paragraph()._p.append(link)
docx = io.BytesIO()
d.save(docx)
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages
pdf = io.BytesIO()
with PdfPages(pdf) as pages:
    for page in range(1, 4):
        figure = plt.figure(figsize=(8.27, 11.69))
        figure.text(0.1, 0.9, 'Quarterly report page %d' % page, fontsize=20)
        pages.savefig(figure)
        plt.close(figure)
print(json.dumps({name: base64.b64encode(data.getvalue()).decode()
                  for name, data in (('xlsx', xlsx), ('docx', docx), ('pdf', pdf))}))
`;

/** The big workbook: row 1 `c0…c49`, then row r's cells `r·50 + c`. */
function* bigRows(): Generator<(string | number)[]> {
  yield Array.from({ length: COLUMNS }, (_, column) => `c${column}`);
  for (let row = 1; row <= ROWS; row++) {
    yield Array.from({ length: COLUMNS }, (_, column) => row * COLUMNS + column);
  }
}

describe('e2e: the PDF, XLSX, DOCX and PPTX viewers', () => {
  const app = useAppFixture(filesScript);
  const requests: string[] = [];
  const listener = createServer((request: IncomingMessage, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(204).end();
  });
  let listenerUrl = '';
  const folder = mkdtempSync(join(tmpdir(), 'aivory-office-'));
  const paths: string[] = [];

  beforeAll(async () => {
    requireDockerAndImage();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const made = JSON.parse(
      execFileSync(
        'docker',
        [
          'run',
          '--rm',
          '-i',
          '--network',
          'none',
          '-e',
          'MPLCONFIGDIR=/tmp',
          RUNNER_IMAGE,
          'python3',
          '-',
        ],
        {
          input: makeFiles(listenerUrl),
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
          timeout: 120_000,
        },
      ).replace(/^[^{]*/, ''),
    ) as Record<'xlsx' | 'docx' | 'pdf', string>;
    const file = (name: string, body: Buffer): void => {
      const path = join(folder, name);
      writeFileSync(path, body);
      paths.push(path);
    };
    file('report.pdf', Buffer.from(made.pdf, 'base64'));
    file('results.xlsx', Buffer.from(made.xlsx, 'base64'));
    file('report.docx', Buffer.from(made.docx, 'base64'));
    // Chinese in a font the file does not embed: needs pdf.js's CMaps (bundled with the app).
    file('chinese.pdf', buildPdf(['季度报告 第一页'], { chinese: true }));
    file(
      'scripted.pdf',
      buildPdf(
        Array.from({ length: 30 }, (_, index) => `Scripted page ${index + 1}`),
        {
          javascript:
            `app.launchURL('${listenerUrl}/launch', true); this.getURL('${listenerUrl}/get');` +
            ` this.submitForm('${listenerUrl}/submit'); app.alert('script ran');`,
          uri: `${listenerUrl}/uri`,
        },
      ),
    );
    file(
      'deck.pptx',
      buildPptx([
        {
          title: 'Quarterly review',
          body: ['Revenue grew 12 %', 'Costs fell'],
          png: buildPng(48, 32, [200, 60, 40]),
        },
        { title: 'Next steps', body: ['Hire two engineers'] },
      ]),
    );
    file('big.xlsx', buildXlsx([{ name: 'Big', rows: bigRows() }]));
    // Past the DOCX cap (20 MB): never read.
    file('huge.docx', Buffer.alloc(21 * 1024 * 1024));
  }, 180_000);
  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    rmSync(folder, { recursive: true, force: true });
  });

  async function sendFiles(page: Page): Promise<void> {
    await page.goto(app().serve.url);
    await page.getByTestId('composer-attach-input').setInputFiles(paths, { timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('composer-attachment').count(), POLL)
      .toBe(paths.length);
    await page.getByTestId('composer-input').fill('Here are the office files');
    // The page is still reading 35 MB of attachments: give the key press time.
    await page.getByTestId('composer-input').press('Enter', { timeout: 60_000 });
    const answer = page.getByTestId('message-assistant').filter({ hasText: HELLO_ANSWER });
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 90_000 })
      .toBe('complete');
    await expect.poll(() => page.getByTestId('file-view').count(), POLL).toBe(paths.length);
  }

  const chip = (page: Page, name: string) =>
    page.locator(`[data-testid="message-file"][data-name="${name}"] [data-testid="file-view"]`);
  const panel = (page: Page) => page.getByTestId('artifact-panel');
  const pdfPage = (page: Page, number: number) =>
    panel(page).locator(`[data-testid="pdf-page"][data-page="${number}"]`);

  it('a PDF made by matplotlib: page count, pages drawn, selectable text, zoom', async () => {
    const { page } = app().browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await sendFiles(page);
    await chip(page, 'report.pdf').click();
    await expect.poll(() => panel(page).getAttribute('data-kind'), POLL).toBe('pdf');
    await expect.poll(() => page.getByTestId('pdf-page-count').textContent(), POLL).toBe('3 pages');
    await expect.poll(() => pdfPage(page, 1).getAttribute('data-rendered'), POLL).toBe('true');
    const textLayer = pdfPage(page, 1).locator('.textLayer');
    await expect.poll(() => textLayer.textContent(), POLL).toContain('Quarterly report page 1');
    // The canvas was drawn on: some pixel is not white.
    const inked = await pdfPage(page, 1)
      .locator('canvas')
      .evaluate((canvas: HTMLCanvasElement) => {
        const context = canvas.getContext('2d');
        if (context === null || canvas.width === 0) return false;
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        for (let index = 0; index < data.length; index += 4) {
          if ((data[index] ?? 255) < 128) return true;
        }
        return false;
      });
    expect(inked).toBe(true);
    // The text is selectable: select the text layer and read the selection.
    const selected = await textLayer.evaluate((layer) => {
      const range = document.createRange();
      range.selectNodeContents(layer);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return selection?.toString() ?? '';
    });
    expect(selected).toContain('Quarterly report page 1');
    await screenshot(page, 'artifact-pdf');

    const before = (await pdfPage(page, 1).boundingBox())?.width ?? 0;
    const level = await page.getByTestId('pdf-zoom-level').textContent();
    await page.getByTestId('pdf-zoom-in').click();
    await expect.poll(() => page.getByTestId('pdf-zoom-level').textContent(), POLL).not.toBe(level);
    await expect
      .poll(
        async () =>
          Math.round((((await pdfPage(page, 1).boundingBox())?.width ?? 0) / before) * 100),
        POLL,
      )
      .toBe(125);
    await expect.poll(() => pdfPage(page, 1).getAttribute('data-rendered'), POLL).toBe('true');
    await page.getByTestId('pdf-zoom-fit').click();
    await expect
      .poll(async () => Math.round((await pdfPage(page, 1).boundingBox())?.width ?? 0), POLL)
      .toBe(Math.round(before));
    await page.keyboard.press('Escape');
  }, 240_000);

  it('a PDF with JavaScript actions: drawn lazily, and its scripts and links do nothing', async () => {
    const { page } = app().browser;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const appUrl = page.url();
    await chip(page, 'scripted.pdf').click();
    await expect
      .poll(() => page.getByTestId('pdf-page-count').textContent(), POLL)
      .toBe('30 pages');
    await expect.poll(() => pdfPage(page, 1).getAttribute('data-rendered'), POLL).toBe('true');
    await expect
      .poll(() => pdfPage(page, 1).locator('.textLayer').textContent(), POLL)
      .toContain('Scripted page 1');
    // Only the pages near the screen are drawn.
    expect(await pdfPage(page, 30).getAttribute('data-rendered')).toBeNull();
    expect(
      await pdfPage(page, 30)
        .locator('canvas')
        .evaluate((c: HTMLCanvasElement) => c.width),
    ).toBe(0);
    // Click the page's link annotations (its whole area runs the script; the line is a URI).
    await pdfPage(page, 1).click({ position: { x: 120, y: 60 } });
    await pdfPage(page, 1).click({ position: { x: 20, y: 300 } });
    await page.getByTestId('pdf-scroller').evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect.poll(() => pdfPage(page, 30).getAttribute('data-rendered'), POLL).toBe('true');
    await expect.poll(() => pdfPage(page, 1).getAttribute('data-rendered'), POLL).toBeNull();
    expect(
      await pdfPage(page, 1)
        .locator('canvas')
        .evaluate((c: HTMLCanvasElement) => c.width),
    ).toBe(0);
    expect({ requests, dialogs, url: page.url(), windows: page.context().pages().length }).toEqual({
      requests: [],
      dialogs: [],
      url: appUrl,
      windows: 1,
    });
    await page.keyboard.press('Escape');
  }, 120_000);

  it('an XLSX made by openpyxl: sheet tabs, strings, numbers and dates; a 100,000 × 50 sheet scrolls', async () => {
    const { page } = app().browser;
    await chip(page, 'results.xlsx').click();
    await expect.poll(() => panel(page).getAttribute('data-kind'), POLL).toBe('xlsx');
    const tabs = page.getByTestId('sheet-tab');
    await expect.poll(() => tabs.allTextContents(), POLL).toEqual(['Results', 'Notes']);
    const row = (index: number) =>
      page.locator(`[data-testid="csv-row"][aria-rowindex="${index + 1}"] [role="cell"]`);
    await expect.poll(() => row(1).allTextContents(), POLL).toEqual(['City', 'Visits', 'Since']);
    await expect.poll(() => row(2).allTextContents(), POLL).toEqual(['Oslo', '1234', '2025-01-01']);
    expect(await page.locator('[role="columnheader"]').allTextContents()).toEqual(['A', 'B', 'C']);
    await tabs.nth(1).click();
    await expect.poll(() => row(1).allTextContents(), POLL).toEqual(['Second sheet note']);
    expect(await tabs.nth(1).getAttribute('aria-selected')).toBe('true');

    await page.emulateMedia({ colorScheme: 'dark' });
    await chip(page, 'big.xlsx').click();
    const scroller = page.getByTestId('csv-scroller');
    await expect
      .poll(() => scroller.getAttribute('aria-rowcount'), { timeout: 120_000 })
      .toBe(String(ROWS + 2));
    await expect.poll(() => row(2).first().textContent(), POLL).toBe(String(COLUMNS));
    await screenshot(page, 'artifact-xlsx-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await startObserving(page);
    await page.evaluate(async () => {
      const element = document.querySelector<HTMLElement>('[data-testid="csv-scroller"]');
      if (element === null) throw new Error('no table');
      for (let step = 1; step <= 40; step++) {
        element.scrollTop = (element.scrollHeight * step) / 40;
        element.scrollLeft = (element.scrollWidth * step) / 40;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    });
    await expect
      .poll(
        () =>
          row(ROWS + 1)
            .last()
            .textContent(),
        POLL,
      )
      .toBe(String(ROWS * COLUMNS + COLUMNS - 1));
    console.log(`artifact XLSX scroll: ${JSON.stringify(await stopObserving(page))}`);
    expect(
      await page.locator(`[role="columnheader"][aria-colindex="${COLUMNS}"]`).textContent(),
    ).toBe('AX');
    await page.keyboard.press('Escape');
  }, 240_000);

  it('a DOCX made by python-docx shows isolated, without scripts; a PPTX shows its slides', async () => {
    const { page } = app().browser;
    await chip(page, 'report.docx').click();
    await expect.poll(() => panel(page).getAttribute('data-kind'), POLL).toBe('docx');
    const frame = page.frameLocator('[data-testid="artifact-frame"]');
    await expect.poll(() => frame.locator('h1').textContent(), POLL).toBe('Project report');
    expect(await frame.locator('p').first().textContent()).toBe(
      'The DOCX viewer shows this paragraph.',
    );
    expect(await frame.locator('td').allTextContents()).toEqual([
      'Metric',
      'Value',
      'Uptime',
      '99.9 %',
    ]);
    expect(await frame.locator('script').count()).toBe(0);
    // Links keep their text and go nowhere; a web address stays as a tooltip, a script's is gone.
    const scripted = frame.locator('a', { hasText: 'a scripted link' });
    expect(await scripted.getAttribute('href')).toBeNull();
    expect(await scripted.getAttribute('title')).toBeNull();
    const outside = frame.locator('a', { hasText: 'an outside link' });
    expect(await outside.getAttribute('href')).toBeNull();
    expect(await outside.getAttribute('title')).toBe(`${listenerUrl}/docx-link`);
    await page.evaluate(() => {
      const received: unknown[] = [];
      (window as unknown as { __docx: unknown[] }).__docx = received;
      window.addEventListener('message', (event) => received.push(event.data));
    });
    await scripted.click();
    await outside.click();
    expect(await page.getByTestId('artifact-frame').getAttribute('sandbox')).toBe('allow-scripts');

    await chip(page, 'deck.pptx').click();
    await expect.poll(() => panel(page).getAttribute('data-kind'), POLL).toBe('pptx');
    const slides = page.getByTestId('pptx-slide');
    await expect.poll(() => slides.count(), POLL).toBe(2);
    expect(await slides.first().locator('h3').textContent()).toBe('Quarterly review');
    expect(await slides.first().locator('p').allTextContents()).toEqual([
      'Revenue grew 12 %',
      'Costs fell',
    ]);
    await expect
      .poll(
        () =>
          slides
            .first()
            .getByTestId('pptx-image')
            .evaluate((image: HTMLImageElement) => image.naturalWidth),
        POLL,
      )
      .toBe(48);
    expect(await slides.nth(1).locator('h3').textContent()).toBe('Next steps');

    expect(await page.evaluate(() => (window as unknown as { __docx: unknown[] }).__docx)).toEqual(
      [],
    );
    expect(requests).toEqual([]);

    await chip(page, 'huge.docx').click();
    await expect.poll(() => page.getByTestId('artifact-too-large').count(), POLL).toBe(1);
    await page.keyboard.press('Escape');
  }, 120_000);

  it('speaks 简体中文 in a Chinese browser', async () => {
    const chinese = await openBrowser('zh-CN');
    try {
      const page = chinese.page;
      await page.goto(app().serve.url);
      await page
        .getByTestId('conversation-item')
        .filter({ hasText: 'Here are the office files' })
        .click();
      await chip(page, 'report.pdf').click();
      await expect
        .poll(() => page.getByTestId('pdf-page-count').textContent(), POLL)
        .toBe('共 3 页');
      expect(await page.getByTestId('pdf-zoom-in').getAttribute('aria-label')).toBe('放大');
      // A Chinese PDF whose font is not embedded: its text is there to read and select.
      await chip(page, 'chinese.pdf').click();
      await expect
        .poll(() => pdfPage(page, 1).locator('.textLayer').textContent(), POLL)
        .toContain('季度报告 第一页');
      await chip(page, 'results.xlsx').click();
      await expect
        .poll(() => page.getByTestId('sheet-tabs').getAttribute('aria-label'), POLL)
        .toBe('工作表');
    } finally {
      await chinese.close();
    }
  }, 120_000);
});
