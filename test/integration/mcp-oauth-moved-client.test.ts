/**
 * Entered client credentials stay with the authorization server they were entered for (issue 37,
 * item 2), from the real `aivory` CLI against two OAuth labs (test/support/oauth-lab.ts): `lab` is
 * the MCP server and its authorization server; `second`, another port of 127.0.0.1 trusted for
 * the service, knows the same client id and secret — so a secret sent there would work, and
 * the test says whether it was sent. The resource then names `second` in its metadata.
 *
 * - Client credentials: the move stops every command before any request reaches `second` (no
 *   token request, no metadata lookup, no secret), saying both servers and how to approve; `mcp
 *   list` says it too. Also with the binding removed as an older database has it (the issuer the
 *   saved sign-in is stamped with binds). After `aivory mcp login NAME --auth-server SECOND` the
 *   token comes from `second` and the call goes through.
 * - The check holds for the server the SDK's own discovery finds too (a resource that answers the
 *   check with the old server and the sign-in with the new one).
 * - A service bound by its first use only (no token saved, no binding: older data) binds to the
 *   first issuer it gets a token from.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';

const LIMIT_MS = 150_000;
const CLIENT_ID = 'lab-machine';
const SECRET = 'cc-secret-0123456789abcdef';

/** Every request `lab` received, in all. */
function requests(lab: OAuthLab): number {
  return [...lab.counts.values()].reduce((sum, count) => sum + count, 0);
}

describe('client credentials bound to their authorization server', () => {
  let lab: OAuthLab;
  let second: OAuthLab;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    second = await startOAuthLab({ clients: { [CLIENT_ID]: SECRET } });
    lab = await startOAuthLab({ clients: { [CLIENT_ID]: SECRET } });
    home = makeDataDir();
    env = cliEnv(home);
  });
  afterEach(async () => {
    await lab.close();
    await second.close();
  });

  /** The resource now names `second` as its authorization server and takes only its tokens. */
  function moveToSecond(): void {
    lab.knobs.authorizationServers = [second.origin];
    lab.knobs.ownTokens = false;
    lab.knobs.tokenIssuer = second;
  }

  async function addMachine(): Promise<void> {
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
        CLIENT_ID,
        '--client-secret',
        SECRET,
        '--oauth-grant',
        'client-credentials',
        '--trust-auth-server',
        second.origin,
      ],
      env,
    );
    expect(added.code).toBe(0);
  }

  const call = () => runCli(['mcp', 'call', 'machine', 'whoami', '{}'], env);

  /** The secret store without the service's issuer binding, as an older version left it. */
  function dropBinding(): void {
    const file = join(home, 'secrets.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    const refs = Object.keys(stored).filter((ref) => ref.endsWith('.oauth-issuer'));
    for (const ref of refs) delete stored[ref];
    writeFileSync(file, JSON.stringify(stored));
  }

  it(
    'asks before the secret goes to a new server, then goes there once approved',
    async () => {
      await addMachine();
      expect((await runCli(['mcp', 'sync', 'machine', '--accept'], env)).code).toBe(0);
      expect((await runCli(['mcp', 'enable', 'machine'], env)).code).toBe(0);
      expect(lab.grants).toEqual(['client_credentials']);
      expect(lab.secretsSeen).toEqual(['/token']);

      moveToSecond();
      const moved = await call();
      expect(moved.code).not.toBe(0);
      const said = moved.stdout + moved.stderr;
      expect(said).toContain(
        `moved its sign-in from the authorization server ${lab.origin} to another one, ${second.origin}; nothing was sent there`,
      );
      expect(said).toContain('the client ID and secret you entered');
      expect(said).toContain(`aivory mcp login machine --auth-server ${second.origin}`);
      // Before the binding, the entered id and secret went to `second` in HTTP Basic here.
      expect(second.secretsSeen).toEqual([]);
      expect(second.grants).toEqual([]);
      expect(requests(second)).toBe(0);

      // A new command, a login without the approval: the same question, nothing sent.
      const login = await runCli(['mcp', 'login', 'machine'], env);
      expect(login.code).not.toBe(0);
      expect(login.stdout + login.stderr).toContain(`--auth-server ${second.origin}`);
      expect(requests(second)).toBe(0);
      const listed = await runCli(['mcp', 'list'], env);
      expect(listed.stdout).toContain(
        `sign-in moved from ${lab.origin} to ${second.origin}, nothing sent there`,
      );
      const json = await runCli(['mcp', 'list', '--json'], env);
      const [view] = JSON.parse(json.stdout) as {
        movedSignIn: { from: string; to: string } | null;
      }[];
      expect(view?.movedSignIn).toEqual({ from: lab.origin, to: second.origin });

      // An older database has no binding: the issuer of the saved sign-in binds all the same.
      dropBinding();
      const older = await call();
      expect(older.code).not.toBe(0);
      expect(older.stdout + older.stderr).toContain(`--auth-server ${second.origin}`);
      expect(requests(second)).toBe(0);

      // Approved: the token comes from `second`, and the call goes through.
      const approved = await runCli(
        ['mcp', 'login', 'machine', '--auth-server', second.origin],
        env,
      );
      expect(approved.stdout).toContain(`bound to ${second.origin}`);
      expect(approved.code).toBe(0);
      expect(second.grants).toEqual(['client_credentials']);
      expect(second.secretsSeen).toEqual(['/token']);
      const after = await call();
      expect(after.code).toBe(0);
      expect(after.stdout).toContain(`subject=client-${CLIENT_ID}`);
      const cleared = await runCli(['mcp', 'list', '--json'], env);
      expect((JSON.parse(cleared.stdout) as { movedSignIn: unknown }[])[0]?.movedSignIn).toBeNull();
      // The first server got nothing more after the move but the resource's own metadata.
      expect(lab.grants).toEqual(['client_credentials']);
    },
    LIMIT_MS,
  );

  it(
    'checks the server the sign-in itself discovers: a resource that changes its answer gets nothing',
    async () => {
      await addMachine();
      expect((await runCli(['mcp', 'sync', 'machine', '--accept'], env)).code).toBe(0);
      expect(lab.grants).toEqual(['client_credentials']);
      // The resource names `lab` to the check before the sign-in, `second` to the SDK's own
      // discovery just after it (the approval drops the saved discovery, so it looks again).
      let asked = 0;
      lab.knobs.onResourceMetadata = () => {
        asked += 1;
        if (asked === 2) lab.knobs.authorizationServers = [second.origin];
      };
      const login = await runCli(['mcp', 'login', 'machine', '--auth-server', lab.origin], env);
      expect(login.code).not.toBe(0);
      expect(login.stdout + login.stderr).toContain(
        `from the authorization server ${lab.origin} to another one, ${second.origin}`,
      );
      expect(asked).toBe(2);
      // Its metadata was read (by the SDK, before the check), nothing else: no token request,
      // no secret.
      expect(second.grants).toEqual([]);
      expect(second.secretsSeen).toEqual([]);
      expect(second.count('/token')).toBe(0);
      expect(second.count('/register')).toBe(0);
      expect(lab.grants).toEqual(['client_credentials']);
    },
    LIMIT_MS,
  );

  it(
    'binds credentials never used (older data) to the first server that gives a token',
    async () => {
      await addMachine();
      dropBinding();
      // Never used: the first server the resource names is taken, and binds.
      moveToSecond();
      expect((await runCli(['mcp', 'sync', 'machine', '--accept'], env)).code).toBe(0);
      expect(second.grants).toEqual(['client_credentials']);
      // Bound now: the resource naming the first lab is a move, and nothing goes there.
      lab.knobs.authorizationServers = [lab.origin];
      lab.knobs.ownTokens = true;
      lab.knobs.tokenIssuer = null;
      const tokenRequests = lab.count('/token');
      const back = await runCli(['mcp', 'sync', 'machine'], env);
      expect(back.code).not.toBe(0);
      expect(back.stdout + back.stderr).toContain(
        `from the authorization server ${second.origin} to another one, ${lab.origin}`,
      );
      expect(lab.count('/token')).toBe(tokenRequests);
      expect(lab.secretsSeen).toEqual([]);

      // What may be approved: an http(s) issuer without credentials, query or fragment, bounded.
      const refusals: [string, string][] = [
        ['ftp://127.0.0.1/x', 'is not an http:// or https:// URL'],
        ['http://user:pass@127.0.0.1:1', 'must not carry credentials'],
        [`${lab.origin}/?tenant=1`, 'must not have a query or fragment'],
        [`${lab.origin}/${'x'.repeat(400)}`, 'longer than 300 characters'],
      ];
      for (const [issuer, why] of refusals) {
        const refused = await runCli(['mcp', 'login', 'machine', '--auth-server', issuer], env);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(why);
      }
      expect(lab.count('/token')).toBe(tokenRequests);
    },
    LIMIT_MS,
  );
});
