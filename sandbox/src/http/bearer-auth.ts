/**
 * Bearer-key checking. Both the presented and the expected key are hashed first so that the
 * comparison always runs over two equal-length digests: `timingSafeEqual` throws on different
 * lengths, and comparing raw strings would leak the key's length and prefix through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER_PATTERN = /^Bearer +(\S+) *$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Returns a check for an `Authorization` header value. With `apiKey` null every request passes
 * (auth off; the entry point allows that on loopback only). An empty key is refused: it would
 * make "no key" and "the key" the same thing.
 */
export function createBearerCheck(
  apiKey: string | null,
): (authorization: string | undefined) => boolean {
  if (apiKey === null) return () => true;
  if (apiKey === '') throw new TypeError('apiKey must be non-empty; pass null to turn auth off.');
  const expected = digest(apiKey);
  return (authorization) => {
    const presented = BEARER_PATTERN.exec(authorization ?? '')?.[1];
    // A missing token is still hashed and compared, so it takes the same time as a wrong one.
    const matches = timingSafeEqual(digest(presented ?? ''), expected);
    return matches && presented !== undefined;
  };
}
