/**
 * The open conversation's shown path is loaded a page at a time (`conversations.get` answers the
 * latest page, `conversations.older` each page before; `conversations.around` a window around a
 * search hit, `conversations.newer` each page after it): these pure folds put pages together.
 * Every message before another on one path is its ancestor, so a page whose first message is
 * already loaded continues exactly what was loaded before it.
 */
import type { Message } from '../../shared/dto';
import type { InvokeResponse } from '../../shared/ipc-contract';

type PageResponse = InvokeResponse<'conversations.older'> & { newer?: string | null };
type NewerResponse = InvokeResponse<'conversations.newer'>;
type TurnSummary = PageResponse['turns'][number];

/** What is loaded of the open conversation's path. */
export interface LoadedPath {
  messages: Message[];
  /** Turn summaries by assistant message id. */
  turns: Record<string, TurnSummary>;
  versions: Record<string, string[]>;
  /** The message before the first loaded one (`conversations.older`'s `from`); null: none. */
  older: string | null;
  /**
   * The last loaded message when more follow it (a window around a search hit:
   * `conversations.newer`'s `after`); null: loaded to the path's end.
   */
  newer: string | null;
}

function turnsById(turns: readonly TurnSummary[]): Record<string, TurnSummary> {
  return Object.fromEntries(turns.map((turn) => [turn.messageId, turn]));
}

/** A page on its own (a conversation just opened). */
export function pathOfPage(page: PageResponse): LoadedPath {
  return {
    messages: page.messages,
    turns: turnsById(page.turns),
    versions: page.versions,
    older: page.older,
    newer: page.newer ?? null,
  };
}

/**
 * The latest page read again (after a turn, a deletion, another version shown) over what was
 * loaded: when the page starts at a loaded message and goes on from the one loaded before it,
 * the messages before it stay loaded (the reader keeps what they scrolled up to); otherwise the
 * page alone.
 */
export function withLatestPage(current: LoadedPath, page: PageResponse): LoadedPath {
  const first = page.messages[0];
  const at = first === undefined ? -1 : current.messages.findIndex((m) => m.id === first.id);
  // The page must go on from the message before it (a deletion re-parents what followed).
  if (at <= 0 || current.messages[at - 1]?.id !== page.older || current.newer !== null)
    return pathOfPage(page);
  const kept = current.messages.slice(0, at);
  return {
    messages: [...kept, ...page.messages],
    turns: { ...pick(current.turns, kept), ...turnsById(page.turns) },
    versions: { ...pick(current.versions, kept), ...page.versions },
    older: current.older,
    newer: null,
  };
}

/** What is loaded without these messages (deleted: what followed them follows their parent). */
export function withoutMessages(current: LoadedPath, ids: readonly string[]): LoadedPath {
  const gone = new Set(ids);
  return { ...current, messages: current.messages.filter((message) => !gone.has(message.id)) };
}

/**
 * An older page put before what is loaded; null when it does not end where the loaded path
 * begins (the path changed meanwhile: the caller reloads).
 */
export function withOlderPage(current: LoadedPath, page: PageResponse): LoadedPath | null {
  const last = page.messages.at(-1);
  if (last === undefined || last.id !== current.older) return null;
  return {
    messages: [...page.messages, ...current.messages],
    turns: { ...turnsById(page.turns), ...current.turns },
    versions: { ...page.versions, ...current.versions },
    older: page.older,
    newer: current.newer,
  };
}

/**
 * A newer page put after what is loaded; null when it does not start right after the last loaded
 * message (the path changed meanwhile: the caller reloads).
 */
export function withNewerPage(
  current: LoadedPath,
  after: string,
  page: NewerResponse,
): LoadedPath | null {
  if (current.messages.at(-1)?.id !== after || current.newer !== after) return null;
  if (page.messages.length === 0 && page.newer === null) {
    // Nothing after it: either the path ends there, or it changed (then `after` is off it).
    return null;
  }
  return {
    messages: [...current.messages, ...page.messages],
    turns: { ...current.turns, ...turnsById(page.turns) },
    versions: { ...current.versions, ...page.versions },
    older: current.older,
    newer: page.newer,
  };
}

function pick<T>(record: Record<string, T>, messages: readonly Message[]): Record<string, T> {
  const picked: Record<string, T> = {};
  for (const message of messages) {
    const value = record[message.id];
    if (value !== undefined) picked[message.id] = value;
  }
  return picked;
}
