/**
 * MCP elicitation in the real browser host: a prompt-mode turn whose model calls
 * server-everything's `trigger-elicitation-request`; the server's question appears as a card
 * naming the third-party service, the test fills the required name and accepts, and the tool
 * result the scripted model then receives carries the answer — while no request to the model
 * ever carried it before the server echoed it (the model cannot answer for the user). The card
 * sits in the turn under the running call, focused. And URL mode: the page's origin shown large,
 * nothing opened, Decline sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { addEnabledMcpService } from '../support/mcp-cli-setup';
import { cliEnv, makeDataDir } from '../support/run-cli';
import type { TestBrowser } from './helpers/browser';
import { openBrowser, screenshot } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const PROMPT = 'Please ask me for my details through the everything service';
const TOOL = 'everything__trigger-elicitation-request';
const NAME = 'Ada Lovelace from the card';
const URL_PROMPT = 'Please link my account through the everything service';
const URL_TOOL = 'everything__trigger-url-elicitation';
/** Never opened: the test declines (and nothing listens on the discard port). */
const LINK = 'http://127.0.0.1:9/link/account?step=1';

type Message = { role: string; content: string };

/** Asked for details, the model calls the tool; with its result back, it says what it saw. */
function elicitationScript(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body.messages ?? []) as Message[];
  const last = messages.at(-1);
  if (last?.role === 'user' && /^<tool_(result|error)/.test(last.content.trim()))
    return { content: 'The server has your answer.', delayMs: 10 };
  if (last?.content.includes(URL_PROMPT)) {
    const args = { url: LINK, message: 'Link your account, please.' };
    return {
      content: `Linking.<tool_call>${JSON.stringify({ name: URL_TOOL, arguments: args })}</tool_call>`,
      delayMs: 10,
    };
  }
  if (last?.content.includes(PROMPT))
    return {
      content: `Asking.<tool_call>${JSON.stringify({ name: TOOL, arguments: {} })}</tool_call>`,
      delayMs: 10,
    };
  return { content: 'Hello from the scripted model.' };
}

describe('e2e: an MCP server asks the user during a turn', () => {
  let llm: ScriptedLlmServer;
  let everything: EverythingServer;
  let serve: RunningServe;
  let browser: TestBrowser;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(elicitationScript);
    everything = await startEverythingServer('streamableHttp');
    // The service is set up with the CLI on the same data directory before serve opens it.
    const home = makeDataDir();
    const env = cliEnv(home);
    await addEnabledMcpService(env, {
      name: 'everything',
      url: everything.url,
      description: 'Test utilities.',
      allow: ['trigger-elicitation-request', 'trigger-url-elicitation'],
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
    await everything?.stop();
    await llm?.close();
  });

  it('the card appears, the user fills the name and accepts; the server gets it', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('composer-input').fill(PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const card = page.getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.textContent()).toContain('is a third-party MCP server');
    // In the turn, right under the running call, not a modal; focus moves to it.
    expect(await card.getAttribute('data-placement')).toBe('inline');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const answerCard = page.getByTestId('message-assistant').last().getByTestId('elicitation-card');
    expect(await answerCard.count()).toBe(1);
    expect(
      await card.evaluate((element) => element.previousElementSibling?.getAttribute('data-testid')),
    ).toBe('tool-trace');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('elicitation-decline');
    expect(await page.getByTestId('elicitation-message').textContent()).toBe(
      'Please provide inputs for the following fields:',
    );
    const trace = page.getByTestId('tool-trace').and(page.locator(`[data-tool-name="${TOOL}"]`));
    expect(await trace.getAttribute('data-status')).toBe('running');

    // Accept without the required name: the field says so and nothing is sent.
    await page.getByTestId('elicitation-accept').click();
    await page.getByTestId('elicitation-problem-name').waitFor();
    await page.locator('#elicitation-field-name').fill(NAME);
    await page.locator('#elicitation-field-check').check();
    // The screenshot shows the card's head: which service asks, its message, the first fields.
    await card.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'mcp-elicitation');
    await page.getByTestId('elicitation-accept').click();
    await expect.poll(() => trace.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    expect(await card.count()).toBe(0);

    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('complete');
    // The tool result the model received is the server's, carrying what the user typed.
    const bodies = llm.requests.map((request) => JSON.stringify(request.body));
    const withResult = bodies.findIndex((body) => body.includes('User provided the requested'));
    expect(withResult).toBeGreaterThan(0);
    expect(bodies[withResult]).toContain(`Name: ${NAME}`);
    expect(bodies[withResult]).toContain('Agreed to terms: true');
    // Defaults of untouched fields were applied (SEP-1034).
    expect(bodies[withResult]).toContain('Favorite Integer: 42');
    // Before the server echoed it, no request to the model carried the answer.
    expect(bodies.slice(0, withResult).some((body) => body.includes(NAME))).toBe(false);
  }, 120_000);

  it('URL mode: the origin shown large, nothing opened; Decline reaches the server', async () => {
    const { page } = browser;
    await page.getByTestId('composer-input').fill(URL_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const card = page.getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('elicitation-origin').textContent()).toBe('http://127.0.0.1:9');
    expect(await page.getByTestId('elicitation-url').textContent()).toBe(LINK);
    expect(await page.getByTestId('elicitation-message').textContent()).toBe(
      'Link your account, please.',
    );
    expect(await page.getByTestId('elicitation-accept').count()).toBe(0);
    await screenshot(page, 'mcp-elicitation-url');
    await page.getByTestId('elicitation-decline').click();
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator(`[data-tool-name="${URL_TOOL}"]`));
    await expect.poll(() => trace.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    expect(await card.count()).toBe(0);
    await expect
      .poll(
        () =>
          llm.requests.some((request) =>
            JSON.stringify(request.body).includes('User declined to open the URL'),
          ),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    // Only one page is open: the card opened nothing.
    expect(page.context().pages()).toHaveLength(1);
  }, 120_000);
});
