/**
 * A service whose resource moves to another authorization server (SEP-2352), from the real
 * `aivory` CLI against the local OAuth lab (test/support/oauth-lab.ts; `$BROWSER` the redirect
 * follower). `lab` is the MCP server and its first authorization server; `second` and `third`
 * are two more labs on other ports of 127.0.0.1, trusted for the service, each playing the
 * authorization server the resource moves to (its Protected Resource Metadata names it, and the
 * MCP endpoint accepts only its tokens from then on).
 *
 * - Between two commands: the next command stops before anything reaches the new server (no
 *   registration, no browser page, no refresh token), naming both servers and how to approve;
 *   after `aivory mcp login lab --auth-server SECOND` it registers and signs in there, without
 *   remove + add; the old server's refresh token is not used and its client id never reaches the
 *   new server.
 * - Between two requests of one command (the move happens while the command runs, after its
 *   first authorized request): the command stops the same way, nothing reaches the third server.
 * - The accepted tools and their approvals stay; a server that refuses again without moving ends
 *   the command after one renewal (the retry limit).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';

const LIMIT_MS = 150_000;

/** The client id in `whoami`'s answer (`subject=user-of-CLIENT scope=…`). */
function clientOf(stdout: string): string | undefined {
  return /subject=user-of-(\S+)/.exec(stdout)?.[1];
}

describe('a service that moves to another authorization server', () => {
  let lab: OAuthLab;
  let second: OAuthLab;
  let third: OAuthLab;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    second = await startOAuthLab();
    third = await startOAuthLab();
    lab = await startOAuthLab();
    env = cliEnv(makeDataDir(), { BROWSER: REDIRECT_FOLLOWER });
  });
  afterEach(async () => {
    await lab.close();
    await second.close();
    await third.close();
  });

  /** The resource now names `to` as its authorization server and takes only its tokens. */
  function moveTo(to: OAuthLab): void {
    lab.knobs.authorizationServers = [to.origin];
    lab.knobs.ownTokens = false;
    lab.knobs.tokenIssuer = to;
  }

  const call = () => runCli(['mcp', 'call', 'lab', 'whoami', '{}'], env);

  it(
    'asks before signing in at the new server, then signs in there, keeping the tools',
    async () => {
      const added = await runCli(
        [
          'mcp',
          'add',
          '--name',
          'lab',
          '--url',
          lab.url,
          '--description',
          'Who am I.',
          '--trust-auth-server',
          second.origin,
          '--trust-auth-server',
          third.origin,
        ],
        env,
      );
      expect(added.code).toBe(0);
      expect((await runCli(['mcp', 'sync', 'lab', '--accept'], env)).code).toBe(0);
      expect((await runCli(['mcp', 'enable', 'lab'], env)).code).toBe(0);
      expect((await runCli(['mcp', 'approval', 'lab', 'whoami', 'allow'], env)).code).toBe(0);
      const first = await call();
      expect(first.code).toBe(0);
      const firstClient = clientOf(first.stdout);
      expect(firstClient).toBeDefined();
      expect(lab.count('/register')).toBe(1);
      expect(lab.grants).toEqual(['authorization_code']);

      // Between two commands: nothing reaches the new server before the user approves it.
      moveTo(second);
      const moved = await call();
      expect(moved.code).not.toBe(0);
      expect(moved.stdout + moved.stderr).toContain(
        `moved its sign-in from the authorization server ${lab.origin} to another one, ${second.origin}; nothing was sent there`,
      );
      expect(moved.stderr).not.toContain(`${second.origin}/authorize?`);
      expect([...second.counts.values()].reduce((sum, count) => sum + count, 0)).toBe(0);
      // The old server's refresh token stayed unused.
      expect(lab.grants).toEqual(['authorization_code']);

      // Approved: the sign-in registers and signs in at the new server, in the same command.
      const approved = await runCli(['mcp', 'login', 'lab', '--auth-server', second.origin], env);
      expect(approved.stderr).toContain(`${second.origin}/authorize?`);
      expect(approved.code).toBe(0);
      expect(second.count('/register')).toBe(1);
      expect(second.grants).toEqual(['authorization_code']);
      const signedIn = await call();
      expect(signedIn.code).toBe(0);
      const secondClient = clientOf(signedIn.stdout);
      expect(secondClient).toBe(second.accessTokens[0]?.clientId);
      expect(secondClient).not.toBe(firstClient);
      // Its client never went to the new one.
      expect(second.registrations).toHaveLength(1);
      expect(lab.grants).toEqual(['authorization_code']);
      const shown = await runCli(['mcp', 'list', '--json'], env);
      const [view] = JSON.parse(shown.stdout) as { signIn: { authServer: string | null } }[];
      expect(view?.signIn.authServer).toBe(second.origin);

      // Between two requests of one command: the move stops it, nothing reaches `third`.
      lab.knobs.onAuthorized = () => {
        lab.knobs.onAuthorized = null;
        moveTo(third);
      };
      const within = await call();
      expect(within.code).not.toBe(0);
      expect(within.stdout + within.stderr).toContain(`--auth-server ${third.origin}`);
      expect([...third.counts.values()].reduce((sum, count) => sum + count, 0)).toBe(0);
      // No refresh at the server the resource left, and no new sign-in there.
      expect(second.grants).toEqual(['authorization_code']);
      expect(lab.count('/register')).toBe(1);
      const approvedThird = await runCli(
        ['mcp', 'login', 'lab', '--auth-server', third.origin],
        env,
      );
      expect(approvedThird.code).toBe(0);
      expect(third.count('/register')).toBe(1);
      expect(third.grants).toEqual(['authorization_code']);
      const onThird = await call();
      expect(onThird.code).toBe(0);
      expect(clientOf(onThird.stdout)).toBe(third.accessTokens[0]?.clientId);

      // The tools and approvals accepted before the moves are kept (no remove + add).
      const tools = await runCli(['mcp', 'tools', 'lab', '--json'], env);
      const listed = JSON.parse(tools.stdout) as { name: string; approval: string }[];
      expect(listed).toEqual([expect.objectContaining({ name: 'whoami', approval: 'allow' })]);

      // The retry limit: the resource refuses the new server's tokens without moving again, so
      // the command renews once (a refresh) and a refusal after that ends it, instead of a loop
      // of refreshes or sign-ins.
      lab.knobs.tokenIssuer = null;
      const refused = await call();
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toContain('even after signing in');
      expect(third.grants).toEqual(['authorization_code', 'refresh_token']);
      expect(third.count('/authorize')).toBe(1);
    },
    LIMIT_MS,
  );
});
