/**
 * `aivory chat` when the disk holding the sandbox archives is full (a real 256 KiB tmpfs as
 * SANDBOX_ARCHIVE_DIR, the real binary and runner image): the workspace that cannot be saved is
 * not dropped. The CLI says so in words and exits 1; the container is kept with the files; once
 * there is room, the next turn of the conversation has every file and the container is saved and
 * removed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { containerNamePrefix } from '../../sandbox/src/start-sidecar';
import { requireDockerAndImage } from '../../sandbox/test/support/docker-fixture';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';

const call = (code: string) =>
  `<tool_call>${JSON.stringify({ name: 'python_execute', arguments: { code } })}</tool_call>`;

const DIGEST = `import hashlib
print(hashlib.sha256(open('data.bin', 'rb').read()).hexdigest())`;

describe('aivory chat with a full archive disk', () => {
  const mounts: string[] = [];
  let server: ScriptedLlmServer | null = null;
  afterEach(async () => {
    await server?.close();
  });
  afterAll(() => {
    for (const mount of mounts) execFileSync('umount', [mount]);
  });

  it('keeps the files, says so, and saves them once there is room', async () => {
    requireDockerAndImage();
    const archiveDir = mkdtempSync(join(tmpdir(), 'aivory-full-archives-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', archiveDir]);
    mounts.push(archiveDir);
    server = await startScriptedLlmServer([
      { content: call(`import os\nopen('data.bin', 'wb').write(os.urandom(1 << 20))\n${DIGEST}`) },
      { content: 'Wrote 1 MiB.' },
      { content: call(DIGEST) },
      { content: 'Still there.' },
    ]);
    const env = cliEnv(makeDataDir(), {
      AIVORY_LOCAL_SANDBOX: '1',
      SANDBOX_ARCHIVE_DIR: archiveDir,
    });
    const base = [
      'chat',
      '--json',
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--tool-mode',
      'prompt',
    ];
    const first = await runCli([...base, 'Write 1 MiB'], env);
    const events = jsonLines(first.stdout);
    const start = events.find((event) => event.type === 'turn-start') as {
      conversationId: string;
    };
    const digest = (
      events.find((event) => event.type === 'tool-result') as { output: string }
    ).output.match(/stdout:\n([0-9a-f]{64})\n/)?.[1];
    expect(digest).toBeDefined();
    expect(first.stderr).toMatch(
      new RegExp(
        `^aivory: The sandbox files of conversation ${start.conversationId} could not be saved \\(.*(ENOSPC|no space left).*\\)\\. Its container was kept running with the files; saving is tried again the next time the sandbox starts\\.\\n$`,
        'i',
      ),
    );
    expect(first.code).toBe(1);
    const prefix = containerNamePrefix(archiveDir);
    const containers = (): string[] =>
      execFileSync('docker', ['ps', '-aq', '--filter', `name=${prefix}`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    expect(containers()).toHaveLength(1);

    // Doctor (its sidecar tries to save the kept files at start, and cannot) says it once: as the
    // conversation's files, from the sandbox's report, not again among the sandbox's warnings.
    const doctor = await runCli(['doctor'], env);
    const mentions = doctor.stdout
      .split('\n')
      .filter((line) => line.includes(start.conversationId));
    expect(mentions).toEqual([
      expect.stringMatching(
        new RegExp(
          `^✗ sandbox files of conversation ${start.conversationId}: not saved; kept in the running container [0-9a-f]{12} since \\d{4}-[\\d-]+T[\\d:.]+Z \\(.*(ENOSPC|no space left).*\\)\\.$`,
          'i',
        ),
      ),
    ]);
    expect(doctor.stdout).toContain(
      `  Free disk space for ${archiveDir} (or fix the archive store)`,
    );
    expect(doctor.stdout).toMatch(/✓ tool python_execute: available — local sandbox at /);
    expect(containers()).toHaveLength(1);

    execFileSync('mount', ['-o', 'remount,size=64m', archiveDir]);
    const second = await runCli(
      [...base, '--conversation', start.conversationId, 'Is it still there?'],
      env,
    );
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const result = jsonLines(second.stdout).find((event) => event.type === 'tool-result') as {
      output: string;
    };
    expect(result.output).toContain(`stdout:\n${digest}\n`);
    expect(containers()).toEqual([]);
  }, 300_000);
});
