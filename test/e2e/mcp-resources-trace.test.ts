/**
 * MCP in the browser host against a real MCP server (the SDK's McpServer, `mcp-resource-server`)
 * and a saved vision model:
 * - a binary resource picked in the composer's MCP list becomes a chip naming the service; sent,
 *   the PNG reaches the model as an image part and the message shows it as an attachment;
 * - a tool's progress reports show live on its trace card ("Indexing, 1/3" …), then the result;
 *   each report waits for the test to release it, so every step is seen without timing;
 * - a tool's image reaches the vision model as an image part and shows under its trace card;
 * - a tool's structuredContent that breaks its output schema is marked on the trace card (light
 *   and dark, English and Chinese) and noted for the model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceServer } from '../support/mcp-resource-server';
import {
  RED_PNG,
  startResourceServer,
  STEPPED_MESSAGE,
  STEPPED_RESULT,
  STEPPED_TOTAL,
} from '../support/mcp-resource-server';
import { cliEnv, runCli } from '../support/run-cli';
import type { RecordedRequest, ScriptedResponse } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { seriousViolations } from './helpers/axe';
import { openBrowser, screenshot } from './helpers/browser';
import type { RunningServe } from './helpers/serve-process';
import { serveAt } from './helpers/serve-process';

const POLL = { timeout: 30_000 };
const PNG_URL = `data:image/png;base64,${RED_PNG.toString('base64')}`;
const ATTACH_PROMPT = 'What colour is the attached square?';
const ATTACH_ANSWER = 'The attached square is red.';
const PROGRESS_PROMPT = 'Please run the slow indexing job';
const IMAGE_PROMPT = 'Please draw me the red square';
const FORECAST_PROMPT = 'What is the weather in Atlantis?';

type Part = { type: string; text?: string; image_url?: { url: string } };
type WireMessage = { role: string; content: string | Part[] | null };

function textOf(message: WireMessage | undefined): string {
  const content = message?.content ?? '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? '').join('\n');
}

function imageUrls(messages: readonly WireMessage[]): string[] {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.image_url ? [part.image_url.url] : []))
      : [],
  );
}

const messagesOf = (request: RecordedRequest): WireMessage[] =>
  (request.body.messages ?? []) as WireMessage[];

const call = (name: string, args: Record<string, unknown> = {}): string =>
  `<tool_call>${JSON.stringify({ name: `lab__${name}`, arguments: args })}</tool_call>`;

/** Prompt mode: asked, the model calls the lab's tool; with the result back, it says so. */
function script(request: RecordedRequest): ScriptedResponse {
  const last = messagesOf(request).at(-1);
  const text = textOf(last);
  if (last?.role === 'user' && /^<tool_(result|error)/.test(text.trim()))
    return { content: `The lab answered: ${/<tool_\w+[^>]*>\s*([^<]*)/.exec(text)?.[1] ?? '?'}` };
  if (text.includes(PROGRESS_PROMPT)) return { content: `Starting.${call('stepped')}` };
  if (text.includes(IMAGE_PROMPT)) return { content: `Drawing.${call('red-square')}` };
  if (text.includes(FORECAST_PROMPT))
    return { content: `Asking.${call('forecast', { city: 'Atlantis' })}` };
  if (text.includes(ATTACH_PROMPT)) return { content: ATTACH_ANSWER };
  return { content: 'Hello from the scripted model.' };
}

describe('e2e: MCP resources in the composer, progress and images on the trace', () => {
  let llm: ScriptedLlmServer;
  let lab: ResourceServer;
  let serve: RunningServe;
  let browser: TestBrowser;
  let home: string;

  beforeAll(async () => {
    llm = await startScriptedLlmServer(script);
    lab = await startResourceServer();
    home = mkdtempSync(join(tmpdir(), 'aivory-e2e-'));
    const env = cliEnv(home);
    const steps = [
      ['mcp', 'add', '--name', 'lab', '--url', lab.url, '--description', 'Resources and jobs.'],
      ['mcp', 'sync', 'lab'],
      ['mcp', 'accept', 'lab'],
      ['mcp', 'enable', 'lab'],
      ['mcp', 'approval', 'lab', 'stepped', 'allow'],
      ['mcp', 'approval', 'lab', 'red-square', 'allow'],
      ['mcp', 'approval', 'lab', 'forecast', 'allow'],
      [
        'models',
        'add',
        '--base-url',
        llm.baseUrl,
        '--model',
        'scripted-model',
        '--label',
        'Seeing model',
        '--tool-mode',
        'prompt',
        '--vision',
        '--default',
      ],
    ];
    for (const step of steps) {
      const result = await runCli(step, env);
      expect(result.code, `${step.join(' ')}\n${result.stderr}`).toBe(0);
    }
    serve = await serveAt(home);
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await lab?.close();
    await llm?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('a binary resource picked in the composer is attached (chip naming the service) and reaches the vision model', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('mcp-picker-open').click();
    await page.getByTestId('mcp-picker-service').filter({ hasText: 'lab' }).click();
    await page.getByTestId('mcp-picker-resource').filter({ hasText: 'Red square' }).click();
    const chip = page
      .getByTestId('composer-attachment')
      .and(page.locator('[data-name="red square.png"]'));
    await chip.waitFor(POLL);
    expect(await chip.getAttribute('data-mime')).toBe('image/png');
    expect(await chip.textContent()).toContain('red square.png (70 B)');
    expect(await chip.getByTestId('composer-attachment-source').textContent()).toBe(' from lab');
    // The vision model takes images: no hint; nothing was inserted as text.
    expect(await page.getByTestId('composer-vision-hint').count()).toBe(0);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('');
    await screenshot(page, 'mcp-resource-chip');

    await page.getByTestId('composer-input').fill(ATTACH_PROMPT);
    await page.getByTestId('composer-send').click();
    const answer = page.getByTestId('message-assistant').filter({ hasText: ATTACH_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    expect(await page.getByTestId('composer-attachment').count()).toBe(0);
    // The sent message carries the file like an upload, shown inline.
    const file = page
      .getByTestId('message-file')
      .and(page.locator('[data-kind="attachment"][data-name="red square.png"]'));
    await file.waitFor(POLL);
    await expect
      .poll(
        () => file.getByTestId('file-image').evaluate((img: HTMLImageElement) => img.naturalWidth),
        POLL,
      )
      .toBe(1);

    const request = llm.requests.find((entry) =>
      textOf(messagesOf(entry).at(-1)).includes(ATTACH_PROMPT),
    );
    const user = request ? messagesOf(request).at(-1) : undefined;
    expect(textOf(user)).toContain('- red square.png (image/png, 70 B)');
    expect(imageUrls(user ? [user] : [])).toEqual([PNG_URL]);
  }, 120_000);

  it('progress reports show live on the trace card, then the result', async () => {
    const { page } = browser;
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(PROGRESS_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator('[data-tool-name="lab__stepped"]'));
    const progress = trace.getByTestId('tool-progress');
    for (let step = 1; step <= STEPPED_TOTAL; step += 1) {
      await expect
        .poll(() => progress.textContent(), POLL)
        .toBe(`${STEPPED_MESSAGE}, ${step}/${STEPPED_TOTAL}`);
      expect(await trace.getAttribute('data-status')).toBe('running');
      // Running, the card is open (progress in view); it folds once the call is done.
      expect(await trace.getByTestId('tool-trace-toggle').getAttribute('aria-expanded')).toBe(
        'true',
      );
      expect(await progress.locator('progress').getAttribute('value')).toBe(String(step));
      if (step === 2) await screenshot(page, 'mcp-progress');
      lab.release();
    }
    await expect.poll(() => trace.getAttribute('data-status'), POLL).toBe('ok');
    expect(await progress.count()).toBe(0);
    expect(await trace.getByTestId('tool-trace-toggle').getAttribute('aria-expanded')).toBe(
      'false',
    );
    expect(await trace.getByTestId('tool-result-preview').textContent()).toContain(STEPPED_RESULT);
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    expect(await answer.textContent()).toContain(`The lab answered: ${STEPPED_RESULT}`);
  }, 120_000);

  it("a tool's image reaches the vision model as an image part and shows under the trace card", async () => {
    const { page } = browser;
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(IMAGE_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator('[data-tool-name="lab__red-square"]'));
    await expect.poll(() => trace.getAttribute('data-status'), POLL).toBe('ok');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    expect(await trace.getByTestId('tool-result-preview').textContent()).toContain(
      'Here is the square.',
    );
    // The image the tool returned, saved and shown right after the call's card.
    const file = answer.locator('[data-testid="tool-trace"] + [data-testid="message-file"]');
    await file.waitFor(POLL);
    expect(await file.getAttribute('data-kind')).toBe('artifact');
    expect(await file.getAttribute('data-name')).toMatch(/\.png$/);
    await expect
      .poll(
        () => file.getByTestId('file-image').evaluate((img: HTMLImageElement) => img.naturalWidth),
        POLL,
      )
      .toBe(1);
    await screenshot(page, 'mcp-tool-image');

    // The request after the tool result holds the PNG as an image part.
    const after = llm.requests.find((entry) => {
      const last = messagesOf(entry).at(-1);
      return (
        /^<tool_result/.test(textOf(last).trim()) && textOf(last).includes('Here is the square.')
      );
    });
    expect(after).toBeDefined();
    expect(imageUrls(after ? messagesOf(after) : [])).toContain(PNG_URL);
  }, 120_000);

  it("structuredContent that breaks the tool's output schema is marked on its card", async () => {
    const { page } = browser;
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill(FORECAST_PROMPT);
    await page.getByTestId('composer-input').press('Enter');
    const trace = page
      .getByTestId('tool-trace')
      .and(page.locator('[data-tool-name="lab__forecast"]'));
    await expect.poll(() => trace.getAttribute('data-status'), POLL).toBe('ok');
    const answer = page.getByTestId('message-assistant').last();
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    await trace.getByTestId('tool-trace-toggle').click();
    const section = trace.getByTestId('tool-structured');
    expect(await section.getAttribute('data-check')).toBe('invalid');
    expect(await section.getByTestId('tool-structured-check').textContent()).toBe(
      'Does not match the tool’s output schema: "temperature" must be a number',
    );
    expect(
      JSON.parse((await section.getByTestId('tool-structured-json').textContent()) ?? ''),
    ).toEqual({ temperature: 'unknown', conditions: 'Under water' });
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
        .toBe(scheme);
      expect(await seriousViolations(page, '[data-tool-name="lab__forecast"]')).toEqual([]);
      await screenshot(page, `mcp-structured-${scheme}`);
    }
    // The model read the same note after the result's text.
    const after = llm.requests.find((entry) =>
      textOf(messagesOf(entry).at(-1)).includes('Under water'),
    );
    expect(textOf(after ? messagesOf(after).at(-1) : undefined)).toContain(
      '[structuredContent does not match the tool\'s output schema: "temperature" must be a number]',
    );

    // In Chinese, after a reload of the stored conversation.
    const chinese = await openBrowser('zh-CN');
    try {
      await chinese.page.goto(serve.url);
      await chinese.page.getByTestId('conversation-item').first().click();
      const stored = chinese.page
        .getByTestId('tool-trace')
        .and(chinese.page.locator('[data-tool-name="lab__forecast"]'));
      await stored.getByTestId('tool-trace-toggle').click();
      await expect
        .poll(() => stored.getByTestId('tool-structured-check').textContent(), POLL)
        .toBe('不符合该工具的输出 schema："temperature" must be a number');
      expect(await stored.getByTestId('tool-structured').locator('summary').textContent()).toBe(
        '结构化内容',
      );
    } finally {
      await chinese.close();
    }
  }, 120_000);
});
