/**
 * The one decision "is this an http(s) URL without credentials", and the one list of local host
 * names. Every place that takes a URL from the user, a server or a model asks here (web_fetch,
 * configured endpoints, MCP service URLs and their sign-in, search, model and settings URLs,
 * elicitation links, the desktop's external links and dev server) and words its own message from
 * the `problem`. Plain TS over WHATWG `URL`: the parser canonicalises the scheme (`HTTP:` is
 * `http:`) and the host (IPv6 in brackets, IDNA, IPv4 spellings) first.
 */

/** Why a text is not an acceptable http(s) URL. */
export type HttpUrlProblem =
  /** Not an absolute URL at all. */
  | 'invalid'
  /** Another scheme (`file:`, `javascript:`…), or `http:` where only https is allowed. */
  | 'scheme'
  /** A user name or password in it (`user:pass@`, `user@`, `:pass@`): logged and shown, never. */
  | 'credentials';

export type HttpUrlVerdict =
  | {
      ok: true;
      url: URL;
      /** The host without brackets or trailing dots: a name (lower case) or an IP literal. */
      hostname: string;
    }
  | { ok: false; problem: 'invalid' }
  | { ok: false; problem: 'scheme' | 'credentials'; url: URL };

export interface HttpUrlOptions {
  /**
   * Whether plain `http:` is accepted: yes (the default), no (https only), or per URL (e.g. only
   * on a service's own local host, only on loopback).
   */
  allowHttp?: boolean | ((url: URL) => boolean);
  /** Schemes accepted as they are besides http(s), e.g. `mailto:` for a link the user clicked. */
  otherSchemes?: readonly string[];
}

/** Judges `input` (a URL, or text parsed as it is): scheme first, then credentials. */
export function checkHttpUrl(input: string | URL, options: HttpUrlOptions = {}): HttpUrlVerdict {
  let url: URL;
  try {
    url = new URL(typeof input === 'string' ? input : input.href);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  const other = options.otherSchemes?.includes(url.protocol) ?? false;
  if (!other && !isAllowedScheme(url, options.allowHttp ?? true)) {
    return { ok: false, problem: 'scheme', url };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials', url };
  return { ok: true, url, hostname: bareHostname(url.hostname) };
}

function isAllowedScheme(url: URL, allowHttp: boolean | ((url: URL) => boolean)): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return typeof allowHttp === 'function' ? allowHttp(url) : allowHttp;
}

/** A WHATWG host name without the brackets of an IPv6 literal or the trailing dots of a name. */
export function bareHostname(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
}

/**
 * Names that never lead to the public internet: loopback (RFC 6761), mDNS link-local (RFC 6762),
 * private-use and home-router suffixes. The one list: web_fetch refuses them by name (no resolver,
 * hosts file or search domain is asked), an MCP service URL naming one is a local service, and the
 * settings page shows its local-service notice for them.
 */
const LOCAL_NAME_SUFFIXES: readonly { suffix: string; label: string }[] = [
  { suffix: 'localhost', label: 'a loopback name' },
  { suffix: 'localdomain', label: 'a local name (.localdomain)' },
  { suffix: 'local', label: 'a link-local mDNS name (.local)' },
  { suffix: 'internal', label: 'a private-use name (.internal)' },
  { suffix: 'lan', label: 'a home-network name (.lan)' },
  { suffix: 'home.arpa', label: 'a home-network name (.home.arpa)' },
];

/**
 * What kind of local name `hostname` is (a host name with or without brackets or trailing dots,
 * any case), or null when it is not one of the local-name suffixes.
 */
export function localNameLabel(hostname: string): string | null {
  const name = bareHostname(hostname).toLowerCase();
  const local = LOCAL_NAME_SUFFIXES.find(
    (entry) => name === entry.suffix || name.endsWith(`.${entry.suffix}`),
  );
  return local?.label ?? null;
}

/**
 * True for this machine by name or literal: `localhost` (and `*.localhost`), 127.0.0.0/8 and
 * `::1` (WHATWG-normalised, brackets optional). Any other name could resolve anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHostname(hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
