/**
 * `aivory mcp complete` against server-everything (a prompt's argument narrowed by `--context`, a
 * resource template's variable, `--json`) and `aivory mcp resource --watch --count N` against a
 * server whose resource changes by itself while watched: the content again after each change,
 * then unsubscribed and done.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { EverythingServer } from '../support/mcp-everything-server';
import { CLOCK_URI, startWatchedServer } from '../support/mcp-watched-server';
import type { WatchedServer } from '../support/mcp-watched-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

describe('aivory mcp complete and resource --watch', () => {
  const home = makeDataDir();
  const env = cliEnv(home);
  let everything: EverythingServer;
  let watched: WatchedServer;
  beforeAll(async () => {
    [everything, watched] = await Promise.all([
      startEverythingServer('streamableHttp'),
      startWatchedServer({ intervalMs: 100 }),
    ]);
    for (const [name, url] of [
      ['everything', everything.url],
      ['clock', watched.url],
    ] as const) {
      const added = await runCli(
        ['mcp', 'add', '--name', name, '--url', url, '--description', 'test'],
        env,
      );
      expect(added.code, added.stderr).toBe(0);
    }
  }, 120_000);
  afterAll(async () => {
    await everything?.stop();
    await watched?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('prints the suggestions one a line', async () => {
    const departments = await runCli(
      ['mcp', 'complete', 'everything', 'prompt', 'completable-prompt', 'department'],
      env,
    );
    expect(departments.code, departments.stderr).toBe(0);
    expect(departments.stdout).toBe('Engineering\nSales\nMarketing\nSupport\n');
    const names = await runCli(
      [
        'mcp',
        'complete',
        'everything',
        'prompt',
        'completable-prompt',
        'name',
        'G',
        '--context',
        'department=Marketing',
      ],
      env,
    );
    expect(names.stdout).toBe('Grace\n');
    const ids = await runCli(
      [
        'mcp',
        'complete',
        'everything',
        'resource',
        'demo://resource/dynamic/text/{resourceId}',
        'resourceId',
        '12',
        '--json',
      ],
      env,
    );
    expect(JSON.parse(ids.stdout)).toEqual({ values: ['12'], hasMore: false, total: 1 });
    const none = await runCli(
      ['mcp', 'complete', 'everything', 'prompt', 'completable-prompt', 'department', 'Z'],
      env,
    );
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('No suggestions.');
    const usage = await runCli(['mcp', 'complete', 'everything', 'tool', 'x', 'y'], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: aivory mcp complete SERVICE prompt NAME ARG [PREFIX]');
  }, 120_000);

  it('prints a watched resource again after each change, N times', async () => {
    const result = await runCli(
      ['mcp', 'resource', 'clock', CLOCK_URI, '--watch', '--count', '3'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const ticks = result.stdout.trim().split('\n');
    expect(ticks).toHaveLength(4);
    for (const line of ticks) expect(line).toMatch(/^tick \d+$/);
    const numbers = ticks.map((line) => Number(line.slice(5)));
    expect(numbers.at(-1)).toBeGreaterThan(numbers[0] ?? 0);
    expect(result.stderr).toContain(`Watching ${CLOCK_URI} for changes (Ctrl-C stops).`);
    expect(result.stderr.match(/— changed/g)).toHaveLength(3);
    expect(watched.requests).toEqual(['subscribe', 'unsubscribe']);
  }, 120_000);

  it('refuses --count without --watch', async () => {
    const result = await runCli(['mcp', 'resource', 'clock', CLOCK_URI, '--count', '3'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--count goes with --watch.');
  }, 30_000);
});
