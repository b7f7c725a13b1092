/**
 * The paste bench, in its own process (Chromium + `aivory serve` + a scripted model): real Ctrl+V
 * pastes of 5 MB of text into the composer (kept out of the text box, offered as a file) and
 * into a bare text box outside the app whose paste handler only reads the text (the baseline: the
 * browser's own synchronous clipboard read, which any page pays), then "Attach as a file", and a
 * 10 KB paste for scale — each run watching the page's main thread from the key press until the
 * result is painted. Prints `UI_BENCH_RESULT <json BenchResult>` as its
 * last line; bench/ui.ts runs it for `npm run bench` (`--only=ui-paste`).
 */
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { openBrowser } from '../../test/e2e/helpers/browser';
import { startScriptedLlmServer } from '../../test/support/scripted-llm-server';
import { startObserving, stopObserving } from './page-probes';
import type { PasteMeasurements, PasteRuns } from './paste-result';
import { pasteBenchResult } from './paste-result';
import { runUiBenchProcess } from './bench-process';
import { serveAt } from './serve-at';

const RUNS = 5;
const LARGE_BYTES = 5 * 1024 * 1024;
const SMALL_BYTES = 10 * 1024;
/** The baseline's text box, outside the app's React root: its paste only reads the clipboard. */
const BARE_BOX = 'bench-bare-box';

/** Adds the bare text box: a paste there reads the text (what any page pays) and stops. */
async function addBareBox(page: Page): Promise<void> {
  await page.evaluate((id) => {
    const box = document.createElement('textarea');
    box.id = id;
    box.addEventListener('paste', (event) => {
      event.preventDefault();
      const read = event.clipboardData?.getData('text/plain') ?? '';
      box.dataset.read = read.length > 0 ? 'yes' : 'no';
    });
    document.body.append(box);
  }, BARE_BOX);
}

/** Puts `bytes` of text on the clipboard (made in the page). */
async function copyText(page: Page, bytes: number): Promise<void> {
  await page.evaluate(async (size) => {
    const line = 'The quick brown fox jumps over the lazy dog, line after line.\n';
    await navigator.clipboard.writeText(line.repeat(Math.ceil(size / line.length)).slice(0, size));
  }, bytes);
}

/** Waits until the next frame has been painted, then a little for trailing tasks. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 200))),
      ),
  );
}

/** Watches the main thread while `act` runs until `done` resolves; returns one run's figures. */
async function observe(
  page: Page,
  runs: PasteRuns,
  act: () => Promise<void>,
  done: () => Promise<unknown>,
): Promise<void> {
  await startObserving(page);
  const startedAt = performance.now();
  await act();
  await done();
  runs.settleMs.push(performance.now() - startedAt);
  await settle(page);
  runs.runs.push(await stopObserving(page));
}

async function measure(page: Page): Promise<PasteMeasurements> {
  const input = page.getByTestId('composer-input');
  const notice = page.getByTestId('composer-paste-notice');
  const chip = page.getByTestId('composer-attachment');
  const large: PasteRuns = { bytes: LARGE_BYTES, runs: [], settleMs: [] };
  const bare: PasteRuns = { bytes: LARGE_BYTES, runs: [], settleMs: [] };
  const small: PasteRuns = { bytes: SMALL_BYTES, runs: [], settleMs: [] };
  const attach: PasteRuns = { bytes: LARGE_BYTES, runs: [], settleMs: [] };
  for (let run = 0; run < RUNS; run += 1) {
    await copyText(page, SMALL_BYTES);
    await input.fill('');
    await input.focus();
    await observe(
      page,
      small,
      () => page.keyboard.press('Control+V'),
      () =>
        page.waitForFunction(
          (size) =>
            (document.querySelector('[data-testid="composer-input"]') as HTMLTextAreaElement).value
              .length === size,
          SMALL_BYTES,
        ),
    );
    await input.fill('');

    await copyText(page, LARGE_BYTES);
    await page.locator(`#${BARE_BOX}`).focus();
    await observe(
      page,
      bare,
      () => page.keyboard.press('Control+V'),
      () =>
        page.waitForFunction((id) => document.getElementById(id)?.dataset.read === 'yes', BARE_BOX),
    );
    await page.evaluate((id) => {
      const box = document.getElementById(id);
      if (box) box.dataset.read = '';
    }, BARE_BOX);
    await input.focus();
    await observe(
      page,
      large,
      () => page.keyboard.press('Control+V'),
      () => notice.waitFor(),
    );
    await observe(
      page,
      attach,
      () => notice.getByTestId('composer-paste-attach').click(),
      () => chip.waitFor(),
    );
    await chip.getByTestId('composer-attachment-remove').click();
    await chip.waitFor({ state: 'detached' });
  }
  return { large, bare, small, attach };
}

async function run(home: string): Promise<PasteMeasurements> {
  const llm = await startScriptedLlmServer(() => ({ content: 'ok' }));
  const serve = await serveAt(home, {
    AIVORY_BASE_URL: llm.baseUrl,
    AIVORY_MODEL: 'scripted-model',
  });
  const browser = await openBrowser();
  try {
    const { page, context } = browser;
    page.setDefaultTimeout(120_000);
    // tsx (esbuild keepNames) wraps named functions in `__name(…)`; the page has no such helper.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(serve.url);
    await page.getByTestId('composer-input').waitFor();
    await addBareBox(page);
    return await measure(page);
  } finally {
    await browser.close();
    await serve.stop();
    await llm.close();
  }
}

await runUiBenchProcess('paste', async (home) => pasteBenchResult(await run(home)));
