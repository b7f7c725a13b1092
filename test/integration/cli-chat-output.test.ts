/**
 * Chat output and titles from the real CLI (issue 22): a file a tool made is printed with its
 * whole path (the result line is cut at 120 characters; the path was cut with it), and `aivory
 * conversations rename` gives a conversation the user's own title, checked.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeImagesServer } from '../support/fake-images-server';
import { startFakeImagesServer } from '../support/fake-images-server';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const GENERATE = `<tool_call>${JSON.stringify({
  name: 'image_generate',
  arguments: { prompt: 'a red fox', action: 'generate', base_image: 'none' },
})}</tool_call>`;

const CONTINUE_LINE = /conversation (\S+) · continue with/;

describe('aivory chat output', () => {
  let llm: ScriptedLlmServer | null = null;
  let images: FakeImagesServer | null = null;
  afterEach(async () => {
    await llm?.close();
    await images?.close();
    llm = null;
    images = null;
  });

  it('prints the full path of every file a tool made', async () => {
    const home = makeDataDir();
    // Deep enough that the path alone is longer than a trace line's preview.
    const artifacts = join(home, 'a-very-long-folder-name-for-artifacts'.repeat(4), 'more');
    mkdirSync(artifacts, { recursive: true });
    const env = cliEnv(home, { AIVORY_ARTIFACTS_DIR: artifacts });
    images = await startFakeImagesServer();
    await runCli(['settings', 'set', 'images.provider', 'openai'], env);
    await runCli(['settings', 'set', 'images.baseUrl', images.baseUrl], env);
    await runCli(['settings', 'set-key', 'images.apiKey', 'sk-images-1234567890abcdef'], env);
    llm = await startScriptedLlmServer([{ content: GENERATE }, { content: 'Here is the fox.' }]);
    const result = await runCli(
      [
        'chat',
        '--base-url',
        llm.baseUrl,
        '--model',
        'scripted-model',
        '--tool-mode',
        'prompt',
        '--tools',
        'image_generate',
        'Draw a red fox',
      ],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const line = result.stderr.split('\n').find((entry) => entry.includes('📎'));
    const path = line?.split(' → ')[1] ?? '';
    expect(path.startsWith(`${artifacts}/`)).toBe(true);
    expect(path.length).toBeGreaterThan(120);
    expect(existsSync(path)).toBe(true);
    expect(result.stdout).toBe('Here is the fox.\n');
  }, 120_000);
});

describe('aivory conversations rename', () => {
  let llm: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await llm?.close();
    llm = null;
  });

  it('gives the user’s title, checked; a generated title does not replace it', async () => {
    const home = makeDataDir();
    const env = cliEnv(home);
    llm = await startScriptedLlmServer(() => ({ content: 'Fine.' }), {
      titles: () => ({ content: 'Model title' }),
    });
    const base = ['chat', '--base-url', llm.baseUrl, '--model', 'scripted-model'];
    const first = await runCli([...base, 'How are you today?'], env);
    const id = CONTINUE_LINE.exec(first.stderr)?.[1] ?? '';
    const title = async (): Promise<string> => {
      const list = await runCli(['conversations', 'list', '--json'], env);
      return (JSON.parse(list.stdout) as { title: string }[])[0]?.title ?? '';
    };
    expect(await title()).toBe('Model title');

    const renamed = await runCli(['conversations', 'rename', id, 'My', 'own', 'title'], env);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toBe(`Renamed ${id}: My own title\n`);
    expect(await title()).toBe('My own title');

    for (const [bad, message] of [
      ['   ', 'not empty'],
      ['tab\there', 'control characters'],
      ['evil\u202Etxt.exe', 'control characters'],
      ['x'.repeat(201), 'at most 200 characters'],
    ] as const) {
      const refused = await runCli(['conversations', 'rename', id, bad], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(message);
    }
    const unknown = await runCli(['conversations', 'rename', 'conv_missing', 'Title'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No conversation with id conv_missing');

    // Later answers ask for no title, and the user's stays.
    await runCli([...base, '--conversation', id, 'And now?'], env);
    expect(llm.titleRequests).toHaveLength(1);
    expect(await title()).toBe('My own title');
  }, 120_000);
});
