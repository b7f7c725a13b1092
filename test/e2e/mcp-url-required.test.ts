/**
 * "URL elicitation required" (-32042) in the real browser host: the model calls a tool of a local
 * MCP server that refuses until the user has visited a page. The page shows as the URL card in
 * the turn, under the running call (the service named, its origin large, focused); Open opens it
 * (the test's browser visits it, the server then sends `notifications/elicitation/complete`), the
 * card closes by itself, the call is tried again and the model reads the real result. A server
 * that sends no notification: after Open the card waits for the user's Done, then retries. And
 * Escape cancels: the model reads that the user must open the link, and the call is not repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UrlRequiredServer } from '../support/mcp-url-required-server';
import { LINK_MESSAGE, startUrlRequiredServer } from '../support/mcp-url-required-server';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { addEnabledMcpService } from '../support/mcp-cli-setup';
import { cliEnv, makeDataDir } from '../support/run-cli';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const LINK_PROMPT = 'Please link my account';
const ALWAYS_PROMPT = 'Please try the other link';
const QUIET_PROMPT = 'Please visit the quiet page';

type Message = { role: string; content: string };

function script(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body.messages ?? []) as Message[];
  const last = messages.at(-1);
  if (last?.role === 'user' && /^<tool_(result|error)/.test(last.content.trim()))
    return { content: 'I have the result.', delayMs: 10 };
  const call = (name: string) =>
    `Calling.<tool_call>${JSON.stringify({ name, arguments: {} })}</tool_call>`;
  if (last?.content.includes(LINK_PROMPT))
    return { content: call('accounts__link-account'), delayMs: 10 };
  if (last?.content.includes(QUIET_PROMPT))
    return { content: call('accounts__quiet-link'), delayMs: 10 };
  if (last?.content.includes(ALWAYS_PROMPT))
    return { content: call('accounts__always-link'), delayMs: 10 };
  return { content: 'Hello from the scripted model.' };
}

describe('e2e: an MCP server needs a page opened before its tool runs (-32042)', () => {
  let llm: ScriptedLlmServer;
  let server: UrlRequiredServer;
  let serve: RunningServe;
  let browser: TestBrowser;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(script);
    server = await startUrlRequiredServer();
    const home = makeDataDir();
    const env = cliEnv(home);
    await addEnabledMcpService(env, {
      name: 'accounts',
      url: server.url,
      description: 'Linked accounts.',
      allow: ['link-account', 'quiet-link', 'always-link'],
    });
    serve = await serveAt(home, {
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
      AIVORY_TOOL_MODE: 'prompt',
    });
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await server?.stop();
    await llm?.close();
  });

  it('the card in the turn; Open visits the page; the completion closes it; tried again', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('composer-input').fill(LINK_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const card = page.getByTestId('message-assistant').last().getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getAttribute('data-placement')).toBe('inline');
    expect(await card.textContent()).toContain(
      '“accounts” is a third-party MCP server, not Aivory.',
    );
    expect(await card.textContent()).toContain('needs you to open a web page first');
    expect(await page.getByTestId('elicitation-message').textContent()).toBe(LINK_MESSAGE);
    expect(await page.getByTestId('elicitation-origin').textContent()).toBe(server.origin);
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator('[data-tool-name="accounts__link-account"]'));
    expect(await trace.getAttribute('data-status')).toBe('running');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('elicitation-decline');
    // Nothing was opened before the click.
    expect(server.completed.size).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'mcp-url-required');

    const opened = page.context().waitForEvent('page');
    await page.getByTestId('elicitation-open').click();
    const popup = await opened;
    await popup.waitForLoadState();
    expect(popup.url()).toMatch(new RegExp(`^${server.origin}/link/link-`));
    await popup.close();
    // The server's completion notification closes the card; the call runs again and succeeds.
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => trace.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    expect(await trace.getByTestId('tool-result-preview').textContent()).toContain(
      'Account linked.',
    );
    expect(server.calls['link-account']).toBe(2);
    expect(server.notified).toHaveLength(1);
    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('complete');
  }, 120_000);

  it("no notification: after Open the card waits; the user's Done tries the call again", async () => {
    const { page } = browser;
    await page.getByTestId('composer-input').fill(QUIET_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const card = page.getByTestId('message-assistant').last().getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    const opened = page.context().waitForEvent('page');
    await page.getByTestId('elicitation-open').click();
    const popup = await opened;
    await popup.waitForLoadState();
    await popup.close();
    expect(await card.getAttribute('data-step')).toBe('waiting');
    expect(await page.getByTestId('elicitation-waiting').textContent()).toContain(
      `When you have finished on ${server.origin}, choose Done`,
    );
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('elicitation-done');
    expect(server.calls['quiet-link']).toBe(1);
    await page.getByTestId('elicitation-done').click();
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator('[data-tool-name="accounts__quiet-link"]'));
    await expect.poll(() => trace.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    expect(await trace.getByTestId('tool-result-preview').textContent()).toContain(
      'Visited, quietly.',
    );
    expect(server.calls['quiet-link']).toBe(2);
    expect(await card.count()).toBe(0);
    // The next test types into the composer, which ignores Enter while this turn still runs.
    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('complete');
  }, 120_000);

  it('Escape cancels: the model reads that the user must open the link; no retry', async () => {
    const { page } = browser;
    await page.getByTestId('composer-input').fill(ALWAYS_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const card = page.getByTestId('message-assistant').last().getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('elicitation-decline');
    await page.keyboard.press('Escape');
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(0);
    await expect
      .poll(
        () =>
          llm.requests.some((request) =>
            JSON.stringify(request.body).includes(
              `needs the user to open a link (${server.origin}) before this tool can run, which you cannot do for them; the user did not (canceled)`,
            ),
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(server.calls['always-link']).toBe(1);
    expect(page.context().pages()).toHaveLength(1);
  }, 120_000);
});
