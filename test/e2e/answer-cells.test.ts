/**
 * e2e: how an answer's parts look (real sandbox, `aivory serve`, the scripted model, Chromium): a
 * python_execute call as a code cell (highlighted code, stdout and stderr, folded once done, its
 * duration in seconds), the untrusted-content icon with the details on that cell, the budget
 * meter's values for screen readers, reasoning timed while it streams, the live region reading
 * Markdown as plain text, and an http image that says why it is not shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import {
  CELL_ANSWER,
  CELL_PROMPT,
  cellsScript,
  MARKDOWN_PROMPT,
  MARKDOWN_SPOKEN,
  REASON_ANSWER,
  REASON_PROMPT,
  REASON_TEXT,
  releaseReasoning,
} from './helpers/cells-script';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';

/** The sandbox starts on the first python_execute turn: a container on a loaded machine. */
const SANDBOX_TIMEOUT_MS = 120_000;
/** expect.poll waits one second by default: far too little on a loaded 2-core machine. */
const POLL = { timeout: 30_000 };
/** A duration as the shared formatter writes it. */
const SECONDS = /^(< 0\.1 s|\d+\.\d s|\d+ s|\d+ min \d+ s)$/;

describe('e2e: an answer’s parts (real sandbox, prompt mode)', () => {
  let llm: ScriptedLlmServer;
  let serve: ServeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    requireDockerAndImage();
    llm = await startScriptedLlmServer(cellsScript);
    serve = await startServe({
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'prompt',
      AIVORY_LOCAL_SANDBOX: '1',
    });
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await llm?.close();
  });

  it(
    'python_execute is a code cell, folded once done; the untrusted icon and the meter',
    async () => {
      const { page } = browser;
      await page.goto(serve.url);
      await page.getByTestId('composer-input').fill(CELL_PROMPT);
      await page.getByTestId('composer-input').press('Enter');

      const cell = page
        .getByTestId('tool-trace')
        .and(page.locator('[data-tool-name="python_execute"]'));
      // The first turn waits for the local sandbox to start (serve keeps a warm container).
      await cell.waitFor({ timeout: SANDBOX_TIMEOUT_MS });
      await expect
        .poll(() => cell.getAttribute('data-status'), { timeout: SANDBOX_TIMEOUT_MS })
        .toBe('ok');
      const answer = page.getByTestId('message-assistant').filter({ hasText: CELL_ANSWER });
      await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');

      // Done: folded to its one-line head (a button saying it is closed), which names the tool
      // for people and reads its time in seconds.
      const fold = cell.getByTestId('code-cell');
      const toggle = cell.getByTestId('tool-trace-toggle');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.getAttribute('aria-controls')).toBe(await fold.getAttribute('id'));
      expect(await fold.isVisible()).toBe(false);
      expect(await cell.locator('.tool-name').textContent()).toBe('Run Python');
      expect(await cell.getByTestId('tool-duration').textContent()).toMatch(SECONDS);
      expect(await cell.getByTestId('cell-stdout').isVisible()).toBe(false);
      const head = await toggle.boundingBox();
      expect(head?.height ?? 999).toBeLessThanOrEqual(44);

      // Opened by the keyboard: the code highlighted (not a JSON string), then stdout and stderr.
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await cell.getByTestId('cell-stdout').waitFor();
      const code = cell.locator('.code-block');
      await expect
        .poll(() => code.locator('.hljs-keyword').first().textContent(), POLL)
        .toBe('import');
      expect(await code.textContent()).toContain("print('total', 6 * 7)");
      expect(await code.textContent()).not.toContain('\\n');
      expect(await cell.getByTestId('cell-stdout').textContent()).toBe('total 42\n');
      expect(await cell.getByTestId('cell-stderr').textContent()).toBe('careful: small numbers\n');
      expect(await cell.textContent()).not.toContain('status: ok');

      // Program output is untrusted: one icon under the answer, named for screen readers, and
      // the details on the cell that read it.
      const icon = answer.getByTestId('turn-taint');
      expect(await icon.getAttribute('role')).toBe('img');
      expect(await icon.getAttribute('aria-label')).toMatch(
        /^Read untrusted content: python_execute\. /,
      );
      expect(await icon.getAttribute('title')).toBe(await icon.getAttribute('aria-label'));
      expect((await icon.textContent())?.trim()).toBe('');
      expect(await cell.getAttribute('data-tainted')).toBe('true');
      expect(await cell.getByTestId('tool-taint-note').textContent()).toContain(
        'This call read untrusted content: python_execute.',
      );

      // The budget meter: a meter with its values, and the counts as text.
      const meter = answer.getByRole('meter');
      expect(await meter.getAttribute('aria-valuenow')).toBe('1');
      expect(await meter.getAttribute('aria-valuemin')).toBe('0');
      expect(await meter.getAttribute('aria-valuemax')).toBe('48');
      expect(await meter.getAttribute('aria-label')).toBe('Tool calls: 1 of 48');
      expect(await answer.getByTestId('budget-meter').textContent()).toBe(
        'python_execute 1/16 · total 1/48',
      );
      await screenshot(page, 'answer-code-cell');
    },
    SANDBOX_TIMEOUT_MS + 60_000,
  );

  it('reasoning shows "Thinking…" live, then folds under "Thought for N s"', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(REASON_PROMPT);
    await page.getByTestId('composer-input').press('Enter');

    const reasoning = page.getByTestId('reasoning');
    await reasoning.filter({ hasText: REASON_TEXT }).waitFor();
    expect(await reasoning.getAttribute('data-live')).toBe('true');
    const timer = reasoning.getByTestId('reasoning-timer');
    expect(await timer.locator('.live-dot').count()).toBe(1);
    // Held until the timer has counted a second, so the time it reports is a real one.
    await expect.poll(() => timer.textContent(), POLL).toBe('Thinking… 1 s');
    releaseReasoning();

    const answer = page.getByTestId('message-assistant').filter({ hasText: REASON_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    const summary = answer.getByTestId('reasoning-summary');
    const text = (await summary.textContent()) ?? '';
    expect(text).toMatch(/^Thought for \d+(\.\d)? s$/);
    expect(Number(/(\d+(\.\d)?) s$/.exec(text)?.[1])).toBeGreaterThanOrEqual(1);
    expect(
      await answer
        .getByTestId('reasoning')
        .evaluate((element) => (element as HTMLDetailsElement).open),
    ).toBe(false);
    // Still there to read: a click opens it.
    await summary.click();
    expect(await answer.locator('.reasoning-text').isVisible()).toBe(true);

    // The host saved how long the reasoning took: after a reload it still says so (the same
    // whole seconds the live view measured, give or take the moment each clock read).
    const liveMs = Number(await answer.getByTestId('reasoning').getAttribute('data-duration-ms'));
    await page.reload();
    await page.getByTestId('conversation-item').first().click();
    const stored = page.getByTestId('message-assistant').filter({ hasText: REASON_ANSWER });
    await expect.poll(() => stored.getAttribute('data-status'), POLL).toBe('complete');
    const storedSummary = (await stored.getByTestId('reasoning-summary').textContent()) ?? '';
    expect(storedSummary).toMatch(/^Thought for \d+(\.\d)? s$/);
    const savedMs = Number(await stored.getByTestId('reasoning').getAttribute('data-duration-ms'));
    expect(savedMs).toBeGreaterThanOrEqual(1000);
    expect(Math.abs(savedMs - liveMs)).toBeLessThan(1000);
  }, 60_000);

  it('the live region reads Markdown as text; an http image says why it is not shown', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(MARKDOWN_PROMPT);
    await page.getByTestId('composer-input').press('Enter');

    const announcer = page.getByTestId('live-announcer');
    await expect.poll(() => announcer.textContent(), POLL).toBe(MARKDOWN_SPOKEN);
    const spoken = (await announcer.textContent()) ?? '';
    for (const marker of ['#', '**', '`', '|', ':--', '![', '](']) {
      expect(spoken).not.toContain(marker);
    }

    const answer = page.getByTestId('message-assistant').last();
    const blocked = answer.getByTestId('image-blocked');
    expect(await blocked.getAttribute('data-reason')).toBe('http');
    expect(await blocked.textContent()).toBe(
      'Image: Quarterly chartImage not loaded: images over http are blocked (only https can load).',
    );
    await screenshot(page, 'answer-markdown-blocked-image');
  }, 60_000);
});
