/**
 * Address rules for a service URL. Like web_fetch, a service may not lead the app into private
 * networks by surprise — except that the exact loopback/LAN host the user typed is allowed for
 * that service (most personal MCP servers run on this machine or the LAN); saving one shows a
 * notice. A public name must resolve to public addresses only, checked before each connection.
 */
import { AivoryError } from '../../../shared/errors';
import { checkAddress, describeRefusal } from '../../policy/address-policy';
import type { HostResolver, ResolvedAddress } from '../../core/ports';
import { parseIpAddress } from '../../policy/ip-address';
import { bareHostname, checkHttpUrl, localNameLabel } from '../../../shared/http-url';

export interface ServiceUrl {
  url: string;
  hostname: string;
  /** A loopback/LAN host typed by the user: allowed for this service only. */
  local: boolean;
  /** Shown when saving a local service. */
  notice: string | null;
}

const LOCAL_LABELS = /loopback|private address|link-local|unique-local|carrier-grade/;

/** Checks the URL text; throws `invalid-input` with the reason. */
export function checkServiceUrl(text: string): ServiceUrl {
  const verdict = checkHttpUrl(text.trim());
  if (!verdict.ok && verdict.problem === 'invalid') {
    throw new AivoryError('invalid-input', `"${text.slice(0, 200)}" is not a valid URL.`);
  }
  if (!verdict.ok && verdict.problem === 'scheme') {
    throw new AivoryError(
      'invalid-input',
      'An MCP service URL must start with http:// or https://.',
    );
  }
  if (!verdict.ok) {
    throw new AivoryError(
      'invalid-input',
      'Put credentials in a request header (e.g. Authorization: Bearer …), not in the URL.',
    );
  }
  const { url, hostname } = verdict;
  url.hash = '';
  const local = isLocalHost(hostname);
  const notice = local
    ? `${hostname} is on this machine or your local network: only this exact host is allowed for this service.`
    : null;
  return { url: url.toString(), hostname, local, notice };
}

function isLocalHost(hostname: string): boolean {
  if (parseIpAddress(hostname) === null) return localNameLabel(hostname) !== null;
  const verdict = checkAddress(hostname);
  if (verdict.allowed) return false;
  if (/metadata|credentials/.test(verdict.label) || !LOCAL_LABELS.test(verdict.label)) {
    throw new AivoryError('invalid-input', `Refused: ${describeRefusal(verdict)}.`);
  }
  return true;
}

/**
 * The addresses a connection to `service` may use, checked now. A typed address is itself. A
 * name — public or local — is resolved every time (a check made once would let a rebinding name
 * answer differently when the connection is made): a public name must resolve to public
 * addresses only (a name that points into the LAN must be typed as the address itself); a local
 * name (`.lan`, `.local`, `.internal`, …) may resolve to this machine or the LAN, never to a
 * link-local or metadata address (`metadata.google.internal` is 169.254.169.254).
 */
export async function checkedAddresses(
  service: ServiceUrl,
  resolver: HostResolver,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const literal = parseIpAddress(service.hostname);
  if (literal !== null) {
    return [{ address: service.hostname, family: service.hostname.includes(':') ? 6 : 4 }];
  }
  let answers: ResolvedAddress[];
  try {
    answers = await resolver.resolve(service.hostname, signal);
  } catch {
    throw new AivoryError('connection', `Cannot resolve ${service.hostname} (DNS).`);
  }
  for (const answer of answers) {
    const verdict = checkAddress(answer.address);
    if (verdict.allowed) continue;
    const inward =
      service.local &&
      LOCAL_LABELS.test(verdict.label) &&
      !/metadata|credentials|link-local/.test(verdict.label);
    if (inward) continue;
    throw new AivoryError(
      'invalid-input',
      service.local
        ? `${service.hostname} resolves to ${describeRefusal(verdict)}: refused.`
        : `${service.hostname} resolves to ${describeRefusal(verdict)}; if this server is yours, use its address in the URL instead of the name.`,
    );
  }
  return answers;
}

/** `checkedAddresses` for its verdict only (before saving or testing a service). */
export async function checkResolvedAddresses(
  service: ServiceUrl,
  resolver: HostResolver,
  signal: AbortSignal,
): Promise<void> {
  await checkedAddresses(service, resolver, signal);
}

/**
 * The addresses an OAuth request (metadata, registration, token) may use for `hostname`: the
 * service's own host by the service's rules (so a local server's local authorization server
 * works); any other host must be public — a typed address public itself, a name resolving to
 * public addresses only. Metadata and link-local addresses are never allowed.
 */
export async function authServerAddresses(
  service: ServiceUrl,
  hostname: string,
  resolver: HostResolver,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (host === service.hostname.toLowerCase()) return checkedAddresses(service, resolver, signal);
  if (parseIpAddress(host) !== null) {
    const verdict = checkAddress(host);
    if (!verdict.allowed)
      throw new AivoryError(
        'invalid-input',
        `the sign-in address ${host} is ${describeRefusal(verdict)}: refused`,
      );
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  return checkedAddresses(
    { url: `https://${host}/`, hostname: host, local: false, notice: null },
    resolver,
    signal,
  );
}

/** At most this many other origins may be trusted for one service's sign-in. */
export const MAX_TRUSTED_SIGN_IN_ORIGINS = 10;

function bareHost(hostname: string): string {
  return bareHostname(hostname).toLowerCase();
}

/**
 * Why a sign-in request or page may not go to `target`, or null. On the service's own host, when
 * it is local (this machine or the LAN), only the service's own origin is allowed — scheme, host
 * and port — since any other port there is another program: a server on one local port must not
 * make the app send requests to the next one, unless the user trusted that exact origin for this
 * service (`trusted`, checked by `parseTrustedOrigin` when saved). Other hosts are judged by their
 * addresses (`authServerAddresses`: public only), as is a public service's own host.
 */
export function refusedSignInOrigin(
  service: ServiceUrl,
  target: URL,
  trusted: readonly string[] = [],
): string | null {
  if (!service.local) return null;
  if (bareHost(target.hostname) !== bareHost(service.hostname)) return null;
  const own = new URL(service.url).origin;
  if (target.origin === own || trusted.includes(target.origin)) return null;
  return `${target.origin} is on the service's local host but is not the service's own address (${own}); on this machine or the LAN, sign-in may only use the service's own origin or one you trust for this service`;
}

/**
 * A sign-in origin the user trusts for `service` as typed: exactly scheme://host[:port] (a "/"
 * at the end is allowed), http or https, on the service's own host, which must be local (this
 * machine or the LAN: the rules for public hosts do not change), and not the service's own
 * origin (that needs no trust). Returns the origin; throws `invalid-input` with the reason.
 */
export function parseTrustedOrigin(service: ServiceUrl, text: string): string {
  const typed = text.trim();
  const shown = JSON.stringify(typed.length > 100 ? `${typed.slice(0, 99)}…` : typed);
  const refuse = (why: string) =>
    new AivoryError('invalid-input', `Trusted sign-in origin ${shown}: ${why}.`);
  if (typed.length === 0) throw refuse('it is empty');
  if (typed.length > 300) throw refuse('it is longer than 300 characters');
  const verdict = checkHttpUrl(typed);
  if (!verdict.ok && verdict.problem === 'invalid')
    throw refuse('not an origin (write it as http://host:port)');
  if (!verdict.ok && verdict.problem === 'scheme')
    throw refuse('it must start with http:// or https://');
  if (!verdict.ok) throw refuse('it must not carry credentials');
  const { url } = verdict;
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(typed))
    throw refuse('give the origin only (scheme://host:port), without a path, query or fragment');
  const own = new URL(service.url).origin;
  if (!service.local)
    throw refuse(
      `only a service on this machine or your local network may trust another origin on its host, and ${own} is not one`,
    );
  if (bareHost(url.hostname) !== bareHost(service.hostname))
    throw refuse(`it is not on the service's host (${service.hostname})`);
  if (url.origin === own) throw refuse("it is the service's own address, which needs no trust");
  return url.origin;
}

/** `parseTrustedOrigin` for each, without duplicates, at most `MAX_TRUSTED_SIGN_IN_ORIGINS`. */
export function parseTrustedOrigins(service: ServiceUrl, texts: readonly string[]): string[] {
  const origins = [...new Set(texts.map((text) => parseTrustedOrigin(service, text)))];
  if (origins.length > MAX_TRUSTED_SIGN_IN_ORIGINS)
    throw new AivoryError(
      'invalid-input',
      `At most ${MAX_TRUSTED_SIGN_IN_ORIGINS} trusted sign-in origins per service (got ${origins.length}).`,
    );
  return origins;
}
