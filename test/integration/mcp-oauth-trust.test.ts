/**
 * The same-origin rule of a local service's sign-in, and its "or ask" half, through McpServices
 * against the local OAuth lab (test/support/oauth-lab.ts) with the real loopback listener and
 * `$BROWSER` the redirect follower:
 *
 * - a service on 127.0.0.1 whose metadata names another port of 127.0.0.1 (a planted listener
 *   that counts connections) is refused before any connection goes there, with a message naming
 *   both origins and the flag that allows it, and the view offers the origin to trust;
 * - trusted, that other port (a second lab playing the service's own authorization server, as a
 *   local Keycloak would) signs the user in;
 * - trust for one service does not apply to another service on the same host;
 * - trust input is checked: exact origins on the service's own local host only, bounded errors.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loopbackSignIn } from '../../src/main/adapters/oauth/loopback-sign-in';
import { openBrowser } from '../../src/main/adapters/oauth/open-browser';
import { AivoryError } from '../../src/shared/errors';
import type { McpServices } from '../../src/main/services/mcp/mcp-services';
import { localMcpServices } from '../support/local-mcp-services';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';

const signal = () => AbortSignal.timeout(90_000);

function services(): McpServices {
  const home = mkdtempSync(join(tmpdir(), 'aivory-oauth-trust-'));
  return localMcpServices(home, {
    signIn: (service, announce) =>
      loopbackSignIn({
        label: service.name,
        timeoutMs: 60_000,
        show: async (url) => {
          announce(url);
          await openBrowser(url.href, { BROWSER: REDIRECT_FOLLOWER });
        },
      }),
  });
}

/** Another program on this machine: a TCP listener on 127.0.0.1 that counts connections. */
async function plantListener(): Promise<{
  origin: string;
  connections: () => number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

function expectInvalid(run: () => Promise<unknown>, pattern: RegExp) {
  return expect(
    run().then(
      () => 'no error',
      (error: unknown) => {
        expect(error).toBeInstanceOf(AivoryError);
        const { code, message } = error as AivoryError;
        expect(code).toBe('invalid-input');
        expect(message.length).toBeLessThan(400);
        return message;
      },
    ),
  ).resolves.toMatch(pattern);
}

describe('MCP sign-in on a local host: the service’s own origin, or one the user trusts', () => {
  let lab: OAuthLab;
  let auth: OAuthLab;
  let h: McpServices;
  beforeEach(async () => {
    // `lab` is the MCP server; `auth`, on another port of 127.0.0.1, its authorization server.
    auth = await startOAuthLab();
    lab = await startOAuthLab({ authorizationServers: [auth.origin], tokenIssuer: auth });
    h = services();
  });
  afterEach(async () => {
    await h.close();
    await lab.close();
    await auth.close();
  });

  const add = (name: string, url = lab.url) =>
    h.add({ name, url, description: 'Says who the token belongs to.' });

  it('refuses another local port before connecting, and asks: the view offers to trust it', async () => {
    const other = await plantListener();
    try {
      lab.knobs.authorizationServers = [other.origin];
      await add('lab');
      const tested = await h.test('lab', signal());
      expect(tested.ok).toBe(false);
      expect(tested.message).toContain(`${other.origin} is on the service's local host`);
      expect(tested.message).toContain(`service's own address (${lab.origin})`);
      expect(tested.message).toContain(`aivory mcp edit lab --trust-auth-server ${other.origin}`);
      expect(other.connections()).toBe(0);
      const [view] = await h.list();
      expect(view?.refusedSignInOrigin).toBe(other.origin);

      // The service's own metadata pointing its registration there: refused the same way.
      lab.knobs.authorizationServers = null;
      lab.knobs.metadata = { registration_endpoint: `${other.origin}/register` };
      const again = await h.test('lab', signal());
      expect(again.ok).toBe(false);
      expect(again.message).toContain(other.origin);
      expect(other.connections()).toBe(0);
      expect(lab.count('/register')).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('a trusted origin signs in; trust for one service does not apply to another', async () => {
    await add('one');
    const refused = await h.test('one', signal());
    expect(refused.ok).toBe(false);
    expect(auth.counts.size).toBe(0);
    expect((await h.list())[0]?.refusedSignInOrigin).toBe(auth.origin);

    const view = await h.trustSignInOrigin('one', auth.origin, true);
    expect(view.oauth?.trustedOrigins).toEqual([auth.origin]);
    expect(view.refusedSignInOrigin).toBeNull();
    const tested = await h.test('one', signal());
    expect(tested).toMatchObject({ ok: true });
    expect(auth.grants).toEqual(['authorization_code']);
    expect(auth.count('/register')).toBe(1);
    expect(lab.grants).toEqual([]);
    expect((await h.signInStatus('one'))?.authServer).toBe(auth.origin);

    // Another service on the same host (another MCP server naming the same authorization server)
    // gets nothing from the first one's trust.
    const second = await startOAuthLab({ authorizationServers: [auth.origin], tokenIssuer: auth });
    try {
      await add('two', second.url);
      const requestsBefore = [...auth.counts.values()].reduce((sum, count) => sum + count, 0);
      const other = await h.test('two', signal());
      expect(other.ok).toBe(false);
      expect(other.message).toContain(`--trust-auth-server ${auth.origin}`);
      expect([...auth.counts.values()].reduce((sum, count) => sum + count, 0)).toBe(requestsBefore);
      expect(h.get('two').oauth).toBeNull();
    } finally {
      await second.close();
    }

    // Taken back: refused again (the saved tokens still work until they must be renewed there).
    const untrusted = await h.trustSignInOrigin('one', auth.origin, false);
    expect(untrusted.oauth).toBeNull();
    expect(await h.logout('one')).toBe(true);
    const registrations = auth.count('/register');
    const after = await h.test('one', signal());
    expect(after.ok).toBe(false);
    expect(auth.count('/register')).toBe(registrations);
    expect(auth.count('/authorize')).toBe(1);
  });

  it('keeps trust with the service’s address: a new address drops it, with a notice', async () => {
    await h.add({
      name: 'lab',
      url: lab.url,
      description: 'Says who the token belongs to.',
      trustedOrigins: [`${auth.origin}/`],
    });
    expect(h.get('lab').oauth?.trustedOrigins).toEqual([auth.origin]);
    const moved = await h.update('lab', { url: auth.url });
    expect(moved.notice).toContain(`The trusted sign-in origins (${auth.origin}) were removed`);
    expect(h.get('lab').oauth).toBeNull();
  });

  it('checks what is trusted: exact origins on the service’s own local host, bounded errors', async () => {
    await add('lab');
    const trust = (origin: string) => () => h.trustSignInOrigin('lab', origin, true);
    await expectInvalid(trust('not a url'), /not an origin \(write it as http:\/\/host:port\)/);
    await expectInvalid(trust(`${auth.origin}/token`), /origin only .* without a path/);
    await expectInvalid(trust(`${auth.origin}/?x=1`), /without a path, query or fragment/);
    await expectInvalid(trust('ftp://127.0.0.1:21'), /must start with http:\/\/ or https:\/\//);
    await expectInvalid(trust('http://u:p@127.0.0.1:9'), /must not carry credentials/);
    await expectInvalid(
      trust('http://127.0.0.2:9000'),
      /not on the service's host \(127\.0\.0\.1\)/,
    );
    await expectInvalid(trust('http://localhost:9000'), /not on the service's host/);
    await expectInvalid(trust(lab.origin), /the service's own address, which needs no trust/);
    await expectInvalid(trust(`http://127.0.0.1:1/${'x'.repeat(5000)}`), /longer than 300/);
    await expectInvalid(trust(' '), /it is empty/);
    const many = Array.from({ length: 11 }, (_, index) => `http://127.0.0.1:${20_000 + index}`);
    await expectInvalid(
      () => h.update('lab', { trustedOrigins: many }),
      /At most 10 trusted sign-in origins per service \(got 11\)/,
    );
    expect(h.get('lab').oauth).toBeNull();
    // A public service's rules do not change: it cannot trust another origin.
    await h.add({ name: 'public', url: 'https://93.184.215.14/mcp', description: 'Public.' });
    await expectInvalid(
      () => h.trustSignInOrigin('public', 'https://93.184.215.14:8443', true),
      /only a service on this machine or your local network may trust another origin/,
    );
    // Garbage that never was trusted cannot be taken back either.
    await expect(h.trustSignInOrigin('lab', auth.origin, false)).rejects.toThrow(/does not trust/);
  });
});
