/**
 * What Serper and Brave have in common: a key that must be present, and the same few failures
 * (key rejected, quota or rate limit reached) that deserve a sentence the user can act on.
 */
import { errorDetail } from './http';
import { SearchBackendError } from './types';

/** Where a key is entered, named in every key-related message. */
const WHERE_TO_SET_KEY = 'the search API key in settings, or SEARCH_API_KEY';

/** Keys are tokens of visible ASCII; anything else cannot travel in an HTTP header. */
const SENDABLE_KEY = /^[\x21-\x7e]+$/;

/**
 * The key to send, or an error: none configured, or one that cannot be a header value (fetch's
 * own error for that would quote the key, so it is refused here without echoing it).
 */
export function requireKey(service: string, apiKey: string | null): string {
  if (!apiKey) {
    throw new SearchBackendError(`${service} needs an API key: set ${WHERE_TO_SET_KEY}.`);
  }
  if (!SENDABLE_KEY.test(apiKey)) {
    throw new SearchBackendError(
      `The ${service} API key contains spaces or characters that cannot be sent; enter it again (${WHERE_TO_SET_KEY}).`,
    );
  }
  return apiKey;
}

/**
 * The error for a non-200 answer. `keyRejected` lets a backend recognise its own way of saying
 * "bad key" in a status that is otherwise generic (Brave uses 422 SUBSCRIPTION_TOKEN_INVALID).
 */
export function paidApiStatusError(
  service: string,
  status: number,
  text: string,
  keyRejected = false,
): SearchBackendError {
  const detail = errorDetail(text);
  const said = `HTTP ${status}${detail ? `: ${detail}` : ''}`;
  if (status === 401 || status === 403 || keyRejected) {
    return new SearchBackendError(
      `${service} rejected the API key (${said}). Check ${WHERE_TO_SET_KEY}.`,
    );
  }
  if (status === 429 || status === 402 || /credit|quota/i.test(detail)) {
    return new SearchBackendError(
      `${service} refused the search: the rate limit or the account's quota is exhausted (${said}). Wait, or check the plan and credits of the account.`,
    );
  }
  return new SearchBackendError(`${service} answered ${said}.`);
}
