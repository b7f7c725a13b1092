/**
 * Which URLs a model may ask the guarded fetcher for, judged on the URL alone (addresses a name
 * resolves to are judged later, per connection). The WHATWG parser — the same one that
 * produces the request — canonicalises the host first, so `http://0x7f.1/`, `http://2130706433/`
 * and `http://127。0。0。1/` all reach the address policy as `127.0.0.1`.
 */
import { checkAddress, describeRefusal } from './address-policy';
import { parseIpAddress } from './ip-address';
import { checkHttpUrl, localNameLabel } from '../../shared/http-url';

/** Longer URLs are not pages a model needs; most servers refuse them anyway. */
export const MAX_URL_LENGTH = 8192;

/**
 * Ports browsers refuse to fetch (WHATWG Fetch "bad port"): other protocols (SMTP, IRC, …) that
 * an HTTP request could be smuggled into. Refused even when other non-default ports are allowed.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

export interface UrlTarget {
  /** The URL to request: canonical, without a fragment. */
  url: URL;
  /** The host without brackets or a trailing dot: a name, or an IP literal. */
  hostname: string;
  port: number;
  /** True when `hostname` is an IP literal (already judged; nothing to resolve). */
  isAddress: boolean;
}

export type UrlVerdict = { ok: true; target: UrlTarget } | { ok: false; reason: string };

export interface UrlPolicyOptions {
  /** Ports other than 80/443 are refused unless this is set (a user setting). */
  allowNonDefaultPorts: boolean;
}

/** Judges a URL before anything is resolved or connected; `reason` is written for the model. */
export function checkUrl(input: string, options: UrlPolicyOptions): UrlVerdict {
  const text = input.trim();
  if (text.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  }
  const verdict = checkHttpUrl(text);
  if (!verdict.ok && verdict.problem === 'invalid') {
    return { ok: false, reason: `"${shorten(text)}" is not a valid absolute URL` };
  }
  if (!verdict.ok && verdict.problem === 'scheme') {
    return {
      ok: false,
      reason: `only http and https URLs can be fetched (this one is ${verdict.url.protocol.slice(0, 20)})`,
    };
  }
  if (!verdict.ok) {
    return { ok: false, reason: 'URLs with credentials (user:password@host) are refused' };
  }
  const { url, hostname } = verdict;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (BAD_PORTS.has(port)) {
    return { ok: false, reason: `port ${port} belongs to another protocol and is refused` };
  }
  if (url.port !== '' && !options.allowNonDefaultPorts) {
    return {
      ok: false,
      reason: `port ${port} is not allowed: only the default ports (80 for http, 443 for https) are fetched unless the setting for other ports is on`,
    };
  }
  if (hostname === '') return { ok: false, reason: `"${shorten(text)}" has no host` };
  const isAddress = parseIpAddress(hostname) !== null;
  if (isAddress) {
    const address = checkAddress(hostname);
    if (!address.allowed) return { ok: false, reason: `blocked: ${describeRefusal(address)}` };
  } else {
    const local = localNameLabel(hostname);
    if (local !== null) return { ok: false, reason: `blocked: ${hostname} is ${local}` };
  }
  url.hash = '';
  return { ok: true, target: { url, hostname, port, isAddress } };
}

function shorten(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
