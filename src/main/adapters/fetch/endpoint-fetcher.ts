/**
 * A fetch for endpoints the USER configured (model provider, SearXNG, MCP server): it reaches
 * exactly one origin (scheme + host + port) — on loopback or the LAN too, since the user chose
 * it — and nothing else. Redirects are followed by hand only while they stay on that origin;
 * one that leaves it is refused, so a compromised or misconfigured endpoint cannot bounce the
 * app's keys or requests elsewhere. Never give it URLs chosen by a model: those go through the
 * guarded fetcher (createGuardedFetcher), which refuses private addresses.
 */
import { checkHttpUrl } from '../../../shared/http-url';

/** Same-origin redirects followed (http→https upgrades, trailing-slash fixes); more is a loop. */
export const ENDPOINT_MAX_REDIRECTS = 5;

export type EndpointFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Thrown (not returned: callers are SDKs expecting fetch semantics) for any refused request. */
export class EndpointOriginError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointOriginError';
  }
}

/**
 * Returns a fetch bound to `origin` (any URL on it; only its origin counts). Throws at once
 * when `origin` is not an http(s) URL or carries credentials.
 */
export function createEndpointFetcher(origin: string): EndpointFetch {
  const allowed = parseOrigin(origin);
  return async (url, init = {}) => {
    let current = sameOrigin(url, allowed, 'request');
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    for (let hop = 0; ; hop += 1) {
      const response = await fetch(current, { ...init, method, body, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel();
      if (hop >= ENDPOINT_MAX_REDIRECTS) {
        throw new EndpointOriginError(
          `${allowed}: too many redirects (more than ${ENDPOINT_MAX_REDIRECTS})`,
        );
      }
      current = sameOrigin(new URL(location, current), allowed, 'redirect');
      // 303 (and historic 301/302 on POST) turn into a GET without a body; 307/308 resend it,
      // which only works for a body that can be sent twice.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      } else if (body instanceof ReadableStream) {
        throw new EndpointOriginError(
          `${allowed}: cannot resend a streamed body after a ${response.status} redirect`,
        );
      }
    }
  };
}

function parseOrigin(origin: string): string {
  const verdict = checkHttpUrl(origin);
  if (!verdict.ok && verdict.problem === 'invalid') {
    throw new EndpointOriginError(`"${origin.slice(0, 200)}" is not a valid endpoint URL`);
  }
  if (!verdict.ok && verdict.problem === 'scheme') {
    throw new EndpointOriginError(
      `endpoint ${verdict.url.origin}: only http and https are supported`,
    );
  }
  if (!verdict.ok) {
    throw new EndpointOriginError(
      'endpoint URLs must not carry credentials; use the API key setting',
    );
  }
  return verdict.url.origin;
}

function sameOrigin(url: string | URL, allowed: string, what: 'request' | 'redirect'): URL {
  const verdict = checkHttpUrl(url);
  if (!verdict.ok && verdict.problem === 'invalid') {
    throw new EndpointOriginError(`${allowed}: invalid ${what} URL`);
  }
  if (!verdict.ok || verdict.url.origin !== allowed) {
    const verb = what === 'redirect' ? 'redirected to' : 'asked to reach';
    throw new EndpointOriginError(
      `the endpoint ${allowed} ${verb} ${verdict.url.origin}, another origin; refused (only the configured origin is reachable)`,
    );
  }
  return verdict.url;
}
