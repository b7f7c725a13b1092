/**
 * Characters that change how a name reads without being seen. A file name from a tool, a model or
 * an attacker's download can carry a right-to-left override (`invoice\u202Efdp.exe` shows as
 * "invoiceexe.pdf"), zero-width characters or other format characters (Unicode category Cf:
 * U+200B–200F, U+202A–202E, U+2060–2069, U+061C, U+FEFF, U+00AD, …), C0/C1 controls, line and
 * paragraph separators, and the Hangul fillers that render as blanks. Pure: the artifact sink,
 * the attachment names, the renderer and the CLI all judge names with this one list.
 */

/** Every hidden character, matched one at a time (global, Unicode-aware). */
const HIDDEN = /[\p{Cc}\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/gu;

/** `text` without any hidden character: what a file name is stored and shown as. */
export function stripInvisibleCharacters(text: string): string {
  return text.replace(HIDDEN, '');
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
