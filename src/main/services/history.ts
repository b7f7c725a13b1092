/**
 * Builds the provider-neutral history for a new turn from stored messages. Earlier turns are
 * replayed as plain user/assistant text (the seed: stored tool results are not replayed as native
 * provider history), newest first until the model's context window is spent; answers still
 * streaming are left out (`replayable`).
 */
import type { ContextPolicy, Message } from '../../shared/dto';
import { messageText } from '../../shared/message-parts';
import type { ChatImage, ChatMessage } from '../core/ports';
import { attachmentsOf } from './attachments';
import { IMAGE_TOKEN_ESTIMATE } from './vision-input';

/** Tokens kept free for the model's answer and tool traffic, as a share of the window. */
const ANSWER_RESERVE_SHARE = 0.25;
/** The reserve is at least this many tokens, even for small windows. */
const MIN_ANSWER_RESERVE_TOKENS = 1024;

/**
 * A cautious token estimate: UTF-8 bytes / 3 is ~1 token per CJK character and a little over the
 * real count for English, so trimming errs on the side of fitting.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 3) + 4;
}

/** What an earlier message contributes: its text, and for the user's, the names of its files. */
export function replayedText(message: Message): string {
  const text = messageText(message.parts);
  if (message.role !== 'user') return text;
  const names = attachmentsOf(message.parts).map((file) => file.name);
  return names.length === 0 ? text : `${text}\n\n[Attached files: ${names.join(', ')}]`.trim();
}

export function buildHistory(options: {
  systemPrompt: string;
  previous: readonly Message[];
  userText: string;
  /** The current message's images, for a vision model (each counted as a fixed estimate). */
  userImages?: readonly ChatImage[];
  contextWindow: number;
}): ChatMessage[] {
  const userImages = options.userImages ?? [];
  const reserve = Math.max(MIN_ANSWER_RESERVE_TOKENS, options.contextWindow * ANSWER_RESERVE_SHARE);
  let remaining =
    options.contextWindow -
    reserve -
    estimateTokens(options.systemPrompt) -
    estimateTokens(options.userText) -
    userImages.length * IMAGE_TOKEN_ESTIMATE;
  const kept: ChatMessage[] = [];
  for (let index = options.previous.length - 1; index >= 0; index--) {
    const message = options.previous[index];
    if (!message || !replayable(message)) continue;
    const text = replayedText(message);
    const cost = estimateTokens(text);
    if (cost > remaining) break;
    remaining -= cost;
    kept.push(
      message.role === 'user'
        ? { role: 'user', content: text }
        : { role: 'assistant', content: text },
    );
  }
  kept.reverse();
  // Providers expect the history to start with a user message after the system prompt.
  while (kept[0]?.role === 'assistant') kept.shift();
  return [
    { role: 'system', content: options.systemPrompt },
    ...kept,
    {
      role: 'user',
      content: options.userText,
      ...(userImages.length > 0 ? { images: [...userImages] } : {}),
    },
  ];
}

/**
 * Whether an earlier message is replayed at all: a user or assistant message with some text that
 * is not still `streaming`. A streaming answer is a turn that is running (or whose writer died and
 * was not yet marked): its text is partial and may change, so it is never history (issue 21: a
 * question sent from another process went out with the other turn's half answer). Interrupted,
 * canceled and failed answers are replayed as far as they got, as before: the user saw that text
 * and the next question often refers to it ("go on"); a retry removes them.
 */
export function replayable(message: Message): boolean {
  return (
    message.role !== 'system' &&
    message.status !== 'streaming' &&
    replayedText(message).trim() !== ''
  );
}

/**
 * The earlier messages a context policy keeps (`buildHistory` then trims to the window): all, the
 * last `count` replayed messages, or the newest while their estimated tokens fit `budget`.
 */
export function applyContextPolicy(
  previous: readonly Message[],
  policy: ContextPolicy | undefined,
): Message[] {
  return selectByPolicy(replayableMessages(previous), policy);
}

/** The earlier messages that are replayed at all (see `replayable`), in order. */
export function replayableMessages(previous: readonly Message[]): Message[] {
  return previous.filter(replayable);
}

/** `applyContextPolicy` over messages already known to be replayable (one pass fewer). */
export function selectByPolicy(
  candidates: readonly Message[],
  policy: ContextPolicy | undefined,
): Message[] {
  if (policy === undefined || policy.kind === 'all') return [...candidates];
  if (policy.kind === 'messages') return candidates.slice(-policy.count);
  let remaining = policy.budget;
  let start = candidates.length;
  while (start > 0) {
    const message = candidates[start - 1];
    if (!message) break;
    const cost = estimateTokens(replayedText(message));
    if (cost > remaining) break;
    remaining -= cost;
    start -= 1;
  }
  return candidates.slice(start);
}
