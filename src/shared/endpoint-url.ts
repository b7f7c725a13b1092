/**
 * The one rule for a URL the user gives the app as an endpoint: a model server's base URL (the
 * model editor, `aivory models add|edit`) and the search, image and sandbox URLs of the settings
 * (`aivory settings set`, the settings page). Plain TS over WHATWG `URL`, so the main process,
 * the contract's schemas and the renderer judge a URL the same way.
 */
// zod's functional build: also part of the settings, which every start builds (issue 24); the
// contract's classic schemas take it as a field like any other.
import * as z from 'zod/mini';
import { checkHttpUrl } from './http-url';
import { quotedValue } from './untrusted-text';
import { MAX_URL_CHARS } from './ipc/limits';

/** What an endpoint URL may be, for messages ("Allowed: …"). */
export const ENDPOINT_URL_RULE = `an http:// or https:// URL of at most ${MAX_URL_CHARS} characters, not on a link-local address (169.254.x.x, fe80::)`;

/**
 * Why `text` (trimmed) cannot be an endpoint URL, as a sentence fragment ("is not an http(s)
 * URL"); null when it can. Only http and https (never `javascript:`, `file:`, `data:`), at most
 * `MAX_URL_CHARS` characters, no blanks or control characters inside, and no link-local host
 * (169.254.0.0/16, fe80::/10, and IPv4-mapped forms): that is where cloud metadata services
 * answer, and no model server, search engine or sandbox lives there.
 */
export function endpointUrlProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_URL_CHARS) {
    return `is ${trimmed.length.toLocaleString('en-US')} characters long (at most ${MAX_URL_CHARS})`;
  }
  if (/[\s\p{Cc}\p{Cf}]/u.test(trimmed)) return 'contains blanks or control characters';
  const verdict = checkHttpUrl(trimmed);
  if (!verdict.ok && verdict.problem === 'invalid') {
    return 'is not a URL (it must start with http:// or https://)';
  }
  if (!verdict.ok && verdict.problem === 'scheme') {
    return `uses ${verdict.url.protocol.slice(0, 20)} (only http:// and https:// are allowed)`;
  }
  // Credentials are left to the callers, which word the hint for where the key goes.
  if (isLinkLocalHost(verdict.url.hostname)) {
    return 'is on a link-local address (169.254.x.x or fe80::, where cloud metadata services answer)';
  }
  return null;
}

/** True for 169.254.0.0/16, fe80::/10 and IPv4-mapped 169.254 (WHATWG-normalised host names). */
function isLinkLocalHost(hostname: string): boolean {
  if (/^169\.254\.\d{1,3}\.\d{1,3}$/.test(hostname)) return true;
  if (!hostname.startsWith('[')) return false;
  const address = hostname.slice(1, -1).toLowerCase();
  if (/^fe[89ab][0-9a-f]:/.test(address)) return true;
  // The URL parser writes ::ffff:169.254.1.2 as ::ffff:a9fe:102.
  return /^::ffff:a9fe:[0-9a-f]{1,4}$/.test(address);
}

/**
 * The zod form of the rule for schemas (the contract's model URLs, the settings): trimmed, then
 * refused with the value quoted, the reason and what is allowed. With `emptyMeans` (what an empty
 * value does, e.g. "no external sandbox"), '' is allowed too.
 */
export function endpointUrlSchema(emptyMeans?: string): z.ZodMiniType<string, string> {
  return z.string().check(
    z.trim(),
    z.superRefine((text, context) => {
      if (emptyMeans !== undefined && text === '') return;
      const problem = endpointUrlProblem(text);
      if (problem === null) return;
      const orEmpty = emptyMeans === undefined ? '' : `, or empty (${emptyMeans})`;
      context.addIssue({
        code: 'custom',
        message: `${quotedValue(text)} ${problem}. Allowed: ${ENDPOINT_URL_RULE}${orEmpty}`,
      });
    }),
  );
}
