/**
 * MCP OAuth sign-in through McpServices against the local OAuth lab (test/support/oauth-lab.ts),
 * with the real loopback listener and `$BROWSER` (the redirect follower, or a marker script that
 * only records that it was started):
 *
 * - a call that is not the user's own (a chat turn's, the session directly) with no tokens fails
 *   at once with the sign-in message, and no browser is started;
 * - an expired access token with a refresh token renews without a browser, on the open
 *   connection and on a new one;
 * - the authorization server's addresses follow the rules: a metadata address, a public-looking
 *   name resolving into the LAN or to this machine, and plain http to another host than the
 *   service's are refused, naming the address, before any request goes there; a sign-in page that
 *   is not a web page is never opened.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loopbackSignIn } from '../../src/main/adapters/oauth/loopback-sign-in';
import { openBrowser } from '../../src/main/adapters/oauth/open-browser';
import type { HostResolver } from '../../src/main/core/ports';
import type { McpServices } from '../../src/main/services/mcp/mcp-services';
import { buildEntries } from '../../src/main/services/mcp/mcp-turn-tools';
import { localMcpServices } from '../support/local-mcp-services';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';
import { recordingLogger } from '../support/turn-harness';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';

/** The message names the service in its command (every service here is "lab"). */
const SIGN_IN_MESSAGE =
  /needs you to sign in \(OAuth\); sign in from the service's card in Settings → MCP or run aivory mcp login lab$/;

interface Harness {
  home: string;
  services: McpServices;
  /** How many times the user's part of a sign-in was asked for. */
  signIns: number;
  /** Every sign-in page handed to the browser. */
  shown: string[];
  /** The $BROWSER used from now on. */
  browser: string;
  /** A marker browser: a script that only writes the URL it got to `markerFile`. */
  markerBrowser: string;
  markerFile: string;
}

function harness(options: { resolver?: HostResolver; home?: string } = {}): Harness {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'aivory-oauth-'));
  const markerFile = join(home, 'browser-started');
  const markerBrowser = join(home, 'marker-browser.sh');
  writeFileSync(markerBrowser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${markerFile}'\n`);
  chmodSync(markerBrowser, 0o755);
  const state: Harness = {
    home,
    services: undefined as unknown as McpServices,
    signIns: 0,
    shown: [],
    browser: REDIRECT_FOLLOWER,
    markerBrowser,
    markerFile,
  };
  state.services = localMcpServices(home, {
    ...(options.resolver ? { resolver: options.resolver } : {}),
    signIn: (service, announce) => {
      state.signIns += 1;
      return loopbackSignIn({
        label: service.name,
        timeoutMs: 120_000,
        show: async (url) => {
          state.shown.push(url.href);
          announce(url);
          await openBrowser(url.href, { BROWSER: state.browser });
        },
      });
    },
  });
  return state;
}

function fakeResolver(map: Record<string, string>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve: (hostname) => {
      asked.push(hostname);
      const address = map[hostname.toLowerCase()];
      return address === undefined
        ? Promise.reject(new Error(`no such host ${hostname}`))
        : Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
    },
  };
}

const signal = () => AbortSignal.timeout(90_000);

describe('MCP OAuth through McpServices', () => {
  let lab: OAuthLab;
  let h: Harness;
  beforeEach(async () => {
    lab = await startOAuthLab();
  });
  afterEach(async () => {
    await h?.services.close();
    await lab.close();
  });

  async function addService(name = 'lab', url = lab.url) {
    await h.services.add({ name, url, description: 'Says who the token belongs to.' });
    return h.services.get(name);
  }

  it('a call that is not the user’s own fails at once with the sign-in message, no browser', async () => {
    h = harness();
    h.browser = h.markerBrowser;
    const service = await addService();
    // The session directly (as a chat turn opens it): no user, no tokens.
    await expect(
      (async () => (await h.services.session(service, signal())).listTools(signal()))(),
    ).rejects.toThrow(SIGN_IN_MESSAGE);
    expect(h.signIns).toBe(0);
    expect(lab.count('/authorize')).toBe(0);
    expect(lab.count('/register')).toBe(0);
    expect(lab.grants).toEqual([]);
    expect(existsSync(h.markerFile)).toBe(false);

    // Signed in by the user (sync), accepted, enabled — then signed out: a turn's tool call is
    // refused with the same message, still without a browser.
    h.browser = REDIRECT_FOLLOWER;
    const synced = await h.services.sync('lab', { accept: true, signal: signal() });
    expect(synced.toolCount).toBe(1);
    expect(h.signIns).toBe(1);
    h.services.setEnabled('lab', true);
    expect(await h.services.logout('lab')).toBe(true);
    h.browser = h.markerBrowser;
    const entries = buildEntries(
      {
        services: h.services,
        store: (h.services as unknown as { dependencies: { store: never } }).dependencies.store,
        artifacts: { save: () => Promise.reject(new Error('no artifacts')) } as never,
        scratchConversationId: 'scratch',
      },
      new Set(),
    );
    const entry = entries.find((candidate) => candidate.mcpTool === 'whoami');
    expect(entry).toBeDefined();
    const started = Date.now();
    const output = await entry?.tool
      .execute(
        {},
        {
          conversationId: null,
          signal: signal(),
          logger: recordingLogger(),
          approve: () => Promise.resolve('once'),
        },
      )
      .catch((error: unknown) => ({ content: String(error) }));
    expect(output?.content).toMatch(SIGN_IN_MESSAGE);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(h.signIns).toBe(1);
    expect(existsSync(h.markerFile)).toBe(false);
    expect(lab.count('/authorize')).toBe(1);
  });

  it('renews an expired access token with the refresh token, without a browser', async () => {
    h = harness();
    const service = await addService();
    const tested = await h.services.test('lab', signal());
    expect(tested).toMatchObject({ ok: true });
    expect(h.signIns).toBe(1);
    expect(lab.grants).toEqual(['authorization_code']);
    const status = await h.services.signInStatus('lab');
    expect(status).toMatchObject({ signedIn: true, authServer: lab.origin, refreshable: true });

    // The access token expires: the server answers 401; the open connection renews it.
    h.browser = h.markerBrowser;
    lab.expireAccessTokens();
    const session = await h.services.session(service, signal());
    const result = await session.callTool(
      'whoami',
      {},
      { signal: signal(), timeoutMs: 60_000, maxTotalTimeoutMs: 60_000, maxOutputChars: 1000 },
    );
    expect(JSON.stringify(result)).toContain('subject=user-of-lab-client-');
    expect(lab.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(h.signIns).toBe(1);
    expect(existsSync(h.markerFile)).toBe(false);

    // A new process (new McpServices over the same data) renews from the saved refresh token.
    await h.services.close();
    lab.expireAccessTokens();
    const again = harness({ home: h.home });
    again.browser = again.markerBrowser;
    h = again;
    const fresh = await h.services.session(h.services.get('lab'), signal());
    expect((await fresh.listTools(signal())).map((tool) => tool.name)).toEqual(['whoami']);
    expect(lab.grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
    // The access token only ever went to the MCP endpoint.
    expect(lab.bearerElsewhere).toEqual([]);
    expect(h.signIns).toBe(0);
    expect(existsSync(h.markerFile)).toBe(false);
    // The newest tokens are the saved ones.
    const saved = readFileSync(join(h.home, 'secrets.json'), 'utf8');
    expect(saved).toContain(lab.accessTokens.at(-1)?.token);
    expect(saved).not.toContain(lab.accessTokens[0]?.token);
  });

  it('without a refresh token, an expired token needs the user again (no browser for a turn)', async () => {
    lab.knobs.refresh = false;
    h = harness();
    const service = await addService();
    expect(await h.services.test('lab', signal())).toMatchObject({ ok: true });
    lab.expireAccessTokens();
    h.browser = h.markerBrowser;
    await expect(
      (async () => (await h.services.session(service, signal())).listTools(signal()))(),
    ).rejects.toThrow(SIGN_IN_MESSAGE);
    expect(h.signIns).toBe(1);
    expect(existsSync(h.markerFile)).toBe(false);
  });

  it('leaves a service with the user’s own Authorization header alone', async () => {
    h = harness();
    h.browser = h.markerBrowser;
    await h.services.add({
      name: 'lab',
      url: lab.url,
      description: 'Says who the token belongs to.',
      headers: ['Authorization: Bearer the-users-own-token'],
    });
    const tested = await h.services.test('lab', signal());
    expect(tested.ok).toBe(false);
    expect(tested.message).toContain("HTTP 401); check the service's headers");
    expect(h.signIns).toBe(0);
    expect(lab.count('/register')).toBe(0);
    expect(lab.counts.has('/.well-known/oauth-protected-resource/mcp')).toBe(false);
    expect(existsSync(h.markerFile)).toBe(false);
  });

  it('steps up on 403 insufficient_scope for the user, never for a turn', async () => {
    h = harness();
    const service = await addService();
    expect(await h.services.test('lab', signal())).toMatchObject({ ok: true });
    expect(lab.accessTokens.at(-1)?.scope).toBe('mcp:tools');

    // The server now wants more: a call that is not the user's is refused, no browser.
    lab.knobs.requiredScope = 'mcp:admin';
    h.browser = h.markerBrowser;
    await expect(
      (async () => (await h.services.session(service, signal())).listTools(signal()))(),
    ).rejects.toThrow(
      /needs more permission than your sign-in grants \(mcp:tools mcp:admin\); sign in again from the service's card in Settings → MCP or run aivory mcp login lab$/,
    );
    expect(h.signIns).toBe(1);
    // No pointless refresh either (a refresh never widens the scope).
    expect(lab.grants).toEqual(['authorization_code']);
    expect(existsSync(h.markerFile)).toBe(false);

    // The user's own action signs in again with the scope the server asked for.
    h.browser = REDIRECT_FOLLOWER;
    const stepped = await h.services.test('lab', signal());
    expect(stepped).toMatchObject({ ok: true });
    expect(h.signIns).toBe(2);
    expect(lab.accessTokens.at(-1)?.scope.split(' ')).toContain('mcp:admin');
    expect(lab.grants).toEqual(['authorization_code', 'authorization_code']);
    const session = await h.services.session(service, signal());
    expect((await session.listTools(signal())).map((tool) => tool.name)).toEqual(['whoami']);
    expect(existsSync(h.markerFile)).toBe(false);
  });

  it('concurrent refusals share one refresh', async () => {
    h = harness();
    const service = await addService();
    expect(await h.services.test('lab', signal())).toMatchObject({ ok: true });
    h.browser = h.markerBrowser;
    lab.expireAccessTokens();
    const session = await h.services.session(service, signal());
    const lists = await Promise.all([1, 2, 3].map(() => session.listTools(signal())));
    expect(lists.map((tools) => tools.length)).toEqual([1, 1, 1]);
    expect(lab.grants).toEqual(['authorization_code', 'refresh_token']);
    expect(existsSync(h.markerFile)).toBe(false);
  });

  it('a denied sign-in ends with the server’s reason, cleaned, and nothing saved', async () => {
    lab.knobs.deny = 'The user\u001b[2J said\r\nno';
    h = harness();
    await addService();
    const tested = await h.services.test('lab', signal());
    expect(tested.ok).toBe(false);
    expect(tested.message).toContain(
      'the sign-in was not completed: access_denied: The user [2J said no',
    );
    // eslint-disable-next-line no-control-regex
    expect(tested.message).not.toMatch(/[\u0000-\u001f]/);
    expect(lab.grants).toEqual([]);
    expect(await h.services.signInStatus('lab')).toMatchObject({ signedIn: false });
    // The user tries again and approves: signed in.
    lab.knobs.deny = null;
    expect(await h.services.login('lab', signal())).toMatchObject({ ok: true });
    expect(await h.services.signInStatus('lab')).toMatchObject({ signedIn: true });
  });

  it('refuses an authorization server answer over 256 KiB', async () => {
    lab.knobs.metadata = { padding: 'x'.repeat(300 * 1024) };
    h = harness();
    h.browser = h.markerBrowser;
    await addService();
    const tested = await h.services.test('lab', signal());
    expect(tested.ok).toBe(false);
    expect(tested.message).toContain('sent a sign-in answer over 256 KiB');
    expect(existsSync(h.markerFile)).toBe(false);
  });

  describe('authorization server address rules', () => {
    it('refuses a metadata address, naming it, with no browser', async () => {
      lab.knobs.authorizationServers = ['http://169.254.169.254/'];
      h = harness();
      h.browser = h.markerBrowser;
      await addService();
      const tested = await h.services.test('lab', signal());
      expect(tested.ok).toBe(false);
      expect(tested.message).toContain('169.254.169.254');
      expect(existsSync(h.markerFile)).toBe(false);
      expect(h.shown).toEqual([]);
      // Nothing was asked of the lab's own authorization server instead.
      expect(lab.count('/register')).toBe(0);
      expect(lab.count('/authorize')).toBe(0);
    });

    it('refuses the metadata address over https too (typed address)', async () => {
      lab.knobs.authorizationServers = ['https://169.254.169.254/'];
      h = harness();
      h.browser = h.markerBrowser;
      await addService();
      const tested = await h.services.test('lab', signal());
      expect(tested.ok).toBe(false);
      expect(tested.message).toContain('169.254.169.254');
      expect(existsSync(h.markerFile)).toBe(false);
    });

    for (const [label, address] of [
      ['the LAN', '10.20.30.40'],
      ['this machine', '127.0.0.1'],
      ['a link-local address', '169.254.169.254'],
    ] as const) {
      it(`refuses a public-looking name that resolves to ${label}, naming it`, async () => {
        const resolver = fakeResolver({ 'auth.example.com': address });
        lab.knobs.authorizationServers = ['https://auth.example.com/'];
        h = harness({ resolver });
        h.browser = h.markerBrowser;
        await addService();
        const tested = await h.services.test('lab', signal());
        expect(tested.ok).toBe(false);
        // The check ran: the name was resolved and refused by the address rules.
        expect(resolver.asked).toContain('auth.example.com');
        expect(tested.message).toContain('auth.example.com');
        expect(existsSync(h.markerFile)).toBe(false);
        expect(h.shown).toEqual([]);
      });
    }

    it('refuses plain http to a loopback authorization server under another hostname', async () => {
      // The service is http://localhost:P/mcp; its authorization server a second lab on
      // http://127.0.0.1:Q — reachable, so a request that went there would be counted.
      const service = await startOAuthLab({ urlHost: 'localhost' });
      try {
        service.knobs.authorizationServers = [lab.origin];
        h = harness({ resolver: fakeResolver({ localhost: '127.0.0.1' }) });
        h.browser = h.markerBrowser;
        await addService('lab', service.url);
        const tested = await h.services.test('lab', signal());
        expect(tested.ok).toBe(false);
        expect(tested.message).toContain(lab.origin);
        expect(tested.message).toContain('https://');
        expect(lab.counts.size).toBe(0);
        expect(existsSync(h.markerFile)).toBe(false);
        // 127.0.0.2 (also this machine, nothing listening) the same.
        service.knobs.authorizationServers = ['http://127.0.0.2:9/'];
        const second = await h.services.test('lab', signal());
        expect(second.ok).toBe(false);
        expect(second.message).toContain('127.0.0.2');
      } finally {
        await service.close();
      }
    });

    it('on the service’s own local host, only its own origin: a server on another port gets nothing', async () => {
      // Both on 127.0.0.1, on different ports: the service (lab) names the other as its
      // authorization server, then points its own metadata's registration endpoint at it.
      const other = await startOAuthLab();
      try {
        lab.knobs.authorizationServers = [other.origin];
        h = harness();
        h.browser = h.markerBrowser;
        await addService();
        const tested = await h.services.test('lab', signal());
        expect(tested.ok).toBe(false);
        expect(tested.message).toContain(other.origin);
        expect(tested.message).toContain(`not the service's own address (${lab.origin})`);
        expect(other.counts.size).toBe(0);
        expect(existsSync(h.markerFile)).toBe(false);

        lab.knobs.authorizationServers = null;
        lab.knobs.metadata = { registration_endpoint: `${other.origin}/register` };
        const again = await h.services.test('lab', signal());
        expect(again.ok).toBe(false);
        expect(again.message).toContain(other.origin);
        expect(other.counts.size).toBe(0);
        expect(existsSync(h.markerFile)).toBe(false);
      } finally {
        await other.close();
      }
    });

    it('never connects to a typed private address of another host (https)', async () => {
      // Node connects to an address literal without a lookup: the check must not rely on one.
      // A TCP listener on 127.0.0.2 (this machine, not the service's host) counts connections.
      const connections: Socket[] = [];
      const trap = createServer((socket) => {
        connections.push(socket);
        socket.destroy();
      });
      await new Promise<void>((done) => trap.listen(0, '127.0.0.2', done));
      try {
        const port = (trap.address() as AddressInfo).port;
        lab.knobs.authorizationServers = [`https://127.0.0.2:${port}/`];
        h = harness();
        h.browser = h.markerBrowser;
        await addService();
        const tested = await h.services.test('lab', signal());
        expect(tested.ok).toBe(false);
        expect(connections).toHaveLength(0);
        expect(tested.message).toContain('127.0.0.2');
        expect(tested.message).toMatch(/refused/);
        expect(existsSync(h.markerFile)).toBe(false);
      } finally {
        await new Promise((done) => trap.close(done));
      }
    });

    for (const endpoint of ['token_endpoint', 'registration_endpoint'] as const) {
      it(`never connects to a ${endpoint} on a private address of another host`, async () => {
        const connections: Socket[] = [];
        const trap = createServer((socket) => {
          connections.push(socket);
          socket.destroy();
        });
        await new Promise<void>((done) => trap.listen(0, '127.0.0.2', done));
        try {
          const port = (trap.address() as AddressInfo).port;
          lab.knobs.metadata = { [endpoint]: `https://127.0.0.2:${port}/x` };
          h = harness();
          await addService();
          const tested = await h.services.test('lab', signal());
          expect(tested.ok).toBe(false);
          expect(connections).toHaveLength(0);
          expect(tested.message).toContain('127.0.0.2');
          expect(lab.grants).toEqual([]);
        } finally {
          await new Promise((done) => trap.close(done));
        }
      });
    }

    for (const page of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ftp://127.0.0.1/x',
      'aivory-evil://open',
      'http://127.0.0.2:9/authorize',
      'https://user:pass@127.0.0.1/authorize',
    ]) {
      it(`never opens an authorization_endpoint of ${page}`, async () => {
        lab.knobs.metadata = { authorization_endpoint: page };
        h = harness();
        h.browser = h.markerBrowser;
        await addService();
        const tested = await h.services.test('lab', signal());
        expect(tested.ok).toBe(false);
        expect(h.shown).toEqual([]);
        expect(existsSync(h.markerFile)).toBe(false);
        expect(lab.count('/authorize')).toBe(0);
      });
    }
  });
});
