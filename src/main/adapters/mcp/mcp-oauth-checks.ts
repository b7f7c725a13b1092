/**
 * What the SDK's `auth()` (1.32.2) does not check or say, for mcp-oauth.ts:
 *
 * - RFC 8414 §3.3: the authorization server metadata's `issuer` must be the URL it was looked up
 *   for — the server the resource named, or the MCP server's origin on the 2025-03-26 fallback
 *   (the SDK uses any metadata it finds: "this version does not check that the metadata
 *   document echoes the URL it was fetched from").
 * - The authorization request checked before the browser opens (`checkAuthorizationRequest`):
 *   an authorization server that does not know the client (it forgot a dynamic registration) or
 *   its redirect URI answers the request itself (RFC 6749 §4.1.2.1) — a page the user cannot get
 *   past, and no redirect ever comes back. Asked first, such a refusal ends the sign-in at once
 *   (or re-registers) instead of after the sign-in wait.
 * - An authorization server's OAuth error (RFC 6749 §5.2) as one bounded line with its `error`
 *   code, even where the SDK retries and throws something else (`recordOAuthErrors`).
 */
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpAuthorizationRefused, McpError } from '../../core/ports';
import { oneLine } from '../../../shared/untrusted-text';

/** Longest `error_description` shown. */
const DESCRIPTION_MAX_CHARS = 200;
/** RFC 6749 error codes: ASCII without quote or backslash; anything else is not one. */
const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

/** The `error` and `error_description` of an authorization server as one line. */
export function oauthErrorText(code: string, description: string | null | undefined): string {
  const cleanCode = ERROR_CODE.test(code) ? code : 'invalid error code';
  return description ? `${cleanCode}: ${oneLine(description, DESCRIPTION_MAX_CHARS)}` : cleanCode;
}

/** An OAuth error the SDK threw, as McpAuthorizationRefused; null for anything else. */
export function refusalOf(error: unknown, server: string): McpAuthorizationRefused | null {
  if (!(error instanceof OAuthError)) return null;
  return new McpAuthorizationRefused(
    error.errorCode,
    `${server}'s authorization server refused: ${oauthErrorText(error.errorCode, error.message)}`,
  );
}

/** The last OAuth error answer (token, registration) a sign-in's requests received. */
export interface RecordedError {
  last: McpAuthorizationRefused | null;
}

/**
 * `fetchFn` that keeps the last OAuth error answer in `record`: the SDK answers `invalid_client`
 * at the token endpoint by forgetting the client and trying once more, which then fails with its
 * own words ("Existing OAuth client information is required…"); the server's are these.
 */
export function recordOAuthErrors(
  fetchFn: FetchLike,
  server: string,
  record: RecordedError,
): FetchLike {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    // Token and registration requests only: a discovery miss (GET, 404) is no refusal.
    if (init?.method === 'POST' && response.status >= 400 && response.status < 500) {
      const body = await response
        .clone()
        .json()
        .catch(() => null);
      const refusal = errorOfBody(body, server);
      if (refusal !== null) record.last = refusal;
    }
    return response;
  };
}

function errorOfBody(body: unknown, server: string): McpAuthorizationRefused | null {
  if (typeof body !== 'object' || body === null) return null;
  const { error, error_description: description } = body as Record<string, unknown>;
  if (typeof error !== 'string') return null;
  return new McpAuthorizationRefused(
    ERROR_CODE.test(error) ? error : 'invalid_request',
    `${server}'s authorization server refused: ${oauthErrorText(error, typeof description === 'string' ? description : null)}`,
  );
}

/**
 * Two issuer identifiers compared as the SDK compares them when it stamps a registration: as
 * parsed URLs, tolerating one trailing "/" (an authorization server URL made from a pathless URL
 * ends with one; advertised issuers usually do not).
 */
export function sameIssuer(a: string, b: string): boolean {
  let [x, y] = [a, b];
  try {
    [x, y] = [new URL(a).href, new URL(b).href];
  } catch {
    // Not URLs: compared as written.
  }
  return x === y || x === `${y}/` || y === `${x}/`;
}

/**
 * RFC 8414 §3.3: metadata whose `issuer` is not the authorization server it was fetched for must
 * not be used (another server's endpoints, a mix-up). Throws with both named. Checked on both
 * paths: the authorization server the resource named (RFC 9728 metadata), and the 2025-03-26
 * fallback without such metadata, where the SDK looks the metadata up at the MCP server's own
 * origin — the issuer identifier it was fetched for is then that origin (the conformance suite
 * 0.1.16's `auth/2025-03-26-oauth-metadata-backcompat` serves `<origin>/oauth` there, and is
 * refused; 0.2.0-alpha.12 serves the origin). Metadata with no issuer at all is refused too.
 */
export function checkMetadataIssuer(discovery: {
  authorizationServerUrl: string;
  authorizationServerMetadata?: { issuer?: unknown } | undefined;
  resourceMetadata?: unknown;
}): void {
  const metadata = discovery.authorizationServerMetadata;
  if (metadata === undefined) return;
  const issuer = typeof metadata.issuer === 'string' ? metadata.issuer : '';
  if (sameIssuer(issuer, discovery.authorizationServerUrl)) return;
  const fallback = namedServers(discovery.resourceMetadata) === 0;
  // The 2025-03-26 fallback reads the metadata at the MCP server's own origin, where servers of
  // that revision named an issuer under a path (`<origin>/oauth`, the 0.1.16 conformance
  // fixture): the same origin claims no other server's identity, so it is taken; another is not.
  if (fallback && sameOrigin(issuer, discovery.authorizationServerUrl)) return;
  throw new McpError(
    'unauthorized',
    `refused the authorization server metadata for ${oneLine(discovery.authorizationServerUrl, 200)}${fallback ? " (the MCP server's own origin: it has no protected resource metadata, the 2025-03-26 fallback)" : ''}: it names the issuer ${JSON.stringify(oneLine(issuer, 200))}, and RFC 8414 requires it to be the URL it was fetched for`,
  );
}

/** Whether two URLs have one origin (false when either is not a URL). */
function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** How many authorization servers a resource's metadata names (0 without metadata). */
function namedServers(resourceMetadata: unknown): number {
  if (typeof resourceMetadata !== 'object' || resourceMetadata === null) return 0;
  const servers = (resourceMetadata as { authorization_servers?: unknown }).authorization_servers;
  return Array.isArray(servers) ? servers.length : 0;
}

/**
 * Asks the authorization endpoint the request the browser is about to make, without following
 * redirects: a direct 400/401 answer (no redirect back) means the server does not know the client
 * or its redirect URI — thrown as McpAuthorizationRefused with `beforeRedirect`; a redirect back
 * with `error` is that error. Anything else (a login page, a redirect to it, an automatic
 * approval whose code is not used, a network failure, a 403 from a bot filter) says nothing:
 * the browser goes ahead.
 */
export async function checkAuthorizationRequest(
  authorizationUrl: URL,
  redirectUrl: string,
  fetchFn: FetchLike,
  server: string,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetchFn(authorizationUrl, {
      method: 'GET',
      headers: { accept: 'text/html, application/json;q=0.9' },
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return;
  }
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location !== null) {
    const back = safeUrl(location, authorizationUrl);
    const expected = new URL(redirectUrl);
    const error = back?.searchParams.get('error');
    if (
      back === null ||
      back.origin !== expected.origin ||
      back.pathname !== expected.pathname ||
      error == null ||
      back.searchParams.get('state') !== authorizationUrl.searchParams.get('state')
    )
      return;
    throw new McpAuthorizationRefused(
      ERROR_CODE.test(error) ? error : 'invalid_request',
      `${server}'s authorization server refused the sign-in: ${oauthErrorText(error, back.searchParams.get('error_description'))}`,
    );
  }
  if (response.status !== 400 && response.status !== 401) return;
  const text = await response.text().catch(() => '');
  const parsed = errorOfBody(jsonOrNull(text), server);
  const code =
    parsed?.code ?? /\b(invalid_client|unauthorized_client|invalid_request)\b/.exec(text)?.[1];
  const said = parsed
    ? parsed.message.replace(/^.*?refused: /, '')
    : oauthErrorText(code ?? `HTTP ${response.status}`, null);
  throw new McpAuthorizationRefused(
    code ?? 'invalid_request',
    `${server}'s authorization server refused the sign-in request before showing its page (${said}): it does not know this app's client or its redirect address`,
    true,
  );
}

function safeUrl(text: string, base: URL): URL | null {
  try {
    return new URL(text, base);
  } catch {
    return null;
  }
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
