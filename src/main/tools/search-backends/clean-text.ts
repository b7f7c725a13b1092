/**
 * Turns the HTML-flavoured text search backends return (Brave wraps matches in <strong>, SearXNG
 * passes engines' markup and entities through) into plain text for the model.
 */
import { flatLine } from '../../../shared/untrusted-text';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
};

const TAG = /<\/?([a-zA-Z][a-zA-Z0-9]*)[^<>]*>|<!--[\s\S]*?-->/g;
/** Tags inside a run of text: removed without a space so "Hel<b>lo</b>" stays one word. */
const INLINE_TAGS = new Set([
  'a',
  'b',
  'strong',
  'em',
  'i',
  'u',
  'span',
  'mark',
  'code',
  'small',
  'sup',
  'sub',
]);
const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g;

/**
 * Plain text: tags removed, entities decoded, then tags removed again (so an escaped
 * `&lt;b&gt;` cannot come back as markup), control characters dropped, whitespace collapsed.
 */
export function cleanText(text: string): string {
  return flatLine(stripTags(decodeEntities(stripTags(text))));
}

/** `text` cut to `maxChars` at a word boundary when one is near, with an ellipsis. */
export function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > maxChars * 0.7 ? cut.slice(0, space) : cut}…`;
}

function stripTags(text: string): string {
  return text.replace(TAG, (_whole, name: string | undefined) =>
    name !== undefined && INLINE_TAGS.has(name.toLowerCase()) ? '' : ' ',
  );
}

/**
 * HTML's character references decoded: numeric ones (an invalid or surrogate code point becomes a
 * space) and the common named ones; search results and knowledge files' HTML share it.
 */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, body: string) => {
    if (body.startsWith('#')) {
      const hex = body[1] === 'x' || body[1] === 'X';
      const codePoint = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
      const valid =
        codePoint > 0 && codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
      return valid ? String.fromCodePoint(codePoint) : ' ';
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}
