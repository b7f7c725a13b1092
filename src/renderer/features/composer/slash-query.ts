/**
 * The "/" prompt palette's rules, kept pure for unit tests: where a "/word" being typed starts
 * (at the start of the box or after white space, the caret right after it), and which templates
 * match the word (title first, then tags; prefix matches before others).
 */
import type { InvokeResponse } from '../../../shared/ipc-contract';

/** A saved prompt template as `prompts.list` gives it. */
export type PromptTemplate = InvokeResponse<'prompts.list'>[number];

/** The "/word" before the caret: `start` is the slash, `end` the caret. */
export interface SlashQuery {
  start: number;
  end: number;
  /** The word after the slash (may be empty). */
  query: string;
}

/** Longer words are not prompt names: the palette stays shut (a pasted path, a URL). */
const MAX_QUERY_CHARS = 40;
const SLASH_WORD = /(?:^|\s)\/([^\s/]*)$/u;

/** The "/word" ending at `caret`, or null when the caret is not right after one. */
export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  if (caret < 1 || caret > text.length) return null;
  const match = SLASH_WORD.exec(text.slice(Math.max(0, caret - MAX_QUERY_CHARS - 2), caret));
  const query = match?.[1];
  if (query === undefined || query.length > MAX_QUERY_CHARS) return null;
  // The window cut the text: a slash at its start must really follow white space or the start.
  const start = caret - query.length - 1;
  if (start > 0 && !/\s/u.test(text.charAt(start - 1))) return null;
  return { start, end: caret, query };
}

/** How well `template` matches `query`: lower is better, null when it does not. */
function rank(template: PromptTemplate, query: string): number | null {
  if (query === '') return 0;
  const title = template.title.toLocaleLowerCase();
  if (title.startsWith(query)) return 0;
  if (title.split(/\s+/u).some((word) => word.startsWith(query))) return 1;
  if (title.includes(query)) return 2;
  if (template.tags.some((tag) => tag.toLocaleLowerCase().includes(query))) return 3;
  return null;
}

/** The templates matching `query` (case-insensitive), best first, the library's order kept. */
export function matchTemplates(
  templates: readonly PromptTemplate[],
  query: string,
): PromptTemplate[] {
  const wanted = query.toLocaleLowerCase();
  return templates
    .map((template, index) => ({ template, index, rank: rank(template, wanted) }))
    .filter((entry): entry is typeof entry & { rank: number } => entry.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.template);
}
