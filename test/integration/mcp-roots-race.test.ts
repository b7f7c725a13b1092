/**
 * The roots race of a one-shot command: a server that asks for `roots/list` shortly after the
 * handshake (as server-filesystem does) must have the shared folders before the first call.
 * The real CLI with a real SDK server over stdio (test/support/mcp-late-roots-server.ts), whose
 * tool answers with the folders it holds at the time of the call; before the connector waited
 * for the server's question, the first call of every command got "[]".
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const SERVER = resolve('test/support/mcp-late-roots-server.ts');

describe('a server that asks for roots after the handshake', () => {
  it('has the shared folder at the first call of a one-shot command', async () => {
    const home = makeDataDir();
    const env = cliEnv(home, { LATE_ROOTS_DELAY_MS: '150' });
    const shared = realpathSync(home);
    mkdirSync(resolve(shared, 'Shared notes'));
    const folder = resolve(shared, 'Shared notes');
    expect((await runCli(['settings', 'set', 'mcp.allowLocalCommands', 'true'], env)).code).toBe(0);
    const added = await runCli(
      [
        'mcp',
        'add',
        '--name',
        'files',
        '--command',
        process.execPath,
        '--arg',
        '--import',
        '--arg',
        'tsx',
        '--arg',
        SERVER,
        '--description',
        'Reads shared folders.',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect((await runCli(['mcp', 'roots', 'files', '--add', folder], env)).code).toBe(0);
    expect((await runCli(['mcp', 'sync', 'files', '--accept'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'files'], env)).code).toBe(0);
    // Each command is a new connection: every one of them must see the folder at once.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const call = await runCli(['mcp', 'call', 'files', 'allowed-folders', '{}'], env);
      expect(call.stderr).toBe('');
      expect(JSON.parse(call.stdout)).toEqual([pathToFileURL(folder).href]);
    }
  }, 120_000);
});
