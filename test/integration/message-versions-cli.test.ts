/** `aivory chat --regenerate / --edit`, `conversations show --all-versions` and `version`. */
import { afterEach, expect, it } from 'vitest';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

let server: ScriptedLlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

it('regenerates the last answer as a new version, edits a question, and shows or switches versions', async () => {
  const home = makeDataDir();
  server = await startScriptedLlmServer([
    { content: 'Blue.' },
    { content: 'Green, on second thought.' },
    { content: 'Red.' },
  ]);
  const model = ['--base-url', server.baseUrl, '--model', 'scripted-model'];
  const first = await runCli(['chat', '--json', ...model, 'Pick a colour'], cliEnv(home));
  expect(first.code).toBe(0);
  const conversationId = String(jsonLines(first.stdout)[0]?.conversationId);

  const again = await runCli(
    ['chat', '--conversation', conversationId, '--regenerate', ...model],
    cliEnv(home),
  );
  expect(again.code).toBe(0);
  expect(again.stdout).toBe('Green, on second thought.\n');
  // The same question went again, once, with no answer before it.
  const sent = server.requests[1]?.body.messages as { role: string; content: string }[];
  expect(sent.slice(1)).toEqual([{ role: 'user', content: 'Pick a colour' }]);

  const shown = await runCli(['conversations', 'show', conversationId], cliEnv(home));
  expect(shown.stdout).toContain('assistant [version 2/2]:\nGreen, on second thought.');
  expect(shown.stdout).not.toContain('Blue.');
  expect(shown.stdout).toContain(`aivory conversations show ${conversationId} --all-versions`);

  const all = await runCli(
    ['conversations', 'show', conversationId, '--all-versions'],
    cliEnv(home),
  );
  expect(all.stdout).toMatch(/ {2}assistant \[version 1\/2\] msg_\S+ \(not shown\):\nBlue\./);
  expect(all.stdout).toMatch(/ {2}assistant \[version 2\/2\] msg_\S+:\nGreen/);
  const firstAnswer = /assistant \[version 1\/2\] (msg_\S+)/.exec(all.stdout)?.[1] ?? '';

  const switched = await runCli(
    ['conversations', 'version', conversationId, firstAnswer],
    cliEnv(home),
  );
  expect(switched.code).toBe(0);
  const exported = await runCli(['conversations', 'export', conversationId], cliEnv(home));
  expect(exported.stdout).toContain('Blue.');
  expect(exported.stdout).not.toContain('Green');

  const question = /user (msg_\S+):/.exec(all.stdout)?.[1] ?? '';
  const edited = await runCli(
    ['chat', '--conversation', conversationId, '--edit', question, ...model, 'Pick a warm colour'],
    cliEnv(home),
  );
  expect(edited.stdout).toBe('Red.\n');
  const afterEdit = await runCli(['conversations', 'show', conversationId], cliEnv(home));
  expect(afterEdit.stdout).toContain('user [version 2/2]:\nPick a warm colour');

  // Wrong uses say what to do.
  const noConversation = await runCli(['chat', '--regenerate', ...model], cliEnv(home));
  expect(noConversation.code).toBe(2);
  expect(noConversation.stderr).toContain('--regenerate needs --conversation ID.');
  const withText = await runCli(
    ['chat', '--conversation', conversationId, '--regenerate', ...model, 'hi'],
    cliEnv(home),
  );
  expect(withText.stderr).toContain('give no MESSAGE');
  expect(server.requests).toHaveLength(3);
});
