import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import { cliEnv, runCli } from '../support/run-cli';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { TestBrowser } from './helpers/browser';
import { downloadedBytes, openBrowser, screenshot } from './helpers/browser';
import {
  CSV_ANSWER,
  CSV_PROMPT,
  filesScript,
  HELLO_ANSWER,
  PLOT_ANSWER,
  PLOT_PROMPT,
} from './helpers/files-script';
import type { ServeProcess } from './helpers/serve-process';
import { startServe } from './helpers/serve-process';

const CSV = 'city,visits\nOslo,3\nBergen,5\nTromsø,2\n';
/** The sandbox starts on the first python_execute turn: a container on a loaded machine. */
const SANDBOX_TIMEOUT_MS = 120_000;
/** expect.poll waits one second by default: far too little on a loaded 2-core machine. */
const POLL = { timeout: 30_000 };

/** The fields of an <img> the test reads in the page. */
interface LoadedImage {
  complete: boolean;
  naturalWidth: number;
  src: string;
}

describe('e2e: files in the browser host (real sandbox, prompt mode)', () => {
  let llm: ScriptedLlmServer;
  let serve: ServeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    requireDockerAndImage();
    llm = await startScriptedLlmServer(filesScript);
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
    'a python_execute turn draws a PNG that shows inline and downloads',
    async () => {
      const { page } = browser;
      await page.goto(serve.url);
      await page.getByTestId('composer-input').fill(PLOT_PROMPT);
      await page.getByTestId('composer-input').press('Enter');

      const trace = page
        .getByTestId('tool-trace')
        .and(page.locator('[data-tool-name="python_execute"]'));
      // The first turn waits for the local sandbox to start (serve keeps a warm container).
      await trace.waitFor({ timeout: SANDBOX_TIMEOUT_MS });
      await expect
        .poll(() => trace.getAttribute('data-status'), { timeout: SANDBOX_TIMEOUT_MS })
        .toBe('ok');
      const answer = page.getByTestId('message-assistant').filter({ hasText: PLOT_ANSWER });
      await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');

      const image = answer.getByTestId('file-image');
      await image.waitFor();
      await expect
        .poll(
          () =>
            image.evaluate((element) => {
              const loaded = element as unknown as LoadedImage;
              return loaded.complete ? loaded.naturalWidth : 0;
            }),
          POLL,
        )
        .toBeGreaterThan(0);
      const src = await image.evaluate((element) => (element as unknown as LoadedImage).src);
      expect(new URL(src).origin).toBe(new URL(serve.url).origin);
      expect(new URL(src).pathname).toBe('/files');
      const file = answer
        .getByTestId('message-file')
        .filter({ has: page.getByTestId('file-image') });
      expect(await file.getAttribute('data-name')).toBe('sales.png');
      expect(await file.textContent()).toMatch(/File: sales\.png \(\d+(\.\d)? KiB\)/);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        file.getByTestId('file-download').click(),
      ]);
      expect(download.suggestedFilename()).toBe('sales.png');
      const saved = await downloadedBytes(download);
      expect(saved.subarray(1, 4).toString()).toBe('PNG');
      const href = (await file.getByTestId('file-download').getAttribute('href')) ?? '';
      const response = await page.request.get(new URL(href, serve.url).href);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-disposition']).toMatch(
        /^attachment; filename="sales.png"/,
      );
      expect(response.headers()['x-content-type-options']).toBe('nosniff');
      const withoutToken = new URL(href, serve.url);
      withoutToken.searchParams.delete('token');
      expect((await page.request.get(withoutToken.href)).status()).toBe(401);

      // The answer's code block is highlighted and can be copied.
      const code = answer.locator('.code-block');
      expect(await code.locator('.hljs-comment').textContent()).toBe('# the bars');
      await answer.getByTestId('code-copy').click();
      await expect
        .poll(() => answer.getByTestId('code-copy').getAttribute('data-state'), POLL)
        .toBe('copied');
      await screenshot(page, 'chat-artifact');
    },
    SANDBOX_TIMEOUT_MS + 60_000,
  );

  it('an attached CSV: a chip in the composer, the note reaches the model, the message shows it', async () => {
    const { page } = browser;
    await page.goto(serve.url);
    await page.getByTestId('new-chat').click();
    const input = page.getByTestId('composer-attach-input');
    const csv = { name: 'cities.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) };
    await input.setInputFiles(csv);
    const chip = page.getByTestId('composer-attachment');
    await chip.waitFor();
    expect(await chip.getAttribute('data-name')).toBe('cities.csv');
    await chip.getByTestId('composer-attachment-remove').click();
    expect(await chip.count()).toBe(0);
    // Dropping files on the composer attaches them too.
    const dropped = await page.evaluateHandle(
      '(() => { const data = new DataTransfer(); data.items.add(new File(["a,b\\n"], "notes.txt", { type: "text/plain" })); return data; })()',
    );
    await page.getByTestId('composer').dispatchEvent('dragover', { dataTransfer: dropped });
    await page.getByTestId('composer').dispatchEvent('drop', { dataTransfer: dropped });
    await expect.poll(() => chip.getAttribute('data-name'), POLL).toBe('notes.txt');
    await chip.getByTestId('composer-attachment-remove').click();
    await input.setInputFiles(csv);
    await chip.waitFor();
    expect(await chip.count()).toBe(1);
    expect(await chip.textContent()).toContain('cities.csv (38 B)');

    await page.getByTestId('composer-input').fill(CSV_PROMPT);
    await page.getByTestId('composer-send').click();
    expect(await chip.count()).toBe(0);
    const sent = page.getByTestId('message-user').filter({ hasText: CSV_PROMPT });
    await sent.getByTestId('message-file').waitFor();
    const answer = page.getByTestId('message-assistant').filter({ hasText: CSV_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');

    const request = llm.requests.find((entry) =>
      JSON.stringify(entry.body.messages ?? []).includes(CSV_PROMPT),
    );
    const messages = (request?.body.messages ?? []) as { role: string; content: string }[];
    const userText = messages.findLast((message) => message.role === 'user')?.content ?? '';
    expect(userText).toContain('[Attached files]');
    expect(userText).toContain('- cities.csv (text/csv, 38 B) at /workspace/uploads/cities.csv');
    expect(userText).toContain('Bergen,5');

    // After the turn the stored message links its copy under uploads/.
    const stored = page.getByTestId('message-user').filter({ hasText: CSV_PROMPT });
    const link = stored.getByTestId('file-download');
    await link.waitFor();
    expect(await stored.getByTestId('message-file').getAttribute('data-name')).toBe('cities.csv');
    const response = await page.request.get(
      new URL((await link.getAttribute('href')) ?? '', serve.url).href,
    );
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe(CSV);
    await screenshot(page, 'chat-attachment');
  }, 60_000);

  it('a prompt template is filled and inserted; a tool switched off stays off for the conversation', async () => {
    const { page } = browser;
    const body = join(serve.home, 'prompt.md');
    writeFileSync(body, 'Summarise {{file}} in {{ language }}.');
    const added = await runCli(
      ['prompts', 'add', '--title', 'Summarise a file', '--file', body],
      cliEnv(serve.home),
    );
    expect(added.code).toBe(0);
    await page.goto(serve.url);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('composer-input').fill('Hello there');
    await page.getByTestId('composer-send').click();
    const hello = page.getByTestId('message-assistant').filter({ hasText: HELLO_ANSWER });
    await expect.poll(() => hello.getAttribute('data-status'), POLL).toBe('complete');

    await page.getByTestId('prompt-picker-open').click();
    await page.getByTestId('prompt-item').filter({ hasText: 'Summarise a file' }).click();
    await page.locator('[data-testid="prompt-variable"][data-name="file"]').fill('cities.csv');
    await page.locator('[data-testid="prompt-variable"][data-name="language"]').fill('Norwegian');
    expect(await page.getByTestId('prompt-preview').textContent()).toBe(
      'Summarise cities.csv in Norwegian.',
    );
    await page.getByTestId('prompt-insert').click();
    expect(await page.getByTestId('composer-input').inputValue()).toBe(
      'Summarise cities.csv in Norwegian.',
    );

    await page.getByTestId('tool-toggles-open').click();
    const webFetch = page.locator('[data-testid="tool-toggle"][data-tool-name="web_fetch"]');
    await expect.poll(() => webFetch.getAttribute('data-layer'), POLL).toBe('model-default');
    await webFetch.locator('input').uncheck();
    await expect.poll(() => webFetch.getAttribute('data-layer'), POLL).toBe('conversation-off');
    await screenshot(page, 'chat-tool-toggles');
    await page.keyboard.press('Escape');
    await page.getByTestId('composer-input').fill('Hello again');
    const before = llm.requests.length;
    await page.getByTestId('composer-send').click();
    await expect
      .poll(
        () => page.getByTestId('message-assistant').filter({ hasText: HELLO_ANSWER }).count(),
        POLL,
      )
      .toBe(2);
    // Prompt mode lists each offered tool in the system prompt as `### name`.
    const system = llm.requests
      .slice(before)
      .map((entry) => (entry.body.messages as { role: string; content: string }[])[0]?.content)
      .join('\n');
    expect(system).toContain('### python_execute');
    expect(system).not.toContain('### web_fetch');

    // A new chat's switches work before its first message, which follows them; it keeps them.
    await page.getByTestId('new-chat').click();
    await page.getByTestId('tool-toggles-open').click();
    await page
      .getByText('For the new conversation: its first message uses these switches.')
      .waitFor();
    await expect.poll(() => webFetch.getAttribute('data-layer'), POLL).toBe('model-default');
    await webFetch.locator('input').uncheck();
    await expect.poll(() => webFetch.getAttribute('data-layer'), POLL).toBe('conversation-off');
    await page.keyboard.press('Escape');
    const firstBefore = llm.requests.length;
    await page.getByTestId('composer-input').fill('Hello there');
    await page.getByTestId('composer-send').click();
    await expect
      .poll(() => page.getByTestId('message-assistant').last().getAttribute('data-status'), POLL)
      .toBe('complete');
    const firstSystem = llm.requests
      .slice(firstBefore)
      .map((entry) => (entry.body.messages as { role: string; content: string }[])[0]?.content)
      .join('\n');
    expect(firstSystem).toContain('### python_execute');
    expect(firstSystem).not.toContain('### web_fetch');
    await page.getByTestId('tool-toggles-open').click();
    await expect.poll(() => webFetch.getAttribute('data-layer'), POLL).toBe('conversation-off');
    await page.keyboard.press('Escape');
    // New chat starts from the defaults again.
    await page.getByTestId('new-chat').click();
    await page.getByTestId('tool-toggles-open').click();
    await expect.poll(() => webFetch.getAttribute('data-layer'), POLL).toBe('model-default');
    await page.keyboard.press('Escape');
  }, 90_000);
});
