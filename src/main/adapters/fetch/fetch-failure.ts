/**
 * An expected fetch failure: a refused URL or address, a limit reached, a server that answered
 * badly. Its message is written for the model and becomes a tool error; it never escapes the
 * fetcher as a throw (the fetcher returns `{ ok: false, error }`).
 */
export class FetchFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchFailure';
  }
}

/** Translates Node's network error codes into sentences; null for errors it does not know. */
export function describeNetworkError(error: unknown, host: string): string | null {
  if (!(error instanceof Error)) return null;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return `could not resolve ${host} (${code})`;
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${host} closed the connection unexpectedly (${code})`;
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
    case 'EADDRNOTAVAIL':
      return `could not connect to ${host} (${code})`;
    case 'HPE_HEADER_OVERFLOW':
      return `the response headers from ${host} are too large`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_NOT_YET_VALID':
      return `the TLS certificate of ${host} was rejected (${code})`;
    default:
      break;
  }
  if (code.startsWith('HPE_')) return `${host} sent a malformed HTTP response (${code})`;
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /ssl|tls/i.test(error.message)) {
    return `the TLS connection to ${host} failed (${code || error.message.slice(0, 100)})`;
  }
  if (code.startsWith('E')) return `the request to ${host} failed (${code})`;
  return null;
}
