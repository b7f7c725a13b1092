/** The port the chat service tells about a conversation's first answer (issue 22: titles). */
import type { LlmClient } from './llm';

/** A conversation's first complete answer, with the model that wrote it. */
export interface FirstAnswer {
  conversationId: string;
  /** The user's first question (its text; may be empty when only files were sent). */
  question: string;
  /** The answer's visible text. */
  answer: string;
  /** The conversation's model: the client and the model name its turn used. */
  llm: LlmClient;
  model: string;
}

/**
 * Gives a conversation a short title after its first answer. `firstAnswer` returns at once and
 * never throws: the work goes on in the background, and a failure keeps the title it had.
 */
export interface ConversationTitler {
  firstAnswer(answer: FirstAnswer): void;
}
