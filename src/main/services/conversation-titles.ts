/**
 * Conversation titles written by the conversation's own model (issue 22): a conversation starts
 * titled with its first message cut short; after its first complete answer, one small request
 * (no tools, a few tokens) asks the model for a title of at most six words in the language of the
 * user's message. The reply is untrusted text: one line, without quotes, Markdown, control or
 * bidi characters, bounded. It replaces only the first-message title (`setGeneratedTitle`), so a
 * rename by the user always wins, even one made while the request runs. A failure keeps the old
 * title and says so in the log only.
 */
import type { Conversation } from '../../shared/dto';
import type {
  ConversationStore,
  ConversationTitler,
  FirstAnswer,
  LlmRequest,
  Logger,
} from '../core/ports';
import { keepingLines } from '../../shared/untrusted-text';

/** The instruction of every title request (the scripted test server recognises it). */
export const TITLE_INSTRUCTION =
  'You name conversations. Reply with a title of at most 6 words for the conversation below, ' +
  "written in the same language as the user's message. Reply with the title only: no quotes, " +
  'no Markdown, no final punctuation, no explanation.';

/** Output tokens a title request may use: six words in any script, with room to spare. */
export const TITLE_MAX_OUTPUT_TOKENS = 40;
/** How long a title request may take before it is given up (the old title stays). */
export const TITLE_TIMEOUT_MS = 20_000;
/** Longest generated title, in characters (the contract allows 200; the sidebar shows ~40). */
export const MAX_GENERATED_TITLE_CHARS = 80;
/** How much of the question and of the answer the request quotes. */
const QUESTION_CHARS = 1500;
const ANSWER_CHARS = 400;
/** More reply than this is not a title: reading stops. */
const MAX_REPLY_CHARS = 2000;

export interface ConversationTitlesDependencies {
  conversations: Pick<
    ConversationStore,
    'getConversation' | 'getTitleSource' | 'setGeneratedTitle'
  >;
  logger: Pick<Logger, 'info' | 'warn'>;
  timeoutMs?: number;
}

export class ConversationTitles implements ConversationTitler {
  private readonly pending = new Set<Promise<void>>();
  private readonly listeners = new Set<(conversation: Conversation) => void>();
  private readonly stopping = new AbortController();

  constructor(private readonly dependencies: ConversationTitlesDependencies) {}

  /** Calls `listener` with the conversation each time it gets a generated title. */
  onTitled(listener: (conversation: Conversation) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Starts the title request in the background, unless the title is no longer the first message's. */
  firstAnswer(answer: FirstAnswer): void {
    if (this.stopping.signal.aborted) return;
    let source;
    try {
      source = this.dependencies.conversations.getTitleSource(answer.conversationId);
    } catch (error) {
      this.dependencies.logger.warn('no title for the conversation', {
        conversationId: answer.conversationId,
        error: String(error),
      });
      return;
    }
    if (source !== 'message') return;
    const work = this.generate(answer).finally(() => this.pending.delete(work));
    this.pending.add(work);
  }

  /** Resolves once every title request under way has finished (the CLI waits before it exits). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Gives up the requests under way and starts no more (the app is closing). */
  stop(): void {
    this.stopping.abort();
  }

  private async generate(answer: FirstAnswer): Promise<void> {
    const { conversations, logger } = this.dependencies;
    const signal = AbortSignal.any([
      this.stopping.signal,
      AbortSignal.timeout(this.dependencies.timeoutMs ?? TITLE_TIMEOUT_MS),
    ]);
    try {
      const reply = await readReply(answer, signal);
      const title = sanitizeTitle(reply);
      if (title === null) {
        logger.warn('no title for the conversation: the model replied with no usable title', {
          conversationId: answer.conversationId,
        });
        return;
      }
      if (!conversations.setGeneratedTitle(answer.conversationId, title)) return;
      const conversation = conversations.getConversation(answer.conversationId);
      if (conversation === null) return;
      for (const listener of [...this.listeners]) {
        try {
          listener(conversation);
        } catch (error) {
          logger.warn('a title listener failed', { error: String(error) });
        }
      }
    } catch (error) {
      logger.warn('no title for the conversation', {
        conversationId: answer.conversationId,
        error: signal.aborted ? 'timed out or stopped' : String(error),
      });
    }
  }
}

/** The title request: the instruction, the question and the start of the answer; no tools. */
export function titleRequest(
  answer: Pick<FirstAnswer, 'question' | 'answer' | 'model'>,
): LlmRequest {
  const question = answer.question.slice(0, QUESTION_CHARS);
  const start = answer.answer.slice(0, ANSWER_CHARS);
  return {
    model: answer.model,
    messages: [
      { role: 'system', content: TITLE_INSTRUCTION },
      {
        role: 'user',
        content: `The user's message:\n${question}\n\nThe start of the answer:\n${start}\n\nThe title, in the language of the user's message:`,
      },
    ],
    maxOutputTokens: TITLE_MAX_OUTPUT_TOKENS,
  };
}

async function readReply(answer: FirstAnswer, signal: AbortSignal): Promise<string> {
  let reply = '';
  for await (const chunk of answer.llm.stream(titleRequest(answer), signal)) {
    if (chunk.type !== 'text') continue;
    reply += chunk.text;
    if (reply.length > MAX_REPLY_CHARS) break;
  }
  return reply;
}

const QUOTES = `"'\`“”‘’„«»‹›「」『』《》〈〉`;
const EDGE_QUOTES = new RegExp(`^[${QUOTES}\\s]+|[${QUOTES}\\s]+$`, 'gu');

/**
 * A model's reply as a title: its first non-empty line without a reasoning block, a "Title:"
 * label, Markdown, quotes, control or bidi characters and final punctuation; at most
 * MAX_GENERATED_TITLE_CHARS characters. Null when nothing is left.
 */
export function sanitizeTitle(reply: string): string | null {
  const withoutThinking = reply.replace(/<think>[^]*?(<\/think>|$)/gi, '');
  const line =
    keepingLines(withoutThinking)
      .split('\n')
      .map((candidate) => candidate.trim())
      .find((candidate) => candidate !== '') ?? '';
  let title = line
    .replace(/^(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, '')
    .replace(/^(title|标题|題名|タイトル)\s*[:：]\s*/iu, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/^[*_]+|[*_]+$/g, '')
    .replace(EDGE_QUOTES, '')
    .replace(/[.。:：;；,，、]+$/u, '')
    .replace(EDGE_QUOTES, '')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = [...title];
  if (characters.length > MAX_GENERATED_TITLE_CHARS) {
    title = `${characters
      .slice(0, MAX_GENERATED_TITLE_CHARS - 1)
      .join('')
      .trimEnd()}…`;
  }
  return title === '' ? null : title;
}
