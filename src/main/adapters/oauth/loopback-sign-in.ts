/**
 * The user's part of an OAuth sign-in (RFC 8252, native apps): a listener on 127.0.0.1 that
 * exists for this one sign-in, the authorization page shown in the user's browser, and the
 * redirect back with the code. Only a redirect carrying this sign-in's `state` ends it; anything
 * else gets a 400 and the wait goes on (another local program cannot inject a code). An error
 * redirect ends it at once with the server's words (McpAuthorizationRefused); so does an `iss`
 * that is not the expected issuer, or none where the server says it sends one (RFC 9207). The
 * listener closes when the sign-in ends, fails, is canceled or times out.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpAuthorizationRefused, McpError } from '../../core/ports';
import type { McpSignIn } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';
import { nodeHttp } from '../node-http';

/** Where the browser comes back to. */
const CALLBACK_PATH = '/callback';
/** Longest error text from the authorization server that is shown. */
const MAX_ERROR_CHARS = 200;

export interface LoopbackSignInOptions {
  /** Shows the authorization page to the user: opens the browser, prints the link. */
  show: (authorizationUrl: URL) => void | Promise<void>;
  /** How long the user has to finish in the browser. */
  timeoutMs: number;
  /** What the page after the redirect says was signed in to (the service's name). */
  label: string;
}

/** One sign-in's listener; see the file comment. */
export function loopbackSignIn(options: LoopbackSignInOptions): McpSignIn {
  let server: Server | null = null;
  let waiting: ((outcome: { code: string } | { error: McpError }) => void) | null = null;
  let expectedState = '';
  let issuer: { expected: string; required: boolean } | undefined;

  const answer = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const state = url.searchParams.get('state') ?? '';
    if (waiting === null || expectedState === '' || state !== expectedState) {
      page(response, 400, 'This sign-in link is not the one Aivory is waiting for.');
      return;
    }
    const mixUp = issuerProblem(url.searchParams.get('iss'), issuer);
    if (mixUp !== null) {
      page(response, 400, `Sign-in did not finish (${mixUp}). You can close this tab.`);
      waiting({ error: new McpError('unauthorized', `the sign-in answer was refused: ${mixUp}`) });
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null || code === '') {
      const description = url.searchParams.get('error_description');
      const reason = clean(
        error === null
          ? 'no authorization code'
          : `${error}${description ? `: ${description}` : ''}`,
      );
      page(response, 400, `Sign-in did not finish (${reason}). You can close this tab.`);
      const message = `the sign-in was not completed: ${reason}`;
      waiting({
        error:
          error === null
            ? new McpError('unauthorized', message)
            : new McpAuthorizationRefused(clean(error), message),
      });
      return;
    }
    page(response, 200, `Signed in to ${clean(options.label)}. You can close this tab.`);
    waiting({ code });
  };

  return {
    async open(preferredUrl, signal) {
      const port = preferredPort(preferredUrl);
      server = await listen(answer, port, signal).catch((error: unknown) => {
        if (port === 0) throw error;
        return listen(answer, 0, signal);
      });
      const { port: bound } = server.address() as AddressInfo;
      return `http://127.0.0.1:${bound}${CALLBACK_PATH}`;
    },

    async authorize(authorizationUrl, state, signal, expectedIssuer) {
      expectedState = state;
      issuer = expectedIssuer;
      const outcome = new Promise<{ code: string } | { error: McpError }>((resolve) => {
        waiting = resolve;
        const timer = setTimeout(
          () =>
            resolve({
              error: new McpError(
                'timeout',
                `the sign-in was not finished within ${Math.round(options.timeoutMs / 60_000)} minutes`,
              ),
            }),
          options.timeoutMs,
        );
        timer.unref();
        signal.addEventListener(
          'abort',
          () => resolve({ error: new McpError('canceled', 'the sign-in was canceled') }),
          { once: true },
        );
      });
      await options.show(authorizationUrl);
      const result = await outcome;
      waiting = null;
      if ('error' in result) throw result.error;
      return result.code;
    },

    close() {
      waiting = null;
      server?.closeAllConnections();
      server?.close();
      server = null;
    },
  };
}

function preferredPort(url: string | undefined): number {
  if (url === undefined) return 0;
  try {
    const parsed = new URL(url);
    const port = Number(parsed.port);
    return parsed.hostname === '127.0.0.1' && Number.isInteger(port) && port > 1023 ? port : 0;
  } catch {
    return 0;
  }
}

function listen(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  port: number,
  signal: AbortSignal,
): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    if (signal.aborted) {
      reject(new McpError('canceled', 'the sign-in was canceled'));
      return;
    }
    const server = nodeHttp().createServer(handler);
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * RFC 9207: an `iss` in the redirect must name the authorization server the request went to (a
 * mix-up otherwise), and one that advertises `iss` must send it. Null when the answer may be used.
 */
function issuerProblem(
  iss: string | null,
  issuer: { expected: string; required: boolean } | undefined,
): string | null {
  if (issuer === undefined) return null;
  if (iss === null)
    return issuer.required
      ? `it has no iss parameter, which ${clean(issuer.expected)} says it sends (RFC 9207)`
      : null;
  // RFC 9207 §2.4: simple string comparison.
  return iss === issuer.expected
    ? null
    : `it names the authorization server ${clean(iss)}, not ${clean(issuer.expected)} (RFC 9207 iss)`;
}

/** Untrusted text for a page or a message: one line, nothing hidden, bounded. */
function clean(text: string): string {
  return oneLine(text, MAX_ERROR_CHARS);
}

function page(response: ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  response
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'",
    })
    .end(
      `<!doctype html><meta charset="utf-8"><title>Aivory Personal</title>` +
        `<p style="font:16px system-ui;margin:3em">${escaped}</p>\n`,
    );
}
