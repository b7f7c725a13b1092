/**
 * Several models, one question, in the browser (issue 25, part 2): two saved models on the
 * scripted server answer differently by model name; "Compare" adds the second to the composer's,
 * both answers stream side by side (each with its model, time and tokens; Beta's with the tool
 * call it made), one is kept, and the choice survives a reload as the shown version (the other
 * stays a version of it, named by its model). Screenshots at 1440×900 in both themes and at
 * 720×480 (stacked).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, runCli } from '../support/run-cli';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';
import { turnState } from './helpers/chat-script';
import { seriousViolations } from './helpers/axe';

const QUESTION = 'Which planet is largest?';
const ALPHA_ANSWER = 'Jupiter is the largest planet, more than 11 times as wide as Earth.';
const BETA_ANSWER = 'Per my notes: **Jupiter**. Saturn comes second.';

const SLOW_QUESTION = 'Tell me a slow story';

/** Alpha answers at once; Beta first looks at its memory (a tool call), then answers. */
function script(request: RecordedRequest) {
  const model = String(request.body.model);
  if (turnState(request).text.includes(SLOW_QUESTION))
    return { content: `${model} says `.repeat(400), chunkSize: 5, delayMs: 40 };
  if (model === 'alpha-7b') return { content: ALPHA_ANSWER, chunkSize: 6, delayMs: 5 };
  const { toolResults } = turnState(request);
  if (toolResults === 0)
    return {
      content:
        'Let me note that.<tool_call>{"name":"save_memory","arguments":{"memory_text":"The user asks about planets"}}</tool_call>',
    };
  return { content: BETA_ANSWER, chunkSize: 6, delayMs: 5 };
}

describe('e2e: several models answer one question', () => {
  let llm: ScriptedLlmServer;
  let serve: RunningServe;
  let browser: TestBrowser;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(script);
    const home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
    for (const [label, model, extra] of [
      ['Alpha', 'alpha-7b', ['--default']],
      ['Beta', 'beta-13b', []],
    ] as const) {
      const result = await runCli(
        [
          'models',
          'add',
          '--base-url',
          llm.baseUrl,
          '--model',
          model,
          '--label',
          label,
          '--tool-mode',
          'prompt',
          ...extra,
        ],
        cliEnv(home),
      );
      if (result.code !== 0) throw new Error(result.stderr);
    }
    serve = await serveAt(home);
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await llm?.close();
  });

  it('streams two answers side by side, keeps one, and the choice survives a reload', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(serve.url);
    await page.getByTestId('compare-open').click();
    // The composer's own model (the saved default, Alpha) is not offered again.
    await expect.poll(() => page.getByTestId('compare-model').count()).toBe(1);
    await page.getByTestId('compare-model').filter({ hasText: 'Beta' }).click();
    await expect.poll(() => page.getByTestId('compare-open').innerText()).toBe('Compare: +1');
    await page.getByTestId('composer-input').click();
    await page.getByTestId('composer-input').fill(QUESTION);
    await page.getByTestId('composer-input').press('Enter');

    const group = page.getByTestId('answer-group');
    const columns = group.getByTestId('answer-column');
    await expect.poll(() => columns.count()).toBe(2);
    await expect.poll(() => group.getAttribute('data-running')).toBe('false');
    expect(await columns.nth(0).getByTestId('answer-column-model').textContent()).toBe('Alpha');
    expect(await columns.nth(1).getByTestId('answer-column-model').textContent()).toBe('Beta');
    expect(await columns.nth(0).textContent()).toContain(ALPHA_ANSWER);
    expect(await columns.nth(1).textContent()).toContain('Saturn comes second.');
    // Each with its time and tokens; Beta's with the tool call it made, Alpha's with none.
    for (const index of [0, 1]) {
      expect(await columns.nth(index).getByTestId('answer-column-time').textContent()).toMatch(
        /s$/,
      );
      expect(await columns.nth(index).getByTestId('message-usage').count()).toBe(1);
    }
    expect(await columns.nth(1).getByTestId('tool-trace').count()).toBeGreaterThan(0);
    expect(await columns.nth(0).getByTestId('tool-trace').count()).toBe(0);
    // Side by side at 1440: the two columns share a row.
    const [left, right] = [await columns.nth(0).boundingBox(), await columns.nth(1).boundingBox()];
    if (!left || !right) throw new Error('the columns are not drawn');
    expect(Math.abs(left.y - right.y)).toBeLessThan(2);
    expect(right.x).toBeGreaterThan(left.x + left.width - 1);
    await screenshot(page, 'compare-models-1440-light');
    expect(await seriousViolations(page, '[data-testid="answer-group"]')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    await screenshot(page, 'compare-models-1440-dark');
    // Names, roles and contrast hold in the dark theme too.
    expect(await seriousViolations(page, '[data-testid="answer-group"]')).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // Stacked in the smallest window.
    await page.setViewportSize({ width: 720, height: 480 });
    await expect
      .poll(async () => {
        const [top, bottom] = [
          await columns.nth(0).boundingBox(),
          await columns.nth(1).boundingBox(),
        ];
        return top !== null && bottom !== null && bottom.y >= top.y + top.height;
      })
      .toBe(true);
    // The sidebar slides out into a drawer (it animates): shot once it is gone.
    await expect
      .poll(() =>
        page
          .locator('#app-sidebar')
          .evaluate((element) => element.getBoundingClientRect().right <= 0),
      )
      .toBe(true);
    await screenshot(page, 'compare-models-720');
    // A phone: stacked, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    const narrow = await columns.nth(1).boundingBox();
    expect(narrow?.width ?? 0).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1440, height: 900 });

    // Keep Beta's: the comparison closes, Beta's answer is the conversation's.
    await columns.nth(1).getByTestId('answer-keep').click();
    await expect.poll(() => page.getByTestId('answer-group').count()).toBe(0);
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.textContent()).toContain('Saturn comes second.');
    expect(await answer.getByTestId('message-model').textContent()).toBe('Beta');
    expect(await answer.getByTestId('version-count').textContent()).toBe('2/2');

    await page.reload();
    const reloaded = page.getByTestId('message-assistant').last();
    await expect.poll(() => reloaded.textContent()).toContain('Saturn comes second.');
    expect(await reloaded.getByTestId('version-count').textContent()).toBe('2/2');
    expect(await page.getByTestId('message-user').count()).toBe(1);
    // The other version is Alpha's, named by its model.
    await reloaded.getByTestId('version-previous').click();
    await expect.poll(() => reloaded.textContent()).toContain(ALPHA_ANSWER);
    expect(await reloaded.getByTestId('message-model').textContent()).toBe('Alpha');

    // Regenerate with another model (the answer's menu): a third version, labelled Beta.
    await reloaded.hover();
    await reloaded.getByTestId('message-regenerate-mode').click();
    await page.getByTestId('message-regenerate-model').filter({ hasText: 'Beta' }).click();
    await expect.poll(() => reloaded.getByTestId('version-count').textContent()).toBe('3/3');
    await expect.poll(() => reloaded.getAttribute('data-status')).toBe('complete');
    expect(await reloaded.getByTestId('message-model').textContent()).toBe('Beta');

    // Each model got the question alone, with no other answer in its history.
    const asked = llm.requests
      .filter((request) => request.path === '/v1/chat/completions')
      .filter((request) => JSON.stringify(request.body.messages).includes(QUESTION));
    for (const request of asked) {
      const body = JSON.stringify(request.body.messages);
      expect(body).not.toContain(
        String(request.body.model) === 'alpha-7b' ? 'Saturn' : 'Jupiter is',
      );
    }
  }, 120_000);

  it("stops one answer alone from its column, and the others with the composer's Stop", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(serve.url);
    await page.getByTestId('compare-open').click();
    // The conversation opened again with Beta (its last model): Compare offers Alpha.
    await page.getByTestId('compare-model').click();
    await page.getByTestId('composer-input').click();
    await page.getByTestId('composer-input').fill(SLOW_QUESTION);
    await page.getByTestId('composer-input').press('Enter');
    const group = page.getByTestId('answer-group').last();
    const column = (model: string) => group.locator(`[data-model="${model}"]`);
    await expect.poll(() => column('beta-13b').textContent()).toContain('beta-13b says');
    await expect.poll(() => column('alpha-7b').textContent()).toContain('alpha-7b says');
    const status = (model: string) =>
      column(model).getByTestId('message-assistant').getAttribute('data-status');
    await column('beta-13b').getByTestId('answer-column-stop').click();
    await expect.poll(() => status('beta-13b')).toBe('canceled');
    expect(await status('alpha-7b')).toBe('streaming');
    await page.getByTestId('turn-stop').click();
    await expect.poll(() => status('alpha-7b')).toBe('canceled');
    await expect.poll(() => group.getAttribute('data-running')).toBe('false');
    expect(await group.getByTestId('answer-keep').count()).toBe(2);
  }, 120_000);
});
