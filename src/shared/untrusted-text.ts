/**
 * The one sanitiser for text that comes from outside — MCP servers, models, web pages, OAuth
 * servers, file names from tools or downloads — before it is shown, stored or quoted back.
 *
 * Hidden characters are everything that changes how text reads without being seen: C0/C1
 * controls (`\p{Cc}`), format characters (`\p{Cf}`: zero-width spaces and joiners, bidi
 * embeddings, overrides and isolates, U+061C, the BOM, the soft hyphen, …), the line and
 * paragraph separators, and the Hangul fillers that render as blanks. A right-to-left override
 * makes `invoice\u202Efdp.exe` read "invoiceexe.pdf"; a zero-width space makes two tool names
 * look alike. One list, so no caller forgets a range.
 *
 * The named policies, by what the text is for:
 * - `stripInvisibleCharacters`: a name that is stored and shown (file, attachment): removed.
 * - `hasInvisibleCharacters`: a value that is refused rather than changed (a root path, a tool
 *   or field name, a title the user typed).
 * - `oneLine`: a message, label or error on one line: each run of hidden characters and
 *   whitespace one space (a space also shows the reader that something stood there), trimmed,
 *   cut at `max` code points with "…".
 * - `flatLine`: the same without a bound (the caller cuts it its own way).
 * - `boundedLine`: the same, cut with "… (+N characters)" so the reader knows how much is gone.
 * - `keepingLines`: multi-line text (a sampling prompt, an elicitation message): newlines (and
 *   tabs, when asked) kept, CRLF → LF, every other hidden character a space.
 * - `revealInvisibleCharacters`: a prompt asking the user to decide about what was sent: each
 *   hidden character written out as `\u{…}`, so nothing is silently removed.
 * - `quotedValue`: a refused value quoted back in a message.
 */

/** Every hidden character, matched one at a time (global, Unicode-aware). */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/gu;
/** Hidden characters and whitespace, one run at a time: one space in a line. */
const HIDDEN_RUN = /[\p{Cc}\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0\s]+/gu;
/** Hidden characters but the newline (\n) and tab (\t). */
const HIDDEN_BUT_LINES_AND_TABS = /[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]|(?![\n\t])\p{Cc}/gu;
/** Hidden characters but the newline (\n). */
const HIDDEN_BUT_LINES = /[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]|(?!\n)\p{Cc}/gu;

/** `text` without any hidden character: what a file name is stored and shown as. */
export function stripInvisibleCharacters(text: string): string {
  return text.replace(HIDDEN, '');
}

/** True when `text` holds a hidden character (controls, newlines and tabs included). */
export function hasInvisibleCharacters(text: string): boolean {
  return text.search(HIDDEN) !== -1;
}

/** `text` on one line (see the file comment), at most `max` code points with "…". */
export function oneLine(text: string, max = 200): string {
  const flat = flatLine(text);
  const points = Array.from(flat);
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : flat;
}

/** `text` on one line, at most `max` code points with "… (+N characters)" when cut. */
export function boundedLine(text: string, max: number): string {
  const flat = flatLine(text);
  const points = Array.from(flat);
  if (points.length <= max) return flat;
  return `${points.slice(0, max).join('')}… (+${points.length - max} characters)`;
}

/**
 * Multi-line text: CRLF and CR become LF, every hidden character but the newline (and the tab,
 * with `tabs`) a space. Not trimmed or bounded: the caller knows its limits.
 */
export function keepingLines(text: string, options: { tabs?: boolean } = {}): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(options.tabs === true ? HIDDEN_BUT_LINES_AND_TABS : HIDDEN_BUT_LINES, ' ');
}

/** Hidden characters and whitespace runs one space; trimmed. */
export function flatLine(text: string): string {
  return text.replace(HIDDEN_RUN, ' ').trim();
}

/**
 * `text` with each hidden character written out as `\u{…}` (`invoice\u{202e}fdp.exe`): for a
 * prompt that asks the user to decide about what a server or a model sent, where a silently
 * removed character would hide that something was there.
 */
export function revealInvisibleCharacters(text: string): string {
  return text.replace(
    HIDDEN,
    (character) => `\\u{${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}}`,
  );
}

/** Characters of a refused value quoted back in a message: enough to recognise it. */
const QUOTED_VALUE_CHARS = 80;

/**
 * `text` as a message quotes it: control and invisible characters removed, cut to
 * `QUOTED_VALUE_CHARS` with its full length said, in double quotes.
 */
export function quotedValue(text: string): string {
  const visible = stripInvisibleCharacters(text);
  if (visible.length <= QUOTED_VALUE_CHARS) return `"${visible}"`;
  return `"${visible.slice(0, QUOTED_VALUE_CHARS)}…" (${text.length.toLocaleString('en-US')} characters)`;
}
