/**
 * The scripted model of the UI bench: asked to "stream N tokens", it answers N tokens of Markdown
 * (one 4-character token per SSE chunk) at a steady 200 tokens/s, ending with a marker.
 */
import type { RecordedRequest, ScriptedResponse } from '../../test/support/scripted-llm-server';

/** The rate. */
export const TOKENS_PER_SECOND = 200;
/** Characters per token (one SSE chunk each). */
const TOKEN_CHARS = 4;
/** Ends every streamed answer; the bench waits for it. */
export const STREAM_END_MARKER = 'END-OF-STREAM';

/** The user message that asks for `tokens` tokens. */
export function streamPrompt(tokens: number): string {
  return `Please stream ${tokens} tokens`;
}

/** Markdown of exactly `tokens × 4` characters: paragraphs, every fifth one a list. */
export function streamText(tokens: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  for (let index = 0; length < tokens * TOKEN_CHARS; index += 1) {
    const words = Array.from({ length: 40 }, (_, word) => `w${(index * 40 + word) % 997}`);
    const paragraph =
      index % 5 === 4
        ? words
            .slice(0, 12)
            .map((word) => `- item ${word}`)
            .join('\n')
        : `Paragraph ${index}: ${words.join(' ')} with **bold** and \`code\`.`;
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n').slice(0, tokens * TOKEN_CHARS);
}

/** The text of the turn's user message. */
function lastUserText(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

/** The script: N tokens for "stream N tokens", a short answer otherwise. */
export function streamScript(request: RecordedRequest): ScriptedResponse {
  const match = /stream (\d+) tokens/.exec(lastUserText(request));
  if (match?.[1] === undefined) return { content: 'OK.' };
  return {
    content: `${streamText(Number(match[1]))} ${STREAM_END_MARKER}`,
    chunkSize: TOKEN_CHARS,
    chunksPerSecond: TOKENS_PER_SECOND,
  };
}
