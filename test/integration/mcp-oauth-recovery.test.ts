/**
 * A sign-in that recovers, and the checks of the current specs, from the real `aivory` CLI against
 * the local OAuth lab (`$BROWSER` the redirect follower): an authorization server that forgot the
 * registered client gets a new registration, by itself, without the sign-in wait; `login
 * --new-client` and `logout --forget-client`; an authorization server's error (at the redirect, at
 * the token endpoint) ends the sign-in at once with its words and a non-zero exit; metadata naming
 * another issuer is refused (RFC 8414), on the 2025-03-26 fallback (no resource metadata) too; `iss` in the redirect is checked, and required when the
 * metadata advertises it (RFC 9207); registration says `application_type: native`.
 *
 * The sign-in wait is 5 minutes: each test's 90-second limit is what "at once" means here.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { cliEnv, makeDataDir, runCli } from '../support/run-cli';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';

const LIMIT_MS = 90_000;

describe('aivory mcp login: recovery and spec checks', () => {
  let lab: OAuthLab;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    lab = await startOAuthLab();
    env = cliEnv(makeDataDir(), { BROWSER: REDIRECT_FOLLOWER });
    const added = await runCli(
      ['mcp', 'add', '--name', 'lab', '--url', lab.url, '--description', 'Who am I.'],
      env,
    );
    expect(added.code).toBe(0);
  });
  afterEach(async () => {
    await lab.close();
  });

  const login = (...extra: string[]) => runCli(['mcp', 'login', 'lab', ...extra], env);

  it(
    're-registers by itself when the server forgot the client, without waiting',
    async () => {
      expect((await login()).code).toBe(0);
      expect(lab.count('/register')).toBe(1);
      // Registration as a native app (a loopback redirect URI), with the loopback redirect.
      expect(lab.registrations[0]).toMatchObject({
        application_type: 'native',
        token_endpoint_auth_method: 'none',
      });
      const firstClient = lab.accessTokens[0]?.clientId;

      lab.forgetClients();
      const started = Date.now();
      const again = await login();
      expect(again.stdout).toContain(`✓ signed in at ${lab.origin}`);
      expect(again.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(lab.count('/register')).toBe(2);
      // The browser went only to the new client's page; the old one was refused before.
      expect(lab.grants).toEqual(['authorization_code', 'authorization_code']);
      const secondClient = lab.accessTokens.at(-1)?.clientId;
      expect(secondClient).not.toBe(firstClient);
      const called = await runCli(['mcp', 'sync', 'lab', '--accept'], env);
      expect(called.code).toBe(0);
      expect(lab.count('/register')).toBe(2);
    },
    LIMIT_MS,
  );

  it(
    'login --new-client registers anew; logout keeps the client unless --forget-client',
    async () => {
      expect((await login()).code).toBe(0);
      expect(lab.count('/register')).toBe(1);
      expect((await login('--new-client')).code).toBe(0);
      expect(lab.count('/register')).toBe(2);

      const out = await runCli(['mcp', 'logout', 'lab'], env);
      expect(out.stdout).toBe('Signed out of lab: its tokens were deleted.\n');
      expect((await login()).code).toBe(0);
      expect(lab.count('/register')).toBe(2);

      const forget = await runCli(['mcp', 'logout', 'lab', '--forget-client'], env);
      expect(forget.stdout).toContain('Its client registration was dropped');
      expect((await login()).code).toBe(0);
      expect(lab.count('/register')).toBe(3);
    },
    LIMIT_MS,
  );

  it(
    'an error redirect (access_denied) ends the sign-in at once with its words',
    async () => {
      lab.knobs.deny = 'The user said no\u0007';
      const denied = await login();
      expect(denied.code).not.toBe(0);
      expect(denied.stdout).toContain(
        '✗ sign-in failed: "lab": the sign-in was not completed: access_denied: The user said no',
      );
      expect(denied.stdout).not.toContain('\u0007');
      expect(lab.grants).toEqual([]);
    },
    LIMIT_MS,
  );

  it(
    "a token endpoint's error ends the sign-in at once with its words",
    async () => {
      lab.knobs.tokenError = { error: 'invalid_grant', error_description: 'the code expired' };
      const failed = await login();
      expect(failed.code).not.toBe(0);
      expect(failed.stdout).toContain(
        `"lab": ${lab.origin}'s authorization server refused: invalid_grant: the code expired`,
      );
    },
    LIMIT_MS,
  );

  it(
    'refuses metadata that names another issuer (RFC 8414), before any browser',
    async () => {
      lab.knobs.metadata = { issuer: 'https://elsewhere.example' };
      const refused = await login();
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toContain(
        `refused the authorization server metadata for ${lab.origin}`,
      );
      expect(refused.stdout).toContain('"https://elsewhere.example"');
      expect(lab.count('/register')).toBe(0);
      expect(lab.count('/authorize')).toBe(0);
    },
    LIMIT_MS,
  );

  it(
    'refuses another issuer on the 2025-03-26 fallback too (metadata at the server origin)',
    async () => {
      // No protected resource metadata: the authorization server is looked up at the MCP
      // server's own origin, so the issuer must be on that origin.
      lab.knobs.resourceMetadata = false;
      lab.knobs.metadata = { issuer: 'https://elsewhere.example' };
      const refused = await login();
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toContain(
        `refused the authorization server metadata for ${lab.origin}/ (the MCP server's own origin: it has no protected resource metadata, the 2025-03-26 fallback): it names the issuer "https://elsewhere.example", and RFC 8414 requires it to be the URL it was fetched for`,
      );
      expect(lab.count('/.well-known/oauth-authorization-server')).toBeGreaterThan(0);
      expect(lab.count('/register')).toBe(0);
      expect(lab.count('/authorize')).toBe(0);
      expect(lab.grants).toEqual([]);

      // An issuer under a path of the same origin (servers of the 2025-03-26 revision named one):
      // no other server's identity, so this path takes it and signs in.
      lab.knobs.metadata = { issuer: `${lab.origin}/oauth` };
      const pathed = await login();
      expect(pathed.stdout).toContain(`✓ signed in at ${lab.origin}`);
      expect(pathed.code).toBe(0);

      // The issuer it was fetched for signs in on that path too.
      lab.knobs.metadata = {};
      const right = await login();
      expect(right.stdout).toContain(`✓ signed in at ${lab.origin}`);
      expect(right.code).toBe(0);
    },
    LIMIT_MS,
  );

  it(
    'requires iss when the metadata advertises it, and refuses a wrong one (RFC 9207)',
    async () => {
      lab.knobs.metadata = { authorization_response_iss_parameter_supported: true };
      const missing = await login();
      expect(missing.code).not.toBe(0);
      expect(missing.stdout).toContain(
        `it has no iss parameter, which ${lab.origin} says it sends (RFC 9207)`,
      );
      lab.knobs.iss = 'wrong';
      const wrong = await login();
      expect(wrong.code).not.toBe(0);
      expect(wrong.stdout).toContain(
        `it names the authorization server https://mix-up.example, not ${lab.origin}`,
      );
      expect(lab.grants).toEqual([]);

      // Not advertised, a wrong iss is still refused; the right one signs in.
      lab.knobs.metadata = {};
      expect((await login()).code).not.toBe(0);
      lab.knobs.iss = 'right';
      lab.knobs.metadata = { authorization_response_iss_parameter_supported: true };
      const right = await login();
      expect(right.stdout).toContain(`✓ signed in at ${lab.origin}`);
      expect(right.code).toBe(0);
    },
    LIMIT_MS,
  );

  it(
    'names the service in the sign-in message when no browser can open',
    async () => {
      const renamed = await runCli(['mcp', 'edit', 'lab', '--name', 'My Lab'], env);
      expect(renamed.code).toBe(0);
      const failed = await runCli(['mcp', 'test', 'My Lab'], {
        ...env,
        BROWSER: '/nonexistent/browser',
      });
      expect(failed.code).not.toBe(0);
      expect(failed.stdout + failed.stderr).toContain(
        "no browser could be opened and there is no terminal to show its link: run aivory mcp login 'My Lab' in a terminal",
      );
    },
    LIMIT_MS,
  );
});
