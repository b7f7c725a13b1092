/**
 * The connect deadline (20 s in the app) covers the handshake, not the user: connecting without a
 * token fails at once with McpSignInRequired (no browser), the user's sign-in
 * (`McpConnector.signIn`) runs with no deadline but the caller's signal, and a sign-in in the
 * browser that takes longer than the deadline still leads to a connection. The connector runs
 * against the local OAuth lab with a short deadline; the "user" approves only after it has passed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { loopbackSignIn } from '../../src/main/adapters/oauth/loopback-sign-in';
import { McpSignInRequired } from '../../src/main/core/ports';
import type { McpEndpoint, McpOAuthState, McpSession } from '../../src/main/core/ports';
import type { OAuthLab } from '../support/oauth-lab';
import { startOAuthLab } from '../support/oauth-lab';

const DEADLINE_MS = 3000;

/** The user's browser: follows the redirects of the authorization page back to the listener. */
async function approve(page: URL): Promise<number> {
  let url = page;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null) return response.status;
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

describe('connect deadline and a slow sign-in', () => {
  let lab: OAuthLab;
  let session: McpSession | null = null;
  beforeEach(async () => {
    lab = await startOAuthLab();
  });
  afterEach(async () => {
    await session?.close();
    await lab.close();
  });

  it('does not count the time the user spends in the browser', async () => {
    let state: McpOAuthState = {};
    let shownAt = 0;
    let shown: (url: URL) => void = () => undefined;
    const page = new Promise<URL>((resolve) => (shown = resolve));
    const endpoint: McpEndpoint = {
      transport: 'streamable-http',
      url: lab.url,
      headers: {},
      oauth: {
        load: () => Promise.resolve(state),
        save: (next) => {
          state = next;
          return Promise.resolve();
        },
        clientName: 'Aivory test',
        grant: 'authorization_code',
        bindIssuer: () => Promise.resolve(),
        resolveAddresses: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
        allowsHttp: () => true,
        refusedOrigin: () => null,
      },
    };
    const connector = createMcpConnector();
    const options = { signal: AbortSignal.timeout(60_000), timeoutMs: DEADLINE_MS };
    // No token: refused at once, no browser, the challenge kept for the sign-in.
    const refused = await connector.connect(endpoint, options).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(McpSignInRequired);
    expect(lab.count('/authorize')).toBe(0);
    const challenge = (refused as McpSignInRequired).challenge;
    const user = loopbackSignIn({
      label: 'lab',
      timeoutMs: 60_000,
      show: (url) => {
        shownAt = Date.now();
        shown(url);
      },
    });
    const signingIn = connector.signIn(endpoint, challenge, user, AbortSignal.timeout(60_000));
    signingIn.catch(() => undefined);
    const url = await page;
    // The user takes longer than the whole deadline (waiting on the clock is the point here).
    await new Promise((resolve) => setTimeout(resolve, shownAt + DEADLINE_MS + 1000 - Date.now()));
    expect(await approve(url)).toBe(200);
    await signingIn;
    session = await connector.connect(endpoint, options);
    expect((await session.listTools(AbortSignal.timeout(30_000))).map((t) => t.name)).toEqual([
      'whoami',
    ]);
    expect(lab.grants).toEqual(['authorization_code']);
  }, 120_000);
});
