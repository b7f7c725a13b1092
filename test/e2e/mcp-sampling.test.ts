/**
 * MCP sampling in the real browser host: a prompt-mode turn whose model calls server-everything's
 * `trigger-sampling-request`; the server's request appears as a card naming the third-party
 * service and the model that would answer; Allow once → the conversation's model answers (a
 * request without tools, holding only the server's system prompt and message) and the tool result
 * the turn's model then reads carries that completion. "Always for this server" → the next
 * request of that server runs without a card.
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

const TOOL = 'everything__trigger-sampling-request';
const SERVER_SYSTEM = 'You are a helpful test server.';

type Message = { role: string; content: string };

let samplings = 0;

/** A sampling request gets a numbered completion; a turn asked to sample calls the tool. */
function samplingScript(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body.messages ?? []) as Message[];
  if (messages[0]?.role === 'system' && messages[0].content === SERVER_SYSTEM) {
    samplings += 1;
    return { content: `Scripted sampling reply ${samplings}.` };
  }
  const last = messages.at(-1);
  if (last?.role === 'user' && /^<tool_(result|error)/.test(last.content.trim()))
    return { content: 'The server got its reply.', delayMs: 10 };
  const asked = /Sample (\w+)/.exec(last?.content ?? '');
  if (asked) {
    const args = { prompt: `Name a ${asked[1]}`, maxTokens: 64 };
    return {
      content: `Sampling.<tool_call>${JSON.stringify({ name: TOOL, arguments: args })}</tool_call>`,
      delayMs: 10,
    };
  }
  return { content: 'Hello from the scripted model.' };
}

describe('e2e: an MCP server asks for sampling during a turn', () => {
  let llm: ScriptedLlmServer;
  let everything: EverythingServer;
  let serve: RunningServe;
  let browser: TestBrowser;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(samplingScript);
    everything = await startEverythingServer('streamableHttp');
    const home = makeDataDir();
    const env = cliEnv(home);
    await addEnabledMcpService(env, {
      name: 'everything',
      url: everything.url,
      description: 'Test utilities.',
      allow: ['trigger-sampling-request'],
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

  async function send(text: string): Promise<void> {
    const { page } = browser;
    await page.getByTestId('composer-input').fill(text);
    await page.getByTestId('composer-input').press('Enter');
  }

  async function finished(): Promise<void> {
    const { page } = browser;
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator(`[data-tool-name="${TOOL}"]`))
      .last();
    await expect.poll(() => trace.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    const answer = page.getByTestId('message-assistant').last();
    await expect
      .poll(() => answer.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('complete');
  }

  it('the card names the server and the model; Allow once → the completion reaches the server', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await send('Sample colour');
    const card = page.getByTestId('sampling-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('sampling-intro').textContent()).toContain(
      '“everything” is a third-party MCP server',
    );
    expect(await page.getByTestId('sampling-model').textContent()).toBe(
      'Model: scripted-model · at most 64 tokens',
    );
    expect(await page.getByTestId('sampling-system').textContent()).toBe(SERVER_SYSTEM);
    expect(await page.getByTestId('sampling-messages').textContent()).toContain(
      'Resource trigger-sampling-request context: Name a colour',
    );
    // Nothing reached the model for the server before the user chose.
    expect(samplings).toBe(0);
    await screenshot(page, 'mcp-sampling');
    await page.getByTestId('sampling-once').click();
    await finished();
    expect(await card.count()).toBe(0);

    const bodies = llm.requests.map((request) => request.body);
    const sampling = bodies.find(
      (body) => (body.messages as Message[] | undefined)?.[0]?.content === SERVER_SYSTEM,
    );
    expect(sampling?.tools).toBeUndefined();
    expect(sampling?.messages).toEqual([
      { role: 'system', content: SERVER_SYSTEM },
      { role: 'user', content: 'Resource trigger-sampling-request context: Name a colour' },
    ]);
    // The turn's model reads the tool's result, which carries the completion.
    const last = JSON.stringify(llm.requests.at(-1)?.body.messages);
    expect(last).toContain('LLM sampling result');
    expect(last).toContain('Scripted sampling reply 1.');
  }, 120_000);

  it('"Always for this server": the next request runs without a card', async () => {
    const { page } = browser;
    await send('Sample fruit');
    const card = page.getByTestId('sampling-card');
    await card.waitFor({ timeout: 30_000 });
    await page.getByTestId('sampling-always').click();
    await finished();
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain(
      'Scripted sampling reply 2.',
    );

    await send('Sample animal');
    // No card: the call finishes by itself (a card would hold it running).
    await finished();
    expect(await card.count()).toBe(0);
    expect(samplings).toBe(3);
    expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain(
      'Scripted sampling reply 3.',
    );
  }, 120_000);
});
