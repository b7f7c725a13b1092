/**
 * Building `SearchHit`s from untrusted backend JSON: every field is checked, text is cleaned of
 * markup, and only http(s) links survive (a `javascript:` or `file:` link is never shown).
 */
import { cleanText } from './clean-text';
import type { SearchHit } from './types';

/**
 * Longer links are dropped: 2048 characters is the practical limit browsers and servers share,
 * and a link is shown whole (a cut link is useless), so this also bounds one hit's size.
 */
const MAX_URL_CHARS = 2048;

/** The raw fields of one result, straight from a backend's JSON. */
export interface RawHit {
  title: unknown;
  url: unknown;
  snippet: unknown;
  engine?: unknown;
  publishedDate?: unknown;
}

/** A clean hit, or null when the result has no usable http(s) URL of a sane length. */
export function toHit(raw: RawHit): SearchHit | null {
  const url = typeof raw.url === 'string' ? webUrl(raw.url.trim()) : null;
  if (url === null) return null;
  const title = typeof raw.title === 'string' ? cleanText(raw.title) : '';
  const hit: SearchHit = {
    title: title === '' ? url.hostname : title,
    url: url.href,
    snippet: typeof raw.snippet === 'string' ? cleanText(raw.snippet) : '',
  };
  const engine = typeof raw.engine === 'string' ? cleanText(raw.engine) : '';
  if (engine !== '') hit.engine = engine;
  const published = typeof raw.publishedDate === 'string' ? cleanText(raw.publishedDate) : '';
  if (published !== '') hit.publishedDate = published;
  return hit;
}

/** A plain-object view of a JSON value, or null for arrays, primitives and null. */
export function asRecord(value: unknown): Record<string, unknown> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return Object.fromEntries(Object.entries(value));
}

function webUrl(text: string): URL | null {
  if (text.length > MAX_URL_CHARS || !URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}
