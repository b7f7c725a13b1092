/**
 * Turn taint end to end in the browser (docs/architecture/turn-taint.md): the real `aivory serve`
 * and Chromium both run in the lab's client namespace (test/support/taint-lab.ts). The scripted
 * model fetches an injection page from a public-looking lab host, then tries an MCP call (its
 * tool set to "allow": only the taint makes it ask), a memory write and a fetch carrying data to
 * another host. The taint badge shows, both calls wait on approval cards that say why, "deny"
 * makes them errors and the turn answers; the exfiltrating request never reaches the lab, and the
 * memory waits on the Memories page, out of system prompts until Confirm. The trace card of the
 * fetch that tainted the turn is marked, and the badge and the mark are still there after a
 * reload.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpTaintLab } from '../support/taint-lab';
import {
  EXFIL_HOST,
  EXFIL_URL,
  FINAL_ANSWER,
  INJECTED_MEMORY,
  INJECTION_URL,
  MCP_ARGUMENTS,
  MCP_TOOL_NAME,
  PLAIN_ANSWER,
  systemPrompt,
  TAINT_PROMPT,
} from '../support/taint-script';
import type { TestBrowser } from './helpers/browser';
import { openBrowser } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const lab = setUpTaintLab();
/** Starting serve and Chromium in the namespace, on a loaded 2-core machine. */
const START_TIMEOUT_MS = 60_000;

/** The trace card of the `index`th call of `tool` in the page. */
function traceCard(page: Page, tool: string, index = 0) {
  return page
    .getByTestId('tool-trace')
    .and(page.locator(`[data-tool-name="${tool}"]`))
    .nth(index);
}

/** Sends `text` and waits for the answer number `count` to be complete; returns it. */
async function sendAndWait(page: Page, text: string, count: number) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
  await expect
    .poll(() => page.getByTestId('message-assistant').count(), { timeout: 60_000 })
    .toBe(count);
  const answer = page.getByTestId('message-assistant').nth(count - 1);
  await expect.poll(() => answer.getAttribute('data-status'), { timeout: 60_000 }).toBe('complete');
  return answer;
}

describe('e2e: turn taint in the browser host, over the netns lab', () => {
  let serve: RunningServe | null = null;
  let browser: TestBrowser | null = null;

  beforeAll(async () => {
    const { home, llm, namespace } = lab();
    serve = await serveAt(
      home,
      {
        AIVORY_BASE_URL: llm.baseUrl,
        AIVORY_MODEL: 'scripted-model',
        AIVORY_TOOL_MODE: 'prompt',
      },
      START_TIMEOUT_MS,
      { namespace },
    );
    browser = await openBrowser('en-US', { namespace });
  }, 2 * START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });
  afterEach(async () => {
    expect(await lab().fetchLab.canaryConnections()).toEqual([]);
  });

  it('after the injection page: the badge, approval cards that say why, deny, the answer, and a pending memory confirmed on the Memories page', async () => {
    if (!serve || !browser) throw new Error('serve or Chromium did not start');
    const { page } = browser;
    const { llm } = lab();
    await page.goto(serve.url);
    await page.getByTestId('composer-input').fill(TAINT_PROMPT);
    await page.getByTestId('composer-input').press('Enter');

    // The MCP call asks because of the taint, and the live turn says what it read.
    const approval = page.getByTestId('approval-card');
    const mcpApproval = approval.and(page.locator(`[data-tool-name="${MCP_TOOL_NAME}"]`));
    await mcpApproval.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('approval-reason').textContent()).toBe(
      'This call comes after the turn read untrusted content (web pages, search results, MCP or program output), so it is asked whatever its usual approval.',
    );
    expect(await page.getByTestId('approval-taint').textContent()).toBe(
      `This turn has read untrusted content: web_fetch ${INJECTION_URL}`,
    );
    expect(JSON.parse((await page.getByTestId('approval-arguments').textContent()) ?? '')).toEqual(
      MCP_ARGUMENTS,
    );
    // One warning icon under the answer: what it read is its accessible name and tooltip.
    const badge = page.getByTestId('turn-taint');
    await expect
      .poll(async () => (await badge.getAttribute('aria-label'))?.split('. ')[0])
      .toBe(`Read untrusted content: web_fetch ${INJECTION_URL}`);
    expect(await badge.getAttribute('title')).toBe(await badge.getAttribute('aria-label'));
    await expect.poll(() => traceCard(page, 'web_fetch', 0).getAttribute('data-status')).toBe('ok');
    // The card of the call that tainted the turn is marked, and only that one.
    await expect
      .poll(() => traceCard(page, 'web_fetch', 0).getAttribute('data-tainted'))
      .toBe('true');
    expect(await traceCard(page, 'web_fetch', 0).getByTestId('tool-tainted').textContent()).toBe(
      '⚠ untrusted content',
    );
    const mcpTrace = traceCard(page, MCP_TOOL_NAME);
    expect(await mcpTrace.getAttribute('data-status')).toBe('running');
    expect(await mcpTrace.getAttribute('data-tainted')).toBeNull();
    await page.getByTestId('approval-deny').click();
    await expect
      .poll(() => mcpTrace.getAttribute('data-status'), { timeout: 60_000 })
      .toBe('error');
    expect(await mcpTrace.textContent()).toContain(
      `The user denied this call of ${MCP_TOOL_NAME}.`,
    );

    // The memory is held; the fetch that would carry data to a new host asks as a web fetch.
    const fetchApproval = approval.and(page.locator('[data-tool-name="web_fetch"]'));
    await fetchApproval.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('approval-reason').textContent()).toBe(
      'This page was found after reading untrusted content and would send data in its address.',
    );
    expect(await page.getByTestId('approval-taint').textContent()).toBe(
      `This turn has read untrusted content: web_fetch ${INJECTION_URL}`,
    );
    expect(JSON.parse((await page.getByTestId('approval-arguments').textContent()) ?? '')).toEqual({
      url: EXFIL_URL,
    });
    const memoryTrace = traceCard(page, 'save_memory');
    await expect.poll(() => memoryTrace.getAttribute('data-status')).toBe('ok');
    expect(await memoryTrace.textContent()).toContain("Held for the user's confirmation (PENDING;");
    const exfilTrace = traceCard(page, 'web_fetch', 1);
    expect(await exfilTrace.getAttribute('data-status')).toBe('running');
    await page.getByTestId('approval-deny').click();
    await expect
      .poll(() => exfilTrace.getAttribute('data-status'), { timeout: 60_000 })
      .toBe('error');
    expect(await exfilTrace.textContent()).toContain('not fetched: the user denied it');
    await expect.poll(() => approval.count()).toBe(0);

    // The turn goes on to its answer; the lab never saw the exfiltration host.
    const answer = page.getByTestId('message-assistant').first();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 60_000 })
      .toBe('complete');
    expect(await answer.textContent()).toContain(FINAL_ANSWER);
    expect(lab().worldRequestsTo('news.example-public.test')).toMatchObject([
      { path: '/injection' },
    ]);
    expect(lab().worldRequestsTo(EXFIL_HOST)).toEqual([]);

    // The pending memory is out of the next turn's system prompt…
    expect(
      await (await sendAndWait(page, 'What do you know about me?', 2)).textContent(),
    ).toContain(PLAIN_ANSWER);
    expect(systemPrompt(llm.requests.at(-1))).not.toBe('');
    expect(systemPrompt(llm.requests.at(-1))).not.toContain(INJECTED_MEMORY);

    // …waits on the Memories page with what tainted its turn, and Confirm makes it active.
    await page.getByTestId('settings-open').click();
    await page.getByTestId('settings-nav-memory').click();
    await page.getByTestId('settings-page-memory').waitFor();
    const memory = page.getByTestId('memory-item').filter({ hasText: INJECTED_MEMORY });
    expect(await memory.getAttribute('data-status')).toBe('PENDING');
    expect(await memory.getByTestId('memory-origin').textContent()).toContain(
      `web_fetch ${INJECTION_URL}`,
    );
    expect(await memory.getByTestId('memory-archive').count()).toBe(0);
    await memory.getByTestId('memory-confirm').click();
    await expect.poll(() => memory.getAttribute('data-status')).toBe('ACTIVE');
    expect(await memory.getByTestId('memory-confirm').count()).toBe(0);
    await page.getByTestId('settings-close').click();

    // …and from then on it is in the system prompt.
    await sendAndWait(page, 'And now?', 3);
    expect(systemPrompt(llm.requests.at(-1))).toContain(`- ${INJECTED_MEMORY}`);

    // After a reload the stored turn still says what it read, and marks the call that did.
    await page.reload();
    await page
      .getByTestId('conversation-item')
      .filter({ hasText: TAINT_PROMPT.slice(0, 40) })
      .click();
    await expect.poll(() => page.getByTestId('message-assistant').count()).toBe(3);
    const stored = page.getByTestId('message-assistant').first();
    expect(
      (await stored.getByTestId('turn-taint').getAttribute('aria-label'))?.split('. ')[0],
    ).toBe(`Read untrusted content: web_fetch ${INJECTION_URL}`);
    // The details are on the card that read it.
    expect(
      await traceCard(page, 'web_fetch', 0).getByTestId('tool-taint-note').textContent(),
    ).toContain(`This call read untrusted content: web_fetch ${INJECTION_URL}.`);
    expect(await page.getByTestId('turn-taint').count()).toBe(1);
    expect(await traceCard(page, 'web_fetch', 0).getAttribute('data-tainted')).toBe('true');
    expect(await page.locator('[data-testid="tool-trace"][data-tainted="true"]').count()).toBe(1);
  }, 240_000);
});
