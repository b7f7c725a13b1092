import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';

describe('a turn killed with SIGKILL mid-stream', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
  });

  it('keeps the streamed text on disk and is shown as interrupted afterwards', async () => {
    const words = Array.from({ length: 400 }, (_, index) => `word${index}`).join(' ');
    server = await startScriptedLlmServer([{ content: words, chunkSize: 10, delayMs: 15 }]);
    const home = makeDataDir();
    const child = spawnCli(
      ['chat', '--json', '--base-url', server.baseUrl, '--model', 'scripted-model', 'Write a lot'],
      cliEnv(home),
    );
    const finished = collect(child);

    let conversationId = '';
    let received = '';
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout?.on('data', (chunk: string) => {
        buffer += chunk;
        for (const line of buffer.split('\n').slice(0, -1)) {
          const event = JSON.parse(line) as {
            type: string;
            conversationId?: string;
            text?: string;
          };
          if (event.type === 'turn-start') conversationId = event.conversationId ?? '';
          if (event.type === 'text-delta') received += event.text ?? '';
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
        if (received.length > 300) resolve();
      });
      child.on('exit', () => reject(new Error('the CLI exited before it was killed')));
    });
    // Until a flush has put more than 300 characters on disk (read by another process), then a
    // real SIGKILL.
    await expect
      .poll(async () => storedAnswer(await exportJson(conversationId, home)).length, {
        timeout: 20_000,
        interval: 100,
      })
      .toBeGreaterThan(300);
    child.kill('SIGKILL');
    const result = await finished;
    expect(result.signal).toBe('SIGKILL');

    const document = await exportJson(conversationId, home);
    expect(document.messages[1]?.status).toBe('interrupted');
    const text = storedAnswer(document);
    expect(text.length).toBeGreaterThan(300);
    expect(words.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(words.length);

    const shown = await runCli(['conversations', 'show', conversationId], cliEnv(home));
    expect(shown.stdout).toContain('assistant [interrupted]:');
  });
});

interface ExportedConversation {
  messages: { role: string; status: string; parts: { kind: string; text?: string }[] }[];
}

async function exportJson(conversationId: string, home: string): Promise<ExportedConversation> {
  const exported = await runCli(
    ['conversations', 'export', conversationId, '--format', 'json'],
    cliEnv(home),
  );
  expect(exported.code).toBe(0);
  return JSON.parse(exported.stdout) as ExportedConversation;
}

/** The answer's text as stored so far ('' before the first flush). */
function storedAnswer(document: ExportedConversation): string {
  return document.messages[1]?.parts.find((part) => part.kind === 'text')?.text ?? '';
}
