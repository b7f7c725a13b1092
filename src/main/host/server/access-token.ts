/**
 * The per-start token of `aivory serve`: 32 random bytes, base64url, printed in the URL. It is
 * compared in constant time (both sides hashed first, so lengths never leak either).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits: not guessable over a loopback socket in any amount of time. */
const TOKEN_BYTES = 32;

/** A fresh random token. */
export function createAccessToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** True when `candidate` equals `token`; constant time in the candidate's content and length. */
export function tokenMatches(token: string, candidate: string | null | undefined): boolean {
  if (typeof candidate !== 'string') return false;
  const expected = createHash('sha256').update(token).digest();
  const given = createHash('sha256').update(candidate).digest();
  return timingSafeEqual(expected, given);
}
