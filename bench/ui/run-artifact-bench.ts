/**
 * The artifact viewer's table bench, in its own process (Chromium + `aivory serve` + a scripted
 * model): a 100,000-row × 50-column CSV attached to a message, opened in the viewer and scrolled
 * top to bottom and back in 40 frame-apart jumps per way (as a dragged scrollbar does), each run
 * watching the page's main thread (long tasks). The baseline is the same scroll over a plain
 * empty scroller of the same height added to the same page: what the browser and this machine's
 * load cost without the table. Then a 100,000 × 50 XLSX workbook in the same table: the longest
 * main-thread task while it is opened (read in its worker) and while it is scrolled. Prints `UI_BENCH_RESULT <json BenchResult>` as its last line;
 * bench/ui.ts runs it for `npm run bench` (`--only=ui-artifact`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser } from '../../test/e2e/helpers/browser';
import { buildXlsx } from '../../test/support/office-files';
import { startScriptedLlmServer } from '../../test/support/scripted-llm-server';
import type { BenchResult } from '../bench-result';
import { median } from '../statistics';
import { startObserving, stopObserving } from './page-probes';
import { runUiBenchProcess } from './bench-process';
import { serveAt } from './serve-at';

const RUNS = 5;
const ROWS = 100_000;
const COLUMNS = 50;
const STEPS = 40;
const GOAL_MS = 100;
const BARE_SCROLLER = 'bench-bare-scroller';

function bigCsv(): string {
  const lines = [Array.from({ length: COLUMNS }, (_, column) => `c${column}`).join(',')];
  for (let row = 1; row <= ROWS; row++) {
    const cells = [String(row)];
    for (let column = 1; column < COLUMNS; column++) cells.push(String((row * 7 + column) % 1000));
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The workbook: row 1 `c0…c49`, then row r's cells `r·50 + c`. */
function* bigSheet(): Generator<(string | number)[]> {
  yield Array.from({ length: COLUMNS }, (_, column) => `c${column}`);
  for (let row = 1; row <= ROWS; row++) {
    yield Array.from({ length: COLUMNS }, (_, column) => row * COLUMNS + column);
  }
}

/** Scrolls the element matching `selector` to the end and back in frame-apart jumps. */
async function scrollThrough(page: Page, selector: string): Promise<void> {
  await page.evaluate(
    async ({ selector, steps }) => {
      const element = document.querySelector<HTMLElement>(selector);
      if (element === null) throw new Error(`no ${selector}`);
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      for (let step = 1; step <= steps; step++) {
        element.scrollTop = (element.scrollHeight * step) / steps;
        await frame();
      }
      for (let step = steps - 1; step >= 0; step--) {
        element.scrollTop = (element.scrollHeight * step) / steps;
        await frame();
      }
      await frame();
    },
    { selector, steps: STEPS },
  );
}

/** The longest long task (0 when none took over 50 ms) while `selector` is scrolled through. */
async function longestWhileScrolling(page: Page, selector: string): Promise<number> {
  await startObserving(page);
  await scrollThrough(page, selector);
  return (await stopObserving(page)).longestTaskMs;
}

interface Measured {
  table: number[];
  bare: number[];
  xlsx: number[];
  /** The XLSX's open: longest main-thread task, and ms from the click to the table. */
  xlsxOpen: { longestTaskMs: number; ms: number };
}

const chip = (name: string): string =>
  `[data-testid="message-file"][data-name="${name}"] [data-testid="file-view"]`;

async function run(home: string, csvPath: string, xlsxPath: string): Promise<Measured> {
  const llm = await startScriptedLlmServer(() => ({ content: 'ok' }));
  const serve = await serveAt(home, {
    AIVORY_BASE_URL: llm.baseUrl,
    AIVORY_MODEL: 'scripted-model',
    AIVORY_TOOL_MODE: 'prompt',
  });
  const browser = await openBrowser();
  try {
    const { page } = browser;
    page.setDefaultTimeout(120_000);
    // tsx (esbuild keepNames) wraps named functions in `__name(…)`; the page has no such helper.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(serve.url);
    await page.getByTestId('composer-attach-input').setInputFiles([csvPath, xlsxPath]);
    await page.getByTestId('composer-attachment').nth(1).waitFor();
    await page.getByTestId('composer-input').fill('The table');
    await page.getByTestId('composer-input').press('Enter');
    await page.locator(chip('table.csv')).click();
    await page.waitForFunction(
      (rows) =>
        document.querySelector('[data-testid="csv-scroller"]')?.getAttribute('aria-rowcount') ===
        String(rows + 1),
      ROWS,
    );
    await page.evaluate(
      ({ id, height }) => {
        const scroller = document.createElement('div');
        scroller.id = id;
        scroller.className = 'csv-scroller';
        const filler = document.createElement('div');
        filler.className = 'csv-rows';
        filler.style.setProperty('--csv-height', `${height}px`);
        scroller.append(filler);
        document.body.append(scroller);
      },
      { id: BARE_SCROLLER, height: ROWS * 28 },
    );
    const table: number[] = [];
    const bare: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      table.push(await longestWhileScrolling(page, '[data-testid="csv-scroller"]'));
      bare.push(await longestWhileScrolling(page, `#${BARE_SCROLLER}`));
    }
    await startObserving(page);
    const started = Date.now();
    await page.locator(chip('table.xlsx')).click();
    await page.waitForFunction(
      (rows) =>
        document.querySelector('[data-testid="csv-scroller"]')?.getAttribute('aria-rowcount') ===
        String(rows + 2),
      ROWS,
    );
    const xlsxOpen = { longestTaskMs: (await stopObserving(page)).longestTaskMs, ms: 0 };
    xlsxOpen.ms = Date.now() - started;
    const xlsx: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      xlsx.push(await longestWhileScrolling(page, '[data-testid="csv-scroller"]'));
    }
    return { table, bare, xlsx, xlsxOpen };
  } finally {
    await browser.close();
    await serve.stop();
    await llm.close();
  }
}

function result(measured: Measured): BenchResult {
  const table = median(measured.table);
  const bare = median(measured.bare);
  const xlsx = median(measured.xlsx);
  const baseline = {
    label: 'an empty scroller of the same height',
    value: bare,
    unit: 'ms',
  } as const;
  return {
    metrics: [
      {
        name: 'ui-artifact-csv-scroll',
        statistic: `median of ${RUNS} runs' longest task`,
        measured: {
          label: `100,000 × 50 CSV in the viewer, scrolled end to end and back`,
          value: table,
          unit: 'ms',
        },
        baseline: { label: 'an empty scroller of the same height', value: bare, unit: 'ms' },
        ratio: bare === 0 ? Number.NaN : table / bare,
        goal: { description: `≤ ${GOAL_MS} ms`, met: table <= GOAL_MS, missLabel: 'ABOVE GOAL' },
      },
      {
        name: 'ui-artifact-xlsx-open',
        statistic: 'longest task while opening (one run)',
        measured: {
          label: '100,000 × 50 XLSX opened in the viewer (read in its worker)',
          value: measured.xlsxOpen.longestTaskMs,
          unit: 'ms',
        },
        baseline,
        ratio: bare === 0 ? Number.NaN : measured.xlsxOpen.longestTaskMs / bare,
        goal: {
          description: `≤ ${GOAL_MS} ms`,
          met: measured.xlsxOpen.longestTaskMs <= GOAL_MS,
          missLabel: 'ABOVE GOAL',
        },
      },
      {
        name: 'ui-artifact-xlsx-scroll',
        statistic: `median of ${RUNS} runs' longest task`,
        measured: {
          label: '100,000 × 50 XLSX in the viewer, scrolled end to end and back',
          value: xlsx,
          unit: 'ms',
        },
        baseline,
        ratio: bare === 0 ? Number.NaN : xlsx / bare,
        goal: { description: `≤ ${GOAL_MS} ms`, met: xlsx <= GOAL_MS, missLabel: 'ABOVE GOAL' },
      },
    ],
    notes: [
      `longest task per run (0: none over 50 ms): table ${measured.table.join(', ')}; ` +
        `empty scroller ${measured.bare.join(', ')}; XLSX ${measured.xlsx.join(', ')}`,
      `the XLSX took ${measured.xlsxOpen.ms} ms from the click to its table`,
    ],
  };
}

await runUiBenchProcess('artifact', async (home) => {
  const csvPath = join(home, 'table.csv');
  writeFileSync(csvPath, bigCsv());
  const xlsxPath = join(home, 'table.xlsx');
  writeFileSync(xlsxPath, buildXlsx([{ name: 'Big', rows: bigSheet() }]));
  return result(await run(home, csvPath, xlsxPath));
});
