/**
 * `aivory mcp roots` from the real CLI against the real server-everything (Streamable HTTP):
 * none by default, `--add DIR --name NAME` (a file or a missing folder refused), the folder's
 * file:// URL seen by the server's `get-roots-list` through `aivory mcp call`, `--remove`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const folders = realpathSync(mkdtempSync(join(tmpdir(), 'aivory-roots-cli-')));
afterAll(() => rmSync(folders, { recursive: true, force: true }));

describe('aivory mcp roots with server-everything', () => {
  let server: EverythingServer;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    env = cliEnv(makeDataDir());
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  it('lists, adds, shows the folder to the server, removes', async () => {
    const notes = join(folders, 'notes');
    mkdirSync(notes);
    writeFileSync(join(folders, 'file.txt'), 'x');
    const add = await runCli(
      ['mcp', 'add', '--name', 'everything', '--url', server.url, '--description', 'Test tools'],
      env,
    );
    expect(add.code).toBe(0);

    const none = await runCli(['mcp', 'roots', 'everything'], env);
    expect(none).toMatchObject({ code: 0, stdout: 'No folders shared with everything.\n' });

    const file = await runCli(
      ['mcp', 'roots', 'everything', '--add', join(folders, 'file.txt')],
      env,
    );
    expect(file.code).not.toBe(0);
    expect(file.stderr).toContain('is a file, not a folder');
    const missing = await runCli(
      ['mcp', 'roots', 'everything', '--add', join(folders, 'gone')],
      env,
    );
    expect(missing.stderr).toContain('There is no folder at');

    const added = await runCli(
      ['mcp', 'roots', 'everything', '--add', notes, '--name', 'My notes'],
      env,
    );
    expect(added).toMatchObject({ code: 0, stdout: `Shared ${notes} with everything.\n` });
    const listed = await runCli(['mcp', 'roots', 'everything'], env);
    expect(listed.stdout).toBe(`${notes}\tMy notes\n`);
    const json = await runCli(['mcp', 'roots', 'everything', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual([{ path: notes, name: 'My notes' }]);

    // The server sees it: its get-roots-list tool exists now that the client announces roots.
    expect((await runCli(['mcp', 'sync', 'everything', '--accept'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'everything'], env)).code).toBe(0);
    const called = await runCli(['mcp', 'call', 'everything', 'get-roots-list', '{}'], env);
    expect(called.code).toBe(0);
    expect(called.stdout).toContain(`URI: ${pathToFileURL(notes).href}`);
    expect(called.stdout).toContain('1. My notes');

    const removed = await runCli(['mcp', 'roots', 'everything', '--remove', notes], env);
    expect(removed).toMatchObject({
      code: 0,
      stdout: `everything no longer sees ${notes}.\nNo folders shared with everything.\n`,
    });
    const usage = await runCli(['mcp', 'roots', 'everything', '--name', 'x'], env);
    expect(usage.code).toBe(2);
  }, 90_000);
});
