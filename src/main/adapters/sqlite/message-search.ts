/**
 * The full-text index of messages (`messages_fts`, rowid = `messages.seq`): keeping a message's
 * entry in step with its parts, and searching it with user text that may contain FTS syntax.
 */
import type Database from 'better-sqlite3';
import type { MessagePart } from '../../../shared/dto';
import { SNIPPET_MARK } from '../../../shared/search-snippet';
import type { MessageSearchHit } from '../../core/ports';

const DEFAULT_SEARCH_LIMIT = 20;
/** Caps a search so one query cannot pull the whole index into memory. */
const MAX_SEARCH_LIMIT = 200;
/** Words of context around a match in a search snippet. */
const SNIPPET_TOKENS = 12;
export { SNIPPET_MARK };

/** The text the index holds for a message: its text and reasoning parts, in order. */
export function searchableText(parts: readonly MessagePart[]): string {
  const pieces: string[] = [];
  for (const part of parts) {
    if (part.kind === 'text' || part.kind === 'reasoning') pieces.push(part.text);
  }
  return pieces.join('\n');
}

/**
 * Replaces the index entry of the message at `seq` with its current parts (no entry when they
 * hold no text). Call inside the transaction that writes the parts.
 */
export function replaceSearchEntry(
  database: Database.Database,
  entry: { seq: number; messageId: string; conversationId: string; parts: readonly MessagePart[] },
): void {
  database.prepare('DELETE FROM messages_fts WHERE rowid = ?').run(entry.seq);
  const text = searchableText(entry.parts);
  if (text.length === 0) return;
  database
    .prepare(
      `INSERT INTO messages_fts (rowid, message_id, conversation_id, text)
       VALUES (@seq, @messageId, @conversationId, @text)`,
    )
    .run({
      seq: entry.seq,
      messageId: entry.messageId,
      conversationId: entry.conversationId,
      text,
    });
}

/**
 * Turns user text into an FTS5 query in which every whitespace-separated word must appear as a
 * word or word prefix. Each word is quoted, so operators, parentheses and stray quotes are taken
 * literally; words without a letter or digit are dropped. Returns null when nothing is left.
 */
export function toMatchExpression(query: string): string | null {
  const terms = query
    .split(/\s+/)
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    .map((term) => `"${term.replaceAll('"', '""')}"*`);
  return terms.length === 0 ? null : terms.join(' ');
}

/** Searches message text and reasoning, best match first; no query text makes it throw. */
export function searchMessages(
  database: Database.Database,
  query: string,
  limit = DEFAULT_SEARCH_LIMIT,
): MessageSearchHit[] {
  const expression = toMatchExpression(query);
  if (expression === null) return [];
  const boundedLimit = Math.min(Math.max(Math.trunc(limit) || 1, 1), MAX_SEARCH_LIMIT);
  const { start, end, ellipsis } = SNIPPET_MARK;
  return database
    .prepare<[string, number], MessageSearchHit>(
      `SELECT message_id AS messageId, conversation_id AS conversationId,
         snippet(messages_fts, 2, '${start}', '${end}', '${ellipsis}', ${SNIPPET_TOKENS}) AS snippet
       FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?`,
    )
    .all(expression, boundedLimit);
}
