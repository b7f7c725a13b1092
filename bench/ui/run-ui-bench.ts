/**
 * The UI bench, in its own process (Chromium + `aivory serve` + a scripted model): seeds a data
 * directory, opens both conversations alternately, then streams a long answer into each while
 * watching the page's main thread. Prints `UI_BENCH_RESULT <json BenchResult>` as its last line;
 * bench/ui.ts runs it for `npm run bench`.
 */
import type { Page } from 'playwright-core';
import { openBrowser } from '../../test/e2e/helpers/browser';
import { startScriptedLlmServer } from '../../test/support/scripted-llm-server';
import { median } from '../statistics';
import { runUiBenchProcess } from './bench-process';
import { startObserving, stopObserving, timeOpen, waitForAnswer } from './page-probes';
import type { SeededConversation } from './seed-history';
import { seedHistory } from './seed-history';
import { serveAt } from './serve-at';
import { measureServeStart } from './serve-start';
import { STREAM_END_MARKER, streamPrompt, streamScript, TOKENS_PER_SECOND } from './stream-script';
import type { StreamRun, UiMeasurements } from './ui-result';
import { uiBenchResult } from './ui-result';

/** Measured clicks per conversation (after one unmeasured warm-up each). */
const OPEN_RUNS = 5;
/** The stream, and the short one into the small conversation as its baseline. */
const STREAM_TOKENS = 20_000;
const BASELINE_TOKENS = 2_000;
/** Slack over the nominal stream time (turn set-up, the reload after the turn). */
const STREAM_SLACK_MS = 60_000;

async function timeOpens(page: Page, long: SeededConversation, short: SeededConversation) {
  await timeOpen(page, short.title, short.lastMarker);
  await timeOpen(page, long.title, long.lastMarker);
  const longRuns: number[] = [];
  const shortRuns: number[] = [];
  for (let run = 0; run < OPEN_RUNS; run += 1) {
    shortRuns.push(await timeOpen(page, short.title, short.lastMarker));
    longRuns.push(await timeOpen(page, long.title, long.lastMarker));
  }
  return { openLong: median(longRuns), openShort: median(shortRuns) };
}

/** Opens `conversation`, streams `tokens` into it and returns what the main thread did. */
async function streamInto(
  page: Page,
  conversation: SeededConversation,
  tokens: number,
): Promise<StreamRun> {
  await timeOpen(page, conversation.title, conversation.lastMarker);
  await startObserving(page);
  const startedAt = Date.now();
  await page.getByTestId('composer-input').fill(streamPrompt(tokens));
  await page.getByTestId('composer-input').press('Enter');
  await waitForAnswer(
    page,
    STREAM_END_MARKER,
    (tokens / TOKENS_PER_SECOND) * 1000 + STREAM_SLACK_MS,
  );
  const seconds = (Date.now() - startedAt) / 1000;
  return {
    tokens,
    messagesBefore: conversation.messages,
    seconds,
    stats: await stopObserving(page),
  };
}

async function measure(home: string): Promise<UiMeasurements> {
  const { long, short } = seedHistory(home);
  const llm = await startScriptedLlmServer(streamScript);
  const serve = await serveAt(home, {
    AIVORY_BASE_URL: llm.baseUrl,
    AIVORY_MODEL: 'scripted-model',
  });
  const browser = await openBrowser();
  try {
    const { page } = browser;
    page.setDefaultTimeout(60_000);
    // tsx (esbuild keepNames) wraps named functions in `__name(…)`; the page has no such helper.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    const serveStart = await measureServeStart(page, {
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
    });
    await page.goto(serve.url);
    await page.getByTestId('conversation-item').first().waitFor();
    const opens = await timeOpens(page, long, short);
    const baselineStream = await streamInto(page, short, BASELINE_TOKENS);
    const stream = await streamInto(page, long, STREAM_TOKENS);
    return { ...opens, openRuns: OPEN_RUNS, stream, baselineStream, serveStart };
  } finally {
    await browser.close();
    await serve.stop();
    await llm.close();
  }
}

await runUiBenchProcess('ui', async (home) => uiBenchResult(await measure(home)));
