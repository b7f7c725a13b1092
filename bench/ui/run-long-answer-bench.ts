/// <reference lib="dom" />
/**
 * The long-answer bench (`npm run bench -- --only=ui-long`), in its own process (Chromium +
 * `aivory serve` + a scripted model): streams a normal 20,000-character answer (the baseline),
 * then answers of ~2,000,000 characters (the most a turn may write: MAX_TURN_OUTPUT_CHARS) of
 * each kind the Markdown chunker finds hardest — ordinary Markdown, one paragraph of lines, one
 * line with no break, one fenced code block — at 400 KB/s, watching the page's main thread; then
 * reopens each conversation from another one. Prints `UI_BENCH_RESULT <json BenchResult>`.
 */
import type { Page } from 'playwright-core';
import { openBrowser } from '../../test/e2e/helpers/browser';
import type { LongAnswerKind } from '../../test/support/long-answer';
import {
  LONG_ANSWER_CHUNK,
  LONG_ANSWER_CHUNKS_PER_SECOND,
  LONG_ANSWER_END,
  longAnswerPrompt,
  longAnswerScript,
} from '../../test/support/long-answer';
import { startScriptedLlmServer } from '../../test/support/scripted-llm-server';
import type { LongAnswerRun } from './long-answer-result';
import { longAnswerResult } from './long-answer-result';
import { startObserving, stopObserving, waitForAnswer } from './page-probes';
import { runUiBenchProcess } from './bench-process';
import { serveAt } from './serve-at';

/** Under the turn's 2,000,000-character bound, with room for the end marker. */
const LONG_CHARS = 1_999_000;
const BASELINE_CHARS = 20_000;
const KINDS: LongAnswerKind[] = ['markdown', 'paragraph', 'line', 'fence'];
/** Slack over the nominal stream time (turn set-up, the stored copy replacing the live one). */
const STREAM_SLACK_MS = 90_000;

/**
 * Clicks the conversation titled `prompt` (its question); ms until its question and the end of
 * its answer are painted (every answer here ends with the same marker, so the question says
 * which conversation is shown).
 */
function openConversation(page: Page, prompt: string): Promise<number> {
  return page.evaluate(
    async ({ prompt, marker }) => {
      const items = document.querySelectorAll<HTMLElement>('[data-testid="conversation-item"]');
      const item = [...items].find((element) => element.textContent?.includes(prompt));
      if (item === undefined) throw new Error(`no conversation titled ${prompt}`);
      const startedAt = performance.now();
      item.click();
      const last = (testId: string): string =>
        [...document.querySelectorAll(`[data-testid="${testId}"]`)].at(-1)?.textContent ?? '';
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (last('message-user').includes(prompt) && last('message-assistant').includes(marker))
            resolve();
          else requestAnimationFrame(check);
        };
        check();
      });
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - startedAt;
    },
    { prompt, marker: LONG_ANSWER_END },
  );
}

/** Starts a new chat, streams the answer into it and reopens it from `other` (a title). */
async function run(
  page: Page,
  kind: LongAnswerKind,
  chars: number,
  other: string | null,
): Promise<LongAnswerRun> {
  await page.getByTestId('new-chat').click();
  await page.getByTestId('composer-input').waitFor();
  const prompt = longAnswerPrompt(kind, chars);
  await startObserving(page);
  const startedAt = Date.now();
  await page.getByTestId('composer-input').fill(prompt);
  await page.getByTestId('composer-input').press('Enter');
  const nominal = (chars / (LONG_ANSWER_CHUNK * LONG_ANSWER_CHUNKS_PER_SECOND)) * 1000;
  await waitForAnswer(page, LONG_ANSWER_END, nominal + STREAM_SLACK_MS);
  const seconds = (Date.now() - startedAt) / 1000;
  const stream = await stopObserving(page);
  let reopen = null;
  if (other !== null) {
    await openConversation(page, other);
    await startObserving(page);
    const openMs = await openConversation(page, prompt);
    reopen = { openMs, stats: await stopObserving(page) };
  }
  return { kind, chars, seconds, stream, reopen };
}

async function measure(home: string): Promise<LongAnswerRun[]> {
  const llm = await startScriptedLlmServer(longAnswerScript);
  const serve = await serveAt(home, { AIVORY_BASE_URL: llm.baseUrl, AIVORY_MODEL: 'scripted' });
  const browser = await openBrowser();
  try {
    const { page } = browser;
    page.setDefaultTimeout(120_000);
    // tsx (esbuild keepNames) wraps named functions in `__name(…)`; the page has no such helper.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.goto(serve.url);
    await page.getByTestId('composer-input').waitFor();
    const baselinePrompt = longAnswerPrompt('markdown', BASELINE_CHARS);
    const runs = [await run(page, 'markdown', BASELINE_CHARS, null)];
    for (const kind of KINDS) runs.push(await run(page, kind, LONG_CHARS, baselinePrompt));
    // The baseline reopened the same way, from the first long one.
    const first = runs[1] as LongAnswerRun;
    await openConversation(page, longAnswerPrompt(first.kind, first.chars));
    await startObserving(page);
    const openMs = await openConversation(page, baselinePrompt);
    (runs[0] as LongAnswerRun).reopen = { openMs, stats: await stopObserving(page) };
    return runs;
  } finally {
    await browser.close();
    await serve.stop();
    await llm.close();
  }
}

await runUiBenchProcess('long-answer', async (home) => longAnswerResult(await measure(home)));
