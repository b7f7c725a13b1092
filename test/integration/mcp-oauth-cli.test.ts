/**
 * MCP OAuth from the real `aivory` CLI (bin/aivory.js, its own AIVORY_HOME) against the local
 * OAuth lab, with `$BROWSER` the redirect follower (test/support/oauth-browser.ts): add → sync
 * signs in (the link is printed) → list shows the sign-in → call → no token in the database or
 * the logs → logout → a call with no browser and no terminal fails with the sign-in message
 * instead of waiting. And a pre-registered client: its secret goes to the secret store, never the
 * database; a bad key file is a clear error.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { cliEnv, collect, makeDataDir, runCli, spawnCli } from '../support/run-cli';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';

const SIGN_IN_MESSAGE = /needs you to sign in \(OAuth\)/;

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files of `home` that must never hold a token or a secret: the database and the logs. */
function guardedFiles(home: string): string[] {
  const database = readdirSync(home)
    .filter((name) => name.startsWith('aivory.db'))
    .map((name) => join(home, name));
  return [...database, ...filesUnder(join(home, 'logs'))];
}

function holding(files: string[], secret: string): string[] {
  return files.filter((file) => readFileSync(file).includes(Buffer.from(secret, 'utf8')));
}

describe('aivory mcp with an OAuth sign-in', () => {
  let lab: OAuthLab;
  beforeAll(async () => {
    lab = await startOAuthLab({ clients: { 'lab-machine': 'cc-secret-0123456789abcdef' } });
  });
  afterAll(async () => {
    await lab.close();
  });

  it('signs in on sync, calls, keeps tokens out of the database and logs, signs out', async () => {
    const home = makeDataDir();
    const env = cliEnv(home, { BROWSER: REDIRECT_FOLLOWER });
    const added = await runCli(
      ['mcp', 'add', '--name', 'lab', '--url', lab.url, '--description', 'Who am I.'],
      env,
    );
    expect(added.code).toBe(0);

    const synced = await runCli(['mcp', 'sync', 'lab', '--accept'], env);
    expect(synced.stderr).toContain('Sign in to lab in your browser. If it did not open, open');
    expect(synced.stderr).toContain(`${lab.origin}/authorize?`);
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain('+ whoami: added');
    expect(lab.grants).toEqual(['authorization_code']);
    expect(lab.count('/register')).toBe(1);

    const listed = await runCli(['mcp', 'list'], env);
    expect(listed.stdout).toContain(`signed in at ${lab.origin}, expires `);
    expect(listed.stdout).toContain('(renews itself); sign out: aivory mcp logout lab');

    expect((await runCli(['mcp', 'enable', 'lab'], env)).code).toBe(0);
    const called = await runCli(['mcp', 'call', 'lab', 'whoami', '{}'], env);
    expect(called.stderr).toBe('');
    expect(called.stdout).toMatch(/^subject=user-of-lab-client-\w+ scope=mcp:tools\n$/);
    expect(called.code).toBe(0);
    // The saved sign-in was used: no second browser trip.
    expect(lab.count('/authorize')).toBe(1);

    // Every token is in the secret store and nowhere in the database or the logs.
    const secrets = readFileSync(join(home, 'secrets.json'), 'utf8');
    const latest = lab.accessTokens.at(-1)?.token ?? '';
    expect(latest).not.toBe('');
    expect(secrets).toContain(latest);
    const files = guardedFiles(home);
    expect(files.some((file) => file.endsWith('aivory.db'))).toBe(true);
    for (const token of [...lab.accessTokens.map((issued) => issued.token), ...lab.refreshTokens])
      expect(holding(files, token)).toEqual([]);

    const out = await runCli(['mcp', 'logout', 'lab'], env);
    expect(out).toMatchObject({ code: 0 });
    expect(out.stdout).toContain('Signed out of lab: its tokens were deleted.');
    expect((await runCli(['mcp', 'list'], env)).stdout).not.toContain('signed in');
    expect(readFileSync(join(home, 'secrets.json'), 'utf8')).not.toContain(latest);
    const again = await runCli(['mcp', 'logout', 'lab'], env);
    expect(again.stdout).toContain('lab was not signed in.');

    // No terminal and no browser that starts: the call says how to sign in, and ends.
    const child = spawnCli(['mcp', 'call', 'lab', 'whoami', '{}'], {
      ...env,
      BROWSER: join(home, 'no-such-browser'),
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const failed = await collect(child).finally(() => clearTimeout(guard));
    expect(failed.signal).toBeNull();
    expect(failed.code).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(SIGN_IN_MESSAGE);
    expect(failed.stdout + failed.stderr).toContain('aivory mcp login');
    expect(failed.stdout + failed.stderr).not.toContain('did not complete the MCP handshake');
    expect(lab.grants).toEqual(['authorization_code']);

    // `mcp login` signs in again (a new loopback listener; the registration is kept).
    const login = await runCli(['mcp', 'login', 'lab'], env);
    expect(login.stderr).toContain('Sign in to lab in your browser.');
    expect(login.stdout).toContain(`✓ signed in at ${lab.origin}; connected to oauth-lab 1.0.0`);
    expect(login.code).toBe(0);
    expect(lab.grants).toEqual(['authorization_code', 'authorization_code']);
    expect((await runCli(['mcp', 'list'], env)).stdout).toContain(`signed in at ${lab.origin}`);
  }, 240_000);

  it('keeps a pre-registered client secret in the secret store (client credentials)', async () => {
    const home = makeDataDir();
    const marker = join(home, 'browser-started');
    const browser = join(home, 'marker-browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" >> '${marker}'\n`);
    chmodSync(browser, 0o755);
    const env = cliEnv(home, { BROWSER: browser });
    const secret = 'cc-secret-0123456789abcdef';
    const added = await runCli(
      [
        'mcp',
        'add',
        '--name',
        'machine',
        '--url',
        lab.url,
        '--description',
        'Who am I, as a client.',
        '--client-id',
        'lab-machine',
        '--client-secret',
        secret,
        '--oauth-grant',
        'client-credentials',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(secret);
    const before = lab.grants.length;
    const synced = await runCli(['mcp', 'sync', 'machine', '--accept'], env);
    expect(synced.code).toBe(0);
    expect(synced.stderr).not.toContain('Sign in to');
    expect(lab.grants.slice(before)).toEqual(['client_credentials']);
    expect(existsSync(marker)).toBe(false);
    expect((await runCli(['mcp', 'enable', 'machine'], env)).code).toBe(0);
    const called = await runCli(['mcp', 'call', 'machine', 'whoami', '{}'], env);
    expect(called.stdout).toContain('subject=client-lab-machine');

    const listed = await runCli(['mcp', 'list', '--json'], env);
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).toContain('lab-machine');
    expect(readFileSync(join(home, 'secrets.json'), 'utf8')).toContain(secret);
    const files = guardedFiles(home);
    expect(holding(files, secret)).toEqual([]);
    for (const issued of lab.accessTokens) expect(holding(files, issued.token)).toEqual([]);
  });

  it('reads a client secret from standard input or a file, never from the command line', async () => {
    const home = makeDataDir();
    const env = cliEnv(home);
    const secret = 'cc-secret-0123456789abcdef';
    const base = ['mcp', 'add', '--url', lab.url, '--description', 'Who am I, as a client.'];
    const fromStdin = await runCli(
      [
        ...base,
        '--name',
        'piped',
        '--client-id',
        'lab-machine',
        '--client-secret-file',
        '-',
        '--oauth-grant',
        'client-credentials',
      ],
      env,
      { input: `${secret}\n` },
    );
    expect(fromStdin.code).toBe(0);
    const before = lab.grants.length;
    const synced = await runCli(['mcp', 'sync', 'piped', '--accept'], env);
    expect(synced.code).toBe(0);
    expect(lab.grants.slice(before)).toEqual(['client_credentials']);
    expect(readFileSync(join(home, 'secrets.json'), 'utf8')).toContain(secret);
    expect(readFileSync(join(home, 'secrets.json'), 'utf8')).not.toContain(`${secret}\n`);

    const file = join(home, 'secret.txt');
    writeFileSync(file, 'line one\nline two\n');
    const twoLines = await runCli(
      [...base, '--name', 'f', '--client-id', 'a', '--client-secret-file', file],
      env,
    );
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).toContain('--client-secret-file must hold the secret on one line.');
    expect(twoLines.stderr).not.toContain('line one');
    const both = await runCli(
      [
        ...base,
        '--name',
        'f',
        '--client-id',
        'a',
        '--client-secret',
        's',
        '--client-secret-file',
        file,
      ],
      env,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give --client-secret or --client-secret-file, not both.');
    const missing = await runCli(
      [...base, '--name', 'f', '--client-id', 'a', '--client-secret-file', join(home, 'nope')],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--client-secret-file: cannot read ${join(home, 'nope')}.`);
  });

  it('refuses a client key file that is missing or not a private key, clearly', async () => {
    const home = makeDataDir();
    const env = cliEnv(home);
    const base = ['mcp', 'add', '--name', 'k', '--url', lab.url, '--description', 'd'];
    const missing = await runCli(
      [...base, '--client-id', 'a', '--client-key-file', join(home, 'nope.pem')],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--client-key-file: cannot read ${join(home, 'nope.pem')}.`);

    const bad = join(home, 'bad.pem');
    writeFileSync(
      bad,
      '-----BEGIN PRIVATE KEY-----\nTOP-SECRET-GARBAGE\n-----END PRIVATE KEY-----\n',
    );
    const garbage = await runCli([...base, '--client-id', 'a', '--client-key-file', bad], env);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('The OAuth client key is not a PEM private key.');
    expect(garbage.stderr).not.toContain('TOP-SECRET-GARBAGE');

    const huge = join(home, 'huge.pem');
    writeFileSync(huge, 'x'.repeat(70 * 1024));
    const tooBig = await runCli([...base, '--client-id', 'a', '--client-key-file', huge], env);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toContain('over 64 KiB');

    const noId = await runCli([...base, '--client-secret', 's'], env);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('needs its client id (--client-id)');
    const grant = await runCli([...base, '--oauth-grant', 'password'], env);
    expect(grant.code).toBe(2);
    expect(grant.stderr).toContain(
      '--oauth-grant must be authorization-code or client-credentials.',
    );
    expect((await runCli(['mcp', 'list', '--json'], env)).stdout.trim()).toBe('[]');
  });
});

describe('aivory mcp --trust-auth-server (a local authorization server on another port)', () => {
  let auth: OAuthLab;
  let lab: OAuthLab;
  beforeAll(async () => {
    auth = await startOAuthLab();
    lab = await startOAuthLab({ authorizationServers: [auth.origin], tokenIssuer: auth });
  });
  afterAll(async () => {
    await lab.close();
    await auth.close();
  });

  it('refuses with the flag to use, then signs in through the trusted origin; garbage is refused', async () => {
    const home = makeDataDir();
    const env = cliEnv(home, { BROWSER: REDIRECT_FOLLOWER });
    const add = ['mcp', 'add', '--name', 'lab', '--url', lab.url, '--description', 'Who am I.'];
    expect((await runCli(add, env)).code).toBe(0);

    const refused = await runCli(['mcp', 'sync', 'lab', '--accept'], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`${auth.origin} is on the service's local host`);
    expect(refused.stderr).toContain(`aivory mcp edit lab --trust-auth-server ${auth.origin}`);
    expect(auth.counts.size).toBe(0);

    for (const [flags, message] of [
      [['--trust-auth-server', 'garbage'], 'not an origin (write it as http://host:port)'],
      [['--trust-auth-server', `${auth.origin}/token`], 'give the origin only'],
      [['--trust-auth-server', 'http://127.0.0.2:80'], "not on the service's host (127.0.0.1)"],
      [['--trust-auth-server', lab.origin], "the service's own address, which needs no trust"],
      [['--untrust-auth-server', auth.origin], 'lab does not trust'],
    ] as const) {
      const bad = await runCli(['mcp', 'edit', 'lab', ...flags], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(message);
    }
    const untrustOnAdd = await runCli([...add, '--untrust-auth-server', auth.origin], env);
    expect(untrustOnAdd.code).toBe(2);
    expect(untrustOnAdd.stderr).toContain('--untrust-auth-server applies to aivory mcp edit only.');

    const trusted = await runCli(['mcp', 'edit', 'lab', '--trust-auth-server', auth.origin], env);
    expect(trusted.code).toBe(0);
    expect((await runCli(['mcp', 'list'], env)).stdout).toContain(
      `sign-in may also use ${auth.origin} (trusted)`,
    );
    const synced = await runCli(['mcp', 'sync', 'lab', '--accept'], env);
    expect(synced.stderr).toContain(`${auth.origin}/authorize?`);
    expect(synced.code).toBe(0);
    expect(auth.grants).toEqual(['authorization_code']);
    expect(lab.grants).toEqual([]);

    // Given on `add` it works from the start; `--untrust-auth-server` takes it back.
    const second = await runCli(
      [...add.slice(0, 3), 'lab2', ...add.slice(4), '--trust-auth-server', `${auth.origin}/`],
      env,
    );
    expect(second.code).toBe(0);
    const list = JSON.parse((await runCli(['mcp', 'list', '--json'], env)).stdout) as {
      name: string;
      oauth: { trustedOrigins: string[] } | null;
    }[];
    expect(list.find((service) => service.name === 'lab2')?.oauth?.trustedOrigins).toEqual([
      auth.origin,
    ]);
    const taken = await runCli(['mcp', 'edit', 'lab2', '--untrust-auth-server', auth.origin], env);
    expect(taken.code).toBe(0);
    const again = await runCli(['mcp', 'test', 'lab2'], env);
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toContain(`--trust-auth-server ${auth.origin}`);
  }, 240_000);
});
