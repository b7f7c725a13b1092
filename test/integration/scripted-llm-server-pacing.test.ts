import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';

/** The scripted server's `chunksPerSecond`: a steady token rate for the UI benchmark. */
describe('scripted LLM server: chunks paced per second', () => {
  let server: ScriptedLlmServer;
  beforeAll(async () => {
    server = await startScriptedLlmServer(() => ({
      content: 'abcd'.repeat(100),
      chunkSize: 4,
      chunksPerSecond: 200,
    }));
  });
  afterAll(() => server.close());

  it('sends one chunk every 1/rate seconds, measured against the wall clock', async () => {
    const startedAt = Date.now();
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [] }),
    });
    const text = await response.text();
    const elapsed = Date.now() - startedAt;
    const contentChunks = text.split('\n').filter((line) => line.includes('"content":"abcd"'));
    expect(contentChunks).toHaveLength(100);
    // 101 chunks (role + 100 tokens) at 200/s: the last is due 500 ms after the first, so the
    // whole response cannot arrive sooner. (How close to 500 ms it stays on a busy machine is a
    // speed question for bench/ui, not a pass/fail check.)
    expect(elapsed).toBeGreaterThanOrEqual(495);
  });
});
