/**
 * Per-conversation settings from the real CLI against the scripted OpenAI-compatible server: a
 * saved model's defaults, then `aivory conversations set` (instructions, parameters, context
 * policy) reach the next request's body; `conversations show` prints them with the totals.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

interface Body {
  messages: { role: string; content: string }[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

describe('aivory conversations set / show', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('sends the model defaults, then the conversation settings over them', async () => {
    server = await startScriptedLlmServer([
      { content: 'one' },
      { content: 'two' },
      { content: 'three' },
      { content: 'four' },
      { content: 'five' },
    ]);
    const env = cliEnv(makeDataDir());
    const body = (index: number): Body => server?.requests[index]?.body as unknown as Body;
    const added = await runCli(
      [
        'models',
        'add',
        '--base-url',
        server.baseUrl,
        '--model',
        'm',
        '--temperature',
        '0.3',
        '--max-tokens',
        '200',
        '--default',
      ],
      env,
    );
    expect(added.code).toBe(0);
    const modelId = added.stdout.trim();

    const first = await runCli(['chat', '--json', 'hello'], env);
    expect(first.code).toBe(0);
    const id = String(jsonLines(first.stdout)[0]?.conversationId);
    expect(body(0).temperature).toBe(0.3);
    expect(body(0).max_tokens).toBe(200);
    expect(body(0)).not.toHaveProperty('top_p');
    const seedPrompt = body(0).messages[0]?.content ?? '';
    expect(seedPrompt).not.toContain('<conversation_instructions>');

    const set = await runCli(
      [
        'conversations',
        'set',
        id,
        '--system',
        'Answer like a pirate.',
        '--temperature',
        '0.7',
        '--top-p',
        '0.9',
        '--context',
        'last:1',
      ],
      env,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('temperature: 0.7');
    expect(set.stdout).toContain('max tokens: 200 (model default)');
    expect(set.stdout).toContain('context: last:1');

    await runCli(['chat', '--json', '--conversation', id, 'second'], env);
    const second = body(1);
    expect(second.temperature).toBe(0.7);
    expect(second.top_p).toBe(0.9);
    expect(second.max_tokens).toBe(200);
    const system = second.messages[0]?.content ?? '';
    // The main prompt comes first, unchanged; the instructions follow in their own section.
    expect(system.startsWith(seedPrompt.split("Today's date")[0] ?? '')).toBe(true);
    expect(system).toContain(
      '<conversation_instructions>\nAnswer like a pirate.\n</conversation_instructions>',
    );
    // last:1 — only the previous answer is replayed ("hello" is left out; the history then
    // starts at a user message, so the lone answer goes too).
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user']);

    await runCli(['chat', '--json', '--conversation', id, 'third'], env);
    const turns = jsonLines(
      (await runCli(['chat', '--json', '--conversation', id, 'fourth'], env)).stdout,
    );
    expect(turns[0]).toMatchObject({ type: 'turn-start', omittedMessages: 6 });

    const cleared = await runCli(
      [
        'conversations',
        'set',
        id,
        '--clear-system',
        '--temperature',
        'default',
        '--context',
        'all',
      ],
      env,
    );
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('system prompt: none');
    expect(cleared.stdout).toContain('temperature: 0.3 (model default)');

    const shown = await runCli(['conversations', 'show', id], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^ {2}turns: 4 · models: m · tokens: [1-9]\d* in, [1-9]\d* out$/m);
    expect(shown.stdout).toContain('\n  settings: top_p 0.9\n');

    const edited = await runCli(['models', 'edit', modelId, '--temperature', 'default'], env);
    expect(edited.code).toBe(0);
    expect(edited.stdout).toContain('max tokens 200');
    expect(edited.stdout).not.toContain('temperature');

    // The model's default instructions and context policy reach a conversation without its own.
    const withDefaults = await runCli(
      ['models', 'edit', modelId, '--system', 'Always answer in French.', '--context', 'last:2'],
      env,
    );
    expect(withDefaults.code).toBe(0);
    expect(withDefaults.stdout).toContain('instructions (own text), context last:2');
    const fifth = jsonLines(
      (await runCli(['chat', '--json', '--conversation', id, 'fifth'], env)).stdout,
    );
    expect(fifth[0]).toMatchObject({ type: 'turn-start', omittedMessages: 6 });
    const sent = body(4).messages;
    expect(sent[0]?.content).toContain('<conversation_instructions>\nAlways answer in French.');
    expect(sent).toHaveLength(1 + 2 + 1);
    const described = await runCli(['conversations', 'set', id], env);
    expect(described.stdout).toContain('(model default)');
    expect(described.stdout).toContain('context: last:2 (model default)');
  }, 90_000);

  it('refuses out-of-range values and unknown prompts with a clear message', async () => {
    server = await startScriptedLlmServer([{ content: 'a' }]);
    const env = cliEnv(makeDataDir());
    const first = await runCli(
      ['chat', '--json', '--base-url', server.baseUrl, '--model', 'm', 'hello'],
      env,
    );
    const id = String(jsonLines(first.stdout)[0]?.conversationId);
    const hot = await runCli(['conversations', 'set', id, '--temperature', '3'], env);
    expect(hot.code).toBe(2);
    expect(hot.stderr).toContain('--temperature 3: must be a number from 0 to 2');
    const tokens = await runCli(['conversations', 'set', id, '--max-tokens', '1.5'], env);
    expect(tokens.code).toBe(2);
    expect(tokens.stderr).toContain('whole number');
    const context = await runCli(['conversations', 'set', id, '--context', 'tokens:10'], env);
    expect(context.code).toBe(2);
    expect(context.stderr).toContain('from 256');
    const prompt = await runCli(['conversations', 'set', id, '--system-prompt', 'nope'], env);
    expect(prompt.code).not.toBe(0);
    expect(prompt.stderr).toContain('No saved prompt named "nope"');
    const both = await runCli(['conversations', 'set', id, '--system', 'x', '--clear-system'], env);
    expect(both.code).toBe(2);
  }, 120_000);
});
