/**
 * A conversation whose only sandbox save is damaged (the archive truncated on disk, as a failing
 * disk or a bad copy leaves it), with the real binary, real Docker and the real runner image:
 * python_execute fails with a result that says what happened, where the save is and how to get
 * out (`aivory sandbox reset-workspace`); that command keeps the damaged file aside, byte for byte,
 * where it says; the next run starts with an empty /workspace. On a save that reads fine the same
 * command is refused and the save is left as it was.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import { DAMAGED_WORKSPACE_PREFIX } from '../../src/shared/sandbox-workspace';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';

const call = (code: string) =>
  `<tool_call>${JSON.stringify({ name: 'python_execute', arguments: { code } })}</tool_call>`;

/** Every file under /workspace, as paths relative to it. */
const LIST_FILES = `import os
print(sorted(os.path.relpath(os.path.join(r, f), '/workspace') for r, _, fs in os.walk('/workspace') for f in fs))`;

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

describe('a conversation whose only sandbox save is damaged', () => {
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
  });

  it('names the way out; reset-workspace keeps the save aside; the next run starts empty', async () => {
    requireDockerAndImage();
    const archiveDir = mkdtempSync(join(tmpdir(), 'aivory-damaged-only-'));
    server = await startScriptedLlmServer([
      { content: call("open('only.txt', 'w').write('x ' * 5000)\nprint('written')") },
      { content: 'Wrote it.' },
      { content: call(LIST_FILES) },
      { content: 'The sandbox files could not be restored.' },
      { content: call(LIST_FILES) },
      { content: 'Empty now.' },
      { content: call("open('fresh.txt', 'w').write('y' * 100)\nprint('fresh')") },
      { content: 'Saved.' },
    ]);
    const env = cliEnv(makeDataDir(), {
      AIVORY_LOCAL_SANDBOX: '1',
      SANDBOX_ARCHIVE_DIR: archiveDir,
    });
    const chat = (conversation: string | null, text: string) =>
      runCli(
        [
          'chat',
          '--json',
          '--base-url',
          server?.baseUrl ?? '',
          '--model',
          'scripted-model',
          '--tool-mode',
          'prompt',
          ...(conversation === null ? [] : ['--conversation', conversation]),
          text,
        ],
        env,
      );
    const toolOutput = (stdout: string): { output: string; isError?: boolean } =>
      jsonLines(stdout).find((event) => event.type === 'tool-result') as {
        output: string;
        isError?: boolean;
      };

    // 1. One save of the workspace (written when the CLI's sidecar stops).
    const first = await chat(null, 'Write a file');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const { conversationId } = jsonLines(first.stdout).find(
      (event) => event.type === 'turn-start',
    ) as { conversationId: string };
    const archive = join(
      archiveDir,
      `${createHash('sha256').update(conversationId).digest('hex')}.tar.gz`,
    );
    // The CLI saves after the cell and again when it stops, so the older generation is there
    // too; without it (a first save, or one older than the retention) the damaged save is the
    // only one.
    rmSync(`${archive}.prev`);
    truncateSync(archive, Math.floor(statSync(archive).size / 2));
    const damagedHash = sha256(archive);

    // 2. python_execute fails, saying where the damaged save is and how to start empty.
    const second = await chat(conversationId, 'List the files');
    expect(second.code).toBe(0);
    const failed = toolOutput(second.stdout);
    // How the damage reads depends on the archive's format (zstd here: the decoder's words).
    const damage = failed.output.match(/could not be read \((.+?)\) and there is no/)?.[1];
    expect(damage).toMatch(/\S/);
    expect(failed.output).toBe(
      [
        `${DAMAGED_WORKSPACE_PREFIX} the last save of /workspace could not be read (${damage}) and there is no older save; the damaged save is kept (${archive})`,
        `Every python_execute in this conversation fails until the user chooses to start with an empty /workspace; the damaged save is then kept aside under a name ending in .damaged-<time>, not deleted. To choose: the "Start with an empty workspace" button under this call in the app, or \`aivory sandbox reset-workspace ${conversationId}\` in a terminal.`,
        'Tell the user this in your answer, and do not call python_execute again in this turn.',
      ].join('\n'),
    );
    expect(sha256(archive)).toBe(damagedHash);

    // 3. The way out: the damaged save is kept aside, byte for byte, where the command says.
    const reset = await runCli(['sandbox', 'reset-workspace', conversationId], env);
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    const kept = reset.stdout.match(/kept \(not deleted\) at (\S+)\.\n$/)?.[1];
    expect(reset.stdout).toBe(
      `The next run in this conversation starts with an empty /workspace. The damaged save is kept (not deleted) at ${kept}.\n`,
    );
    expect(kept).toMatch(new RegExp(`^${archive}\\.damaged-[\\dT-]+Z$`));
    expect(sha256(kept as string)).toBe(damagedHash);
    expect(existsSync(archive)).toBe(false);

    // 4. The next run starts with an empty /workspace, and is saved again.
    const third = await chat(conversationId, 'List the files again');
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
    const listed = toolOutput(third.stdout);
    expect(listed.output).toMatch(/^status: ok \(\d+ ms\)\nstdout:\n\[\]\n$/);
    const fourth = await chat(conversationId, 'Write another file');
    expect(fourth.code).toBe(0);
    expect(existsSync(archive)).toBe(true);
    expect(sha256(kept as string)).toBe(damagedHash);

    // 5. On a save that reads fine the command is refused and nothing changes.
    const goodHash = sha256(archive);
    const refused = await runCli(['sandbox', 'reset-workspace', conversationId], env);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'aivory: The last save of /workspace can be read; it is restored by the next run; nothing was changed.\n',
    );
    expect(refused.code).toBe(1);
    expect(sha256(archive)).toBe(goodHash);
  }, 300_000);
});
