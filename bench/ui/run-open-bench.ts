/**
 * The "open a big conversation" bench, in its own process (Chromium + `aivory serve`): seeds a
 * 20,000-message conversation and a 20-message one, then opens each alternately while watching
 * the page's main thread and requesting a static file from serve. Prints
 * `UI_BENCH_RESULT <json BenchResult>` as its last line; bench/ui.ts runs it for `npm run bench`.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser } from '../../test/e2e/helpers/browser';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { WARMED_UP } from '../../src/main/cli/idle-warm-up';
import { median } from '../statistics';
import { longestTask } from './ui-result';
import { runUiBenchProcess } from './bench-process';
import { startObserving, stopObserving, timeOpen } from './page-probes';
import type { SeededConversation } from './seed-history';
import { seedConversation } from './seed-history';
import { serveAt } from './serve-at';
import { startStaticProber } from './static-prober';
import type { OpenMeasurements, OpenRun } from './open-result';
import { openBenchResult } from './open-result';
import { measureDeletes, measureServerReads } from './server-reads';

/** Measured opens per conversation (after one unmeasured warm-up each). */
const OPEN_RUNS = 3;
const LONG_MESSAGES = 20_000;
const SHORT_MESSAGES = 20;

/**
 * Seeds both conversations, the long one last so it is listed first. Written in memory-backed
 * /dev/shm when there is one (each message is its own synced transaction: 20,000 of them on a
 * disk take minutes), then copied into the data directory once closed.
 */
function seed(home: string): { long: SeededConversation; short: SeededConversation } {
  const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'aivory-seed-'));
  try {
    const store = openStore(join(scratch, 'aivory.db'));
    let seeded: { long: SeededConversation; short: SeededConversation };
    try {
      const short = seedConversation(
        store,
        'open_short',
        'Short one (20 messages)',
        SHORT_MESSAGES,
      );
      const long = seedConversation(store, 'open_long', 'Big one (20,000 messages)', LONG_MESSAGES);
      seeded = { long, short };
    } finally {
      store.close();
    }
    copyFileSync(join(scratch, 'aivory.db'), join(home, 'aivory.db'));
    return seeded;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Waits until serve's log has a line with `text` (checked every 100 ms, for 60 s at most). */
async function waitForLogLine(path: string, text: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!(existsSync(path) && readFileSync(path, 'utf8').includes(text))) {
    if (performance.now() > deadline) throw new Error(`serve never logged "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens `conversation` once, watching the main thread and serve's static answers meanwhile. */
async function observedOpen(
  page: Page,
  staticUrl: string,
  conversation: SeededConversation,
): Promise<OpenRun> {
  await startObserving(page);
  const prober = startStaticProber(staticUrl);
  const firstScreenMs = await timeOpen(page, conversation.title, conversation.lastMarker);
  const statics = await prober.stop();
  const stats = await stopObserving(page);
  return {
    firstScreenMs,
    longestTaskMs: longestTask(stats),
    longestStaticMs: statics.longestMs,
    staticRequests: statics.requests,
  };
}

async function measure(home: string): Promise<OpenMeasurements> {
  const seededAt = performance.now();
  const { long, short } = seed(home);
  const seedSeconds = (performance.now() - seededAt) / 1000;
  const serve = await serveAt(home, {
    AIVORY_BASE_URL: 'http://127.0.0.1:9/v1',
    AIVORY_MODEL: 'm',
  });
  const browser = await openBrowser();
  try {
    const { page } = browser;
    page.setDefaultTimeout(120_000);
    // tsx (esbuild keepNames) wraps named functions in `__name(…)`; the page has no such helper.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.goto(serve.url);
    await page.getByTestId('conversation-item').first().waitFor();
    // As a person reading the list would, let serve load its turn modules while idle first.
    await waitForLogLine(join(home, 'logs', 'aivory.log'), WARMED_UP);
    const staticUrl = new URL('/index.html', serve.url).href;
    await observedOpen(page, staticUrl, short);
    await observedOpen(page, staticUrl, long);
    const longRuns: OpenRun[] = [];
    const shortRuns: OpenRun[] = [];
    for (let run = 0; run < OPEN_RUNS; run += 1) {
      shortRuns.push(await observedOpen(page, staticUrl, short));
      longRuns.push(await observedOpen(page, staticUrl, long));
    }
    // Last: a turn start in each conversation adds messages to it.
    const targets = {
      long: { id: 'open_long', everywhere: 'Question' },
      short: { id: 'open_short', everywhere: short.lastMarker },
    };
    const serverReads = await measureServerReads(serve.url, targets);
    // Very last: the conversations are gone after it.
    serverReads.push(await measureDeletes(serve.url, targets));
    const summary = (runs: OpenRun[]) => ({
      firstScreenMs: median(runs.map((run) => run.firstScreenMs)),
      longestTaskMs: Math.max(...runs.map((run) => run.longestTaskMs)),
      longestStaticMs: Math.max(...runs.map((run) => run.longestStaticMs)),
    });
    return {
      long: summary(longRuns),
      short: summary(shortRuns),
      longMessages: LONG_MESSAGES,
      shortMessages: SHORT_MESSAGES,
      runs: OPEN_RUNS,
      seedSeconds,
      loadAverage: loadavg()[0] ?? 0,
      staticRequests: [...longRuns, ...shortRuns].reduce((sum, run) => sum + run.staticRequests, 0),
      serverReads,
    };
  } finally {
    await browser.close();
    await serve.stop();
  }
}

await runUiBenchProcess('open', async (home) => openBenchResult(await measure(home)));
