/**
 * "URL elicitation required" (-32042) against a real local MCP server (SDK, Streamable HTTP on
 * loopback): the adapter shows each page the error names (as a URL elicitation marked `retry`),
 * and once the user is done — the server's `notifications/elicitation/complete` after the test's
 * browser visits the page, or the user's own "done" — tries the call again, once. Declined, too
 * many pages, a URL with credentials, or nobody to ask: the model reads that the user must open a
 * link, and the call is not repeated.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { Completions } from '../../src/main/adapters/mcp/mcp-elicitation';
import type {
  McpCallOptions,
  McpConnectOptions,
  McpElicitationRequest,
  McpSession,
} from '../../src/main/core/ports';
import { completedBy } from '../../src/shared/mcp-elicitation';
import type { UrlRequiredServer } from '../support/mcp-url-required-server';
import { LINK_MESSAGE, startUrlRequiredServer } from '../support/mcp-url-required-server';

const never = new AbortController().signal;
const CALL: McpCallOptions = {
  signal: never,
  timeoutMs: 20_000,
  maxTotalTimeoutMs: 60_000,
  maxOutputChars: 20_000,
};

describe('MCP adapter: URL elicitation required (-32042)', () => {
  let server: UrlRequiredServer;
  let session: McpSession | undefined;
  beforeAll(async () => {
    server = await startUrlRequiredServer();
  });
  afterAll(async () => {
    await server.stop();
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function open(onElicit?: McpConnectOptions['onElicit']): Promise<McpSession> {
    session = await createMcpConnector().connect(
      { transport: 'streamable-http', url: server.url, headers: {} },
      { signal: never, timeoutMs: 20_000, ...(onElicit ? { onElicit } : {}) },
    );
    return session;
  }

  it('shows the page; the server completes it after the visit; the call is tried again', async () => {
    const asked: McpElicitationRequest[] = [];
    let ended: AbortSignal | undefined;
    const before = server.calls['link-account'] ?? 0;
    const live = await open((request, signal) => {
      asked.push(request);
      // The user opens the page and does nothing more here: the server's notification ends it.
      void server.visit(request.url ?? '');
      return new Promise((resolve) => {
        signal.addEventListener('abort', () => {
          ended = signal;
          resolve({ action: 'cancel' });
        });
      });
    });
    const result = await live.callTool('link-account', {}, CALL);
    expect(result.text).toBe('Account linked.');
    expect(result.isError).toBe(false);
    expect(server.calls['link-account']).toBe(before + 2);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'url', message: LINK_MESSAGE, retry: true, fields: [] });
    expect(asked[0]?.url).toBe(`${server.origin}/link/${asked[0]?.elicitationId}`);
    expect(server.notified).toContain(asked[0]?.elicitationId);
    // The question ended because the server said it is complete, not as a cancel.
    expect(ended && completedBy(ended)).toBe(true);
  }, 120_000);

  it('without a notification, the user saying "done" retries the call', async () => {
    const before = server.calls['link-account'] ?? 0;
    const live = await open(async (request) => {
      expect(await server.visit(`${request.url}?silent=1`)).toBe(200);
      return { action: 'accept', content: {} };
    });
    const result = await live.callTool('link-account', {}, CALL);
    expect(result.text).toBe('Account linked.');
    expect(server.calls['link-account']).toBe(before + 2);
  }, 120_000);

  it('declined: the model reads that the user must open a link; no retry', async () => {
    const before = server.calls['link-account'] ?? 0;
    const live = await open(() => Promise.resolve({ action: 'decline' }));
    const result = await live.callTool('link-account', {}, CALL);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `The MCP server needs the user to open a link (${server.origin}) before this tool can run, which you cannot do for them; the user did not (declined). Tell the user.`,
    );
    expect(server.calls['link-account']).toBe(before + 1);
  }, 120_000);

  it('retries at most once', async () => {
    let asked = 0;
    const live = await open(() => {
      asked += 1;
      return Promise.resolve({ action: 'accept', content: {} });
    });
    const result = await live.callTool('always-link', {}, CALL);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('still needs the user to open a link');
    expect(server.calls['always-link']).toBe(2);
    expect(asked).toBe(1);
  }, 120_000);

  it('too many pages, or a URL with credentials: nothing shown, nothing retried', async () => {
    let asked = 0;
    const live = await open(() => {
      asked += 1;
      return Promise.resolve({ action: 'accept', content: {} });
    });
    const many = await live.callTool('many-links', {}, CALL);
    expect(many.isError).toBe(true);
    expect(many.text).toContain('it asks for 5 pages; at most 3 are shown');
    const bad = await live.callTool('bad-link', {}, CALL);
    expect(bad.text).toContain('the URL carries credentials');
    expect(asked).toBe(0);
    expect(server.calls['many-links']).toBe(1);
    expect(server.calls['bad-link']).toBe(1);
  }, 120_000);

  it('a client that offers no elicitation: nobody to ask', async () => {
    const live = await open();
    const result = await live.callTool('link-account', {}, CALL);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('nobody could be asked here');
  }, 120_000);

  it('a completion for an id nobody waits for is ignored', () => {
    const completions = new Completions();
    const watch = completions.watch('known');
    expect(completions.complete('unknown')).toBe(false);
    expect(watch.signal.aborted).toBe(false);
    expect(completions.complete('known')).toBe(true);
    expect(completedBy(watch.signal)).toBe(true);
    // Once completed, the id is forgotten.
    expect(completions.complete('known')).toBe(false);
  });
});
