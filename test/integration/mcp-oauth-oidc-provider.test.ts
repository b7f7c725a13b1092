/**
 * Sign-in with a real authorization server: `oidc-provider` in front of an MCP server
 * (test/support/oidc-lab.ts), through the real `aivory` CLI with `$BROWSER` the redirect follower.
 * It registers Aivory only as a native app (a loopback redirect URI), sends `iss` in its
 * redirects and advertises it (RFC 9207), and serves its metadata as OpenID Connect discovery.
 * Restarted with its store wiped, it no longer knows the registered client and answers the
 * authorization request itself (no redirect back): `aivory mcp login` registers again, by itself,
 * and signs in without the sign-in wait (the test's limit is far below the 5-minute wait).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcLab } from '../support/oidc-lab';
import { startOidcLab } from '../support/oidc-lab';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';

describe('aivory mcp login with oidc-provider', () => {
  let lab: OidcLab;
  beforeAll(async () => {
    lab = await startOidcLab();
  });
  afterAll(async () => {
    await lab.close();
  });

  it('signs in, and after a restart that forgot the client registers again at once', async () => {
    const env = cliEnv(makeDataDir(), { BROWSER: REDIRECT_FOLLOWER });
    const added = await runCli(
      ['mcp', 'add', '--name', 'oidc lab', '--url', lab.url, '--description', 'Who am I.'],
      env,
    );
    expect(added.code).toBe(0);
    const first = await runCli(['mcp', 'login', 'oidc lab'], env);
    expect(first.stderr + first.stdout).toContain(`✓ signed in at ${lab.origin}`);
    expect(first.code).toBe(0);
    expect(lab.count('/reg')).toBe(1);
    expect((await runCli(['mcp', 'sync', 'oidc lab', '--accept'], env)).code).toBe(0);
    expect((await runCli(['mcp', 'enable', 'oidc lab'], env)).code).toBe(0);
    const called = await runCli(['mcp', 'call', 'oidc lab', 'whoami', '{}'], env);
    expect(called.stdout).toMatch(/^subject=oidc-lab-user client=\S+\n$/);
    const firstClient = /client=(\S+)/.exec(called.stdout)?.[1];

    await lab.restart();
    const started = Date.now();
    const again = await runCli(['mcp', 'login', 'oidc lab'], env);
    expect(again.stderr + again.stdout).toContain(`✓ signed in at ${lab.origin}`);
    expect(again.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(lab.count('/reg')).toBe(2);
    const after = await runCli(['mcp', 'call', 'oidc lab', 'whoami', '{}'], env);
    expect(after.code).toBe(0);
    expect(/client=(\S+)/.exec(after.stdout)?.[1]).not.toBe(firstClient);
  }, 150_000);
});
