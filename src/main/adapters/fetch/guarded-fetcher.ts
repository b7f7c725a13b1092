/**
 * The one egress path for model-chosen URLs (web_fetch, fetch_image). Per hop: judge the URL,
 * resolve EVERY address and refuse if any is refused, connect only to a judged address (pinned,
 * see http-exchange.ts), follow redirects by hand re-judging each one, read the body under a
 * decoded-size cap, all inside one wall-clock deadline. Expected failures come back as
 * `{ ok: false, error }` written for the model; cancelling the caller's signal rejects.
 */
import type {
  HostResolver,
  Logger,
  ResolvedAddress,
  WebResource,
  WebResourceFetcher,
  WebResourceRequest,
  WebResourceResult,
} from '../../core/ports';
import { checkAddress } from '../../policy/address-policy';
import { ACCEPT_ENCODING, decodeBody, parseContentEncoding, readWireBody } from './body-reader';
import { describeNetworkError, FetchFailure } from './fetch-failure';
import { DEFAULT_FETCH_LIMITS, formatDuration } from './fetch-limits';
import type { FetchLimits } from './fetch-limits';
import { createSystemResolver, raceWithSignal } from './host-resolver';
import { openExchange } from './http-exchange';
import type { ExchangeResponse } from './http-exchange';
import { checkUrl } from '../../policy/url-policy';
import type { UrlTarget } from '../../policy/url-policy';
import { formatBytes } from '../../../shared/byte-size';

/** A fixed, honest User-Agent: no cookies, no Referer, no credentials are ever sent. */
export const DEFAULT_USER_AGENT = 'AivoryPersonal/0.1 (+web_fetch; a personal AI assistant)';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export interface GuardedFetcherOptions {
  /** Defaults to the system resolver; tests inject their own. */
  resolver?: HostResolver;
  limits?: Partial<FetchLimits>;
  userAgent?: string;
  /** PEM certificates trusted besides the system roots (a corporate CA; tests). */
  extraCaCertificates?: readonly string[];
}

export function createGuardedFetcher(options: GuardedFetcherOptions = {}): WebResourceFetcher {
  const resolver = options.resolver ?? createSystemResolver();
  const baseLimits: FetchLimits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  const settings = {
    resolver,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    extraCaCertificates: options.extraCaCertificates ?? [],
  };
  return {
    fetch: async (request) => {
      const limits: FetchLimits = { ...baseLimits, ...request.limits };
      const deadline = new AbortController();
      const timer = setTimeout(() => {
        deadline.abort(
          new FetchFailure(
            `the request took longer than ${formatDuration(limits.deadlineMs)} (the overall deadline)`,
          ),
        );
      }, limits.deadlineMs);
      const signal = AbortSignal.any([request.signal, deadline.signal]);
      const progress = { host: hostOf(request.url) };
      try {
        return await fetchWithRedirects(request, limits, settings, signal, progress);
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        const message =
          error instanceof FetchFailure
            ? error.message
            : describeNetworkError(error, progress.host);
        if (message === null) throw error;
        return refuse(request.logger, request.url, message);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

interface FetchSettings {
  resolver: HostResolver;
  userAgent: string;
  extraCaCertificates: readonly string[];
}

async function fetchWithRedirects(
  request: WebResourceRequest,
  limits: FetchLimits,
  settings: FetchSettings,
  signal: AbortSignal,
  progress: { host: string },
): Promise<WebResourceResult> {
  let current = request.url;
  let previous: URL | null = null;
  for (let hop = 0; ; hop += 1) {
    const after = previous ? ` (after a redirect to ${current.slice(0, 300)})` : '';
    const verdict = checkUrl(current, limits);
    if (!verdict.ok) {
      return refuse(request.logger, request.url, `${verdict.reason}${after}`, previous === null);
    }
    const { target } = verdict;
    progress.host = target.url.host;
    if (previous?.protocol === 'https:' && target.url.protocol === 'http:') {
      return refuse(
        request.logger,
        request.url,
        `refused a redirect from https to plain http (${target.url.href.slice(0, 300)})`,
      );
    }
    const addresses = await resolveJudged(target, settings.resolver, signal);
    if (typeof addresses === 'string')
      return refuse(request.logger, request.url, `${addresses}${after}`, previous === null);
    const response = await openExchange({
      target,
      addresses,
      headers: {
        'user-agent': settings.userAgent,
        accept: request.accept,
        'accept-encoding': ACCEPT_ENCODING,
        'accept-language': 'en, *;q=0.5',
      },
      headersTimeoutMs: limits.headersTimeoutMs,
      maxHeaderBytes: limits.maxHeaderBytes,
      signal,
      extraCaCertificates: settings.extraCaCertificates,
    });
    if (REDIRECT_STATUSES.has(response.status)) {
      response.body.destroy();
      if (hop >= limits.maxRedirects) {
        throw new FetchFailure(`too many redirects (more than ${limits.maxRedirects})`);
      }
      current = nextLocation(response, target.url);
      previous = target.url;
      continue;
    }
    return { ok: true, resource: await readResource(response, target, request, limits) };
  }
}

/** Every address the name has, each judged; a refusal message when any one is refused. */
async function resolveJudged(
  target: UrlTarget,
  resolver: HostResolver,
  signal: AbortSignal,
): Promise<ResolvedAddress[] | string> {
  if (target.isAddress) {
    return [{ address: target.hostname, family: target.hostname.includes(':') ? 6 : 4 }];
  }
  const addresses = await raceWithSignal(resolver.resolve(target.hostname, signal), signal);
  if (addresses.length === 0) return `could not resolve ${target.hostname}`;
  for (const entry of addresses) {
    const verdict = checkAddress(entry.address);
    // One refused record refuses the name: the OS may pick any of them, now or on a retry.
    if (!verdict.allowed)
      return `blocked: ${target.hostname} resolves to ${verdict.address}, ${verdict.label}`;
  }
  return addresses;
}

function nextLocation(response: ExchangeResponse, base: URL): string {
  const location = response.headers.location;
  if (!location)
    throw new FetchFailure(`the server answered ${response.status} without a Location`);
  try {
    return new URL(location, base).href;
  } catch {
    throw new FetchFailure(`the server redirected to an invalid URL (${location.slice(0, 200)})`);
  }
}

async function readResource(
  response: ExchangeResponse,
  target: UrlTarget,
  request: WebResourceRequest,
  limits: FetchLimits,
): Promise<WebResource> {
  const finalUrl = target.url.href;
  if (response.status < 200 || response.status > 299) {
    response.body.destroy();
    const text = `${response.status} ${response.statusText}`.trim();
    throw new FetchFailure(`the server answered HTTP ${text} for ${finalUrl.slice(0, 300)}`);
  }
  const { mediaType, charset } = parseContentType(response.headers['content-type']);
  const refusal = request.checkMediaType(mediaType);
  if (refusal !== null) {
    response.body.destroy();
    throw new FetchFailure(refusal);
  }
  const what = `the content at ${finalUrl.slice(0, 200)}`;
  const encodings = parseContentEncoding(response.headers['content-encoding']);
  const declared = Number(response.headers['content-length'] ?? Number.NaN);
  if (encodings.length === 0 && declared > limits.maxBodyBytes) {
    response.body.destroy();
    throw new FetchFailure(
      `${what} is larger than ${formatBytes(limits.maxBodyBytes)} (it declares ${formatBytes(declared)})`,
    );
  }
  const wire = await readWireBody(response.body, limits.maxBodyBytes, what);
  const body = await decodeBody(wire, encodings, limits.maxBodyBytes, what);
  return { finalUrl, status: response.status, mediaType, charset, body };
}

/** `text/HTML; charset="UTF-8"` → `{ mediaType: 'text/html', charset: 'utf-8' }`. */
export function parseContentType(header: string | undefined): {
  mediaType: string;
  charset: string | null;
} {
  if (!header) return { mediaType: '', charset: null };
  const [essence = '', ...parameters] = header.split(';');
  const charsetParameter = parameters
    .map((parameter) => parameter.trim().split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset');
  const charset = charsetParameter?.[1]?.trim().replace(/^"|"$/g, '').toLowerCase() || null;
  return { mediaType: essence.trim().toLowerCase(), charset };
}

/** The failure `error`; `beforeRequest` when nothing was sent yet (see `refusedBeforeRequest`). */
function refuse(
  logger: Logger | undefined,
  url: string,
  error: string,
  beforeRequest = false,
): WebResourceResult {
  logger?.warn('fetch refused', { url: url.slice(0, 500), reason: error });
  return beforeRequest ? { ok: false, error, refusedBeforeRequest: true } : { ok: false, error };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}
