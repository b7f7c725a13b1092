/**
 * One HTTP(S) request/response over node:http, connected ONLY to addresses that were already
 * judged. The connection is pinned: the request's `lookup` answers with the checked addresses
 * (no second DNS query, so no rebinding window), and the socket's peer address is checked again
 * on connect before a byte of the request is trusted to it. TLS still verifies the certificate
 * against the hostname (SNI and identity check use the name, not the pinned address).
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { LookupFunction, Socket } from 'node:net';
import { checkAddress, describeRefusal } from '../../policy/address-policy';
import { FetchFailure } from './fetch-failure';
import { formatDuration } from './fetch-limits';
import type { ResolvedAddress } from '../../core/ports';
import { nodeHttp, nodeHttps, nodeTls } from '../node-http';
import { addressKey } from '../../policy/ip-address';
import type { UrlTarget } from '../../policy/url-policy';

export interface ExchangeRequest {
  target: UrlTarget;
  /** The judged addresses; the connection goes to one of these and nowhere else. */
  addresses: readonly ResolvedAddress[];
  headers: OutgoingHttpHeaders;
  headersTimeoutMs: number;
  maxHeaderBytes: number;
  /** Aborting destroys the request; the abort reason becomes the rejection. */
  signal: AbortSignal;
  /** PEM certificates trusted in addition to the system roots (a corporate CA; tests). */
  extraCaCertificates: readonly string[];
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  headers: IncomingMessage['headers'];
  /** The peer the socket is connected to, as checked. */
  remoteAddress: string;
  body: IncomingMessage;
}

/** Sends a GET and resolves when the response headers arrive. */
export function openExchange(request: ExchangeRequest): Promise<ExchangeResponse> {
  const { target, addresses, signal } = request;
  signal.throwIfAborted();
  const allowed = new Set(addresses.map((entry) => addressKey(entry.address)));
  const https = target.url.protocol === 'https:';
  const options = {
    hostname: target.hostname,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    method: 'GET',
    headers: { ...request.headers, host: target.url.host },
    // A fresh socket per request: a pooled one may have been connected for another check.
    agent: false,
    lookup: pinnedLookup(target.hostname, addresses),
    maxHeaderSize: request.maxHeaderBytes,
    ...(https
      ? {
          // SNI and the certificate check use the name; an IP literal gets no SNI (RFC 6066).
          servername: target.isAddress ? '' : target.hostname,
          ...(request.extraCaCertificates.length > 0
            ? { ca: [...nodeTls().rootCertificates, ...request.extraCaCertificates] }
            : {}),
        }
      : {}),
  };
  return new Promise<ExchangeResponse>((resolve, reject) => {
    const outgoing = (https ? nodeHttps().request : nodeHttp().request)(options);
    let remoteAddress = '';
    const fail = (error: unknown): void => {
      outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    };
    const onAbort = (): void => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const headersTimer = setTimeout(() => {
      fail(
        new FetchFailure(
          `${target.hostname} sent no response headers within ${formatDuration(request.headersTimeoutMs)}`,
        ),
      );
    }, request.headersTimeoutMs);
    const cleanUp = (): void => {
      clearTimeout(headersTimer);
      signal.removeEventListener('abort', onAbort);
    };
    outgoing.on('socket', (socket: Socket) => {
      const verifyPeer = (): void => {
        remoteAddress = socket.remoteAddress ?? '';
        const verdict = checkAddress(remoteAddress);
        if (!allowed.has(addressKey(remoteAddress)) || !verdict.allowed) {
          const why = verdict.allowed
            ? 'an address that was not checked'
            : describeRefusal(verdict);
          fail(new FetchFailure(`blocked: the connection to ${target.hostname} reached ${why}`));
        }
      };
      if (socket.connecting) socket.once('connect', verifyPeer);
      else verifyPeer();
    });
    outgoing.once('response', (response) => {
      cleanUp();
      // The response's own errors (a reset mid-body, an abort) surface where the body is read.
      response.on('error', () => undefined);
      signal.addEventListener('abort', () => response.destroy(asError(signal.reason)), {
        once: true,
      });
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        headers: response.headers,
        remoteAddress,
        body: response,
      });
    });
    // `on`, not `once`: a socket error after the response arrived is re-emitted here, and an
    // 'error' without a listener would crash the process. After settling, reject is a no-op.
    outgoing.on('error', (error) => {
      cleanUp();
      reject(error);
    });
    outgoing.end();
  });
}

/**
 * A `lookup` that never asks DNS: it answers with the checked addresses, and only for the host
 * they were checked for. Handles `all` (Happy Eyeballs, on by default since Node 20) and `family`.
 * It answers on the next tick, as a real lookup does: answered synchronously, a connection that
 * fails at once (ENETUNREACH for an address family with no route) emits its 'error' before
 * `http.request` has attached a listener, and on some Node versions that kills the process.
 */
export function pinnedLookup(
  hostname: string,
  addresses: readonly ResolvedAddress[],
): LookupFunction {
  const answer = lookupAnswer(hostname, addresses);
  return (name, options, callback) => {
    process.nextTick(answer, name, options, callback);
  };
}

function lookupAnswer(hostname: string, addresses: readonly ResolvedAddress[]): LookupFunction {
  return (name, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = addresses.filter((entry) => family === 0 || entry.family === family);
    const first = usable[0];
    if (name.replace(/\.+$/, '') !== hostname || !first) {
      const error: NodeJS.ErrnoException = new Error(`no checked address for ${name}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
      return;
    }
    if (options.all)
      callback(
        null,
        usable.map((entry) => ({ address: entry.address, family: entry.family })),
      );
    else callback(null, first.address, first.family);
  };
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
