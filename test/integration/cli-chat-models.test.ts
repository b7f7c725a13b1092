/**
 * `aivory chat --models a,b "…"` (issue 25, part 2): two saved models answer one question at once
 * from the scripted OpenAI-compatible server, which answers by the request's model name. Printed
 * one after another under a line naming each model; `--json` tags every event with its model;
 * while the group runs, another process's turn in the conversation is refused (one claim).
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';

const CLI_TEST = { timeout: 90_000 };
/** `EXIT_BUSY` in src/main/cli/cli-errors.ts. */
const EXIT_BUSY = 4;

let server: ScriptedLlmServer | null = null;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children.length = 0;
  await server?.close();
  server = null;
});

function modelOf(request: RecordedRequest): string {
  return String(request.body.model);
}

/** Saves the two models (labels "Alpha" and "Beta") in a new data directory. */
async function twoModels(baseUrl: string): Promise<string> {
  const home = makeDataDir();
  for (const [label, model] of [
    ['Alpha', 'alpha-7b'],
    ['Beta', 'beta-13b'],
  ] as const) {
    const added = await runCli(
      ['models', 'add', '--base-url', baseUrl, '--model', model, '--label', label],
      cliEnv(home),
    );
    expect(added.code, added.stderr).toBe(0);
  }
  return home;
}

describe('aivory chat --models', () => {
  it('prints each answer after the other, under its model; keeps the first', CLI_TEST, async () => {
    server = await startScriptedLlmServer((request) =>
      // Beta answers faster, yet it is printed second.
      modelOf(request) === 'alpha-7b'
        ? { content: 'Alpha: the sky is blue.', chunkSize: 3, delayMs: 5 }
        : { content: 'Beta: Rayleigh scattering.' },
    );
    const home = await twoModels(server.baseUrl);
    const result = await runCli(['chat', '--models', 'alpha,beta-13b', 'Why blue?'], cliEnv(home));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      '── Alpha (alpha-7b) ──\nAlpha: the sky is blue.\n\n── Beta (beta-13b) ──\nBeta: Rayleigh scattering.\n',
    );
    expect(result.stderr).toContain('kept: the answer of Alpha (the others are versions of it)');
    const keep = /keep Beta's instead: aivory conversations version (\S+) (\S+)/.exec(
      result.stderr,
    );
    expect(keep).not.toBeNull();
    const [, conversationId = '', betaMessage = ''] = keep ?? [];

    // Both stored as versions; keeping Beta's shows it.
    const shown = await runCli(['conversations', 'show', conversationId], cliEnv(home));
    expect(shown.stdout).toContain('Alpha: the sky is blue.');
    expect(shown.stdout).not.toContain('Rayleigh');
    const kept = await runCli(
      ['conversations', 'version', conversationId, betaMessage],
      cliEnv(home),
    );
    expect(kept.code, kept.stderr).toBe(0);
    const after = await runCli(['conversations', 'show', conversationId], cliEnv(home));
    expect(after.stdout).toContain(
      'assistant [version 2/2, beta-13b]:\nBeta: Rayleigh scattering.',
    );
    expect(after.stdout).not.toContain('the sky is blue');

    // A new version with another saved model: labelled with that model.
    const again = await runCli(
      ['chat', '--conversation', conversationId, '--regenerate', '--models', 'Alpha'],
      cliEnv(home),
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Alpha: the sky is blue.\n');
    const all = await runCli(
      ['conversations', 'show', conversationId, '--all-versions'],
      cliEnv(home),
    );
    expect(all.stdout).toMatch(/assistant \[version 1\/3, alpha-7b\] msg_\S+ \(not shown\)/);
    expect(all.stdout).toMatch(/assistant \[version 2\/3, beta-13b\] msg_\S+ \(not shown\)/);
    expect(all.stdout).toMatch(/assistant \[version 3\/3, alpha-7b\] msg_\S+:/);
  });

  it('--json tags every event with its model', CLI_TEST, async () => {
    server = await startScriptedLlmServer((request) => ({
      content: modelOf(request) === 'alpha-7b' ? 'From alpha.' : 'From beta.',
    }));
    const home = await twoModels(server.baseUrl);
    const result = await runCli(['chat', '--json', '--models', 'Alpha,Beta', 'Hi'], cliEnv(home));
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; model: string; turnId: string });
    expect(events.every((event) => event.model === 'alpha-7b' || event.model === 'beta-13b')).toBe(
      true,
    );
    const ends = events.filter((event) => event.type === 'turn-end') as unknown as {
      model: string;
      answer: string;
    }[];
    expect(ends.map((end) => [end.model, end.answer]).sort()).toEqual([
      ['alpha-7b', 'From alpha.'],
      ['beta-13b', 'From beta.'],
    ]);
    const texts = (model: string) =>
      events
        .filter((event) => event.type === 'text-delta' && event.model === model)
        .map((event) => (event as unknown as { text: string }).text)
        .join('');
    expect(texts('alpha-7b')).toBe('From alpha.');
    expect(texts('beta-13b')).toBe('From beta.');
    expect(Object.keys(events[0] ?? {}).slice(0, 2)).toEqual(['type', 'model']);
  });

  it('refuses another process while one answer of the group still streams', CLI_TEST, async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server = await startScriptedLlmServer((request) =>
      modelOf(request) === 'alpha-7b'
        ? { content: 'Alpha done.' }
        : modelOf(request) === 'beta-13b'
          ? {
              content: 'Beta is slow to finish.',
              chunkSize: 4,
              pauseAfterChunks: { count: 2, until: released },
            }
          : { content: 'Third answer.' },
    );
    const home = await twoModels(server.baseUrl);
    const group = spawnCli(['chat', '--json', '--models', 'Alpha,Beta', 'Question'], cliEnv(home));
    children.push(group);
    const groupDone = collect(group);
    // Wait until alpha's answer has ended (beta's is paused mid-stream).
    const conversationId = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      let id = '';
      group.stdout?.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          const event = JSON.parse(line) as {
            type: string;
            model: string;
            conversationId?: string;
          };
          if (event.type === 'turn-start') id = event.conversationId ?? '';
          if (event.type === 'turn-end' && event.model === 'alpha-7b') resolve(id);
        }
      });
      group.on('exit', () => reject(new Error('the group exited before alpha ended')));
    });
    const third = await runCli(
      [
        'chat',
        '--base-url',
        server.baseUrl,
        '--model',
        'gamma',
        '--conversation',
        conversationId,
        'Third',
      ],
      cliEnv(home),
    );
    expect(third.code).toBe(EXIT_BUSY);
    expect(third.stdout).toBe('');
    expect(server.requests.filter((request) => modelOf(request) === 'gamma')).toHaveLength(0);
    release();
    expect((await groupDone).code).toBe(0);
    const after = await runCli(
      [
        'chat',
        '--base-url',
        server.baseUrl,
        '--model',
        'gamma',
        '--conversation',
        conversationId,
        'Third',
      ],
      cliEnv(home),
    );
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe('Third answer.\n');
  });

  it('refuses unknown models, flags that clash, and more than four', CLI_TEST, async () => {
    const home = makeDataDir();
    const unknown = await runCli(['chat', '--models', 'nope,other', 'Hi'], cliEnv(home));
    expect(unknown.stderr).toContain('No saved model "nope"');
    expect(unknown.code).toBe(2);
    const clash = await runCli(['chat', '--models', 'a,b', '--model', 'x', 'Hi'], cliEnv(home));
    expect(clash.stderr).toContain('--models names saved models: give it without --model.');
    const many = await runCli(['chat', '--models', 'a,b,c,d,e', 'Hi'], cliEnv(home));
    expect(many.stderr).toContain('at most 4 models');
  });
});
