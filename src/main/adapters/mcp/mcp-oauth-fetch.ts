/**
 * The network side of a service's sign-in (for mcp-oauth.ts): the fetch for discovery,
 * registration and token requests under the service's address rules, and the check of a page
 * before the browser opens it.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isIP } from 'node:net';
import { fetch as undiciFetch } from 'undici';
import { McpError } from '../../core/ports';
import type { McpOAuthEndpoint } from '../../core/ports';
import { ADDRESS_BLOCKED, errorCode, networkFailure } from './mcp-errors';
import { checkHttpUrl } from '../../../shared/http-url';
import { oneLine } from '../../../shared/untrusted-text';
import { pinnedAgent } from './mcp-fetch';
import { readBoundedBody } from '../../../shared/bounded-body';

/** Longest wait for one discovery / registration / token answer. */
const AUTH_REQUEST_TIMEOUT_MS = 30_000;
/** Largest metadata or token answer read. */
const AUTH_BODY_MAX_BYTES = 256 * 1024;

/** Only an http(s) page may be opened in the browser (never file:, javascript:, a custom scheme). */
export function checkBrowserUrl(url: URL, config: McpOAuthEndpoint): void {
  const refused = config.refusedOrigin(url);
  if (refused !== null) {
    throw new McpError(
      'unauthorized',
      `refused to open the sign-in page: ${oneLine(refused, 800)}`,
    );
  }
  const verdict = checkHttpUrl(url, { allowHttp: (target) => config.allowsHttp(target.hostname) });
  if (!verdict.ok && verdict.problem === 'scheme') {
    throw new McpError(
      'unauthorized',
      `refused to open the sign-in page ${oneLine(`${url.protocol}//${url.host}`, 80)}: an authorization server must use https://`,
    );
  }
  if (!verdict.ok)
    throw new McpError('unauthorized', 'refused a sign-in page address with credentials in it');
}

/**
 * The fetch for discovery, registration and token requests: the address rules for every host, no
 * redirects (an answer is used as it is), a deadline, and at most AUTH_BODY_MAX_BYTES read.
 */
export function createAuthFetch(config: McpOAuthEndpoint): FetchLike {
  const agent = pinnedAgent(config.resolveAddresses);
  return async (input, init) => {
    const url = new URL(input);
    const verdict = checkHttpUrl(url, {
      allowHttp: (target) => config.allowsHttp(target.hostname),
    });
    if (!verdict.ok && verdict.problem === 'scheme')
      throw new McpError(
        'unauthorized',
        `refused ${oneLine(url.origin, 100)} for sign-in: an authorization server must use https://`,
      );
    if (!verdict.ok)
      throw new McpError('unauthorized', 'refused a sign-in address with credentials in it');
    const refused = config.refusedOrigin(url);
    if (refused !== null) throw new McpError('unauthorized', `refused: ${oneLine(refused, 800)}`);
    const signal = AbortSignal.any([
      ...(init?.signal ? [init.signal] : []),
      AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS),
    ]);
    // Node connects to an address literal without a lookup, so the pinned agent never checks
    // one: a typed address is checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0) {
      await config.resolveAddresses(literal, signal).catch((error: unknown) => {
        throw new McpError(
          'other',
          `blocked: ${oneLine(error instanceof Error ? error.message : String(error), 300)}`,
        );
      });
    }
    let response: Response;
    try {
      response = (await undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        redirect: 'manual',
        signal,
        dispatcher: agent,
      })) as unknown as Response;
    } catch (error) {
      // A host the address rules refused ends the sign-in naming it: left a TypeError ("fetch
      // failed"), the SDK takes it for a missing document and goes on with its fallbacks.
      if (errorCode(error) === ADDRESS_BLOCKED) throw networkFailure(error, url.origin) ?? error;
      throw error;
    }
    const body = await boundedText(response, url.origin);
    return new Response(NULL_BODY.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

async function boundedText(response: Response, origin: string): Promise<string> {
  const bytes = await readBoundedBody(
    response.body,
    AUTH_BODY_MAX_BYTES,
    () =>
      new McpError(
        'too-large',
        `${oneLine(origin, 100)} sent a sign-in answer over ${AUTH_BODY_MAX_BYTES / 1024} KiB`,
      ),
  );
  return new TextDecoder().decode(bytes);
}
