/**
 * Very long answers for the scripted model (the e2e test of long answers and
 * `bench/ui/run-long-answer-bench.ts`): asked for a "Long KIND answer, N characters", it
 * streams N characters of KIND then an end marker, in big chunks at a steady rate. The kinds are
 * the Markdown chunker's cases: ordinary Markdown (paragraphs and lists apart by blank lines),
 * one paragraph of lines with no blank line, one line with no break at all, and one fenced code
 * block.
 */
import type { RecordedRequest, ScriptedResponse } from './scripted-llm-server';

export type LongAnswerKind = 'markdown' | 'paragraph' | 'line' | 'fence';

/** Ends every long answer; tests and the bench wait for it. */
export const LONG_ANSWER_END = 'END-OF-LONG-ANSWER';
/** Characters per streamed chunk, and chunks per second (400 KB/s: 2 MB in 5 s). */
export const LONG_ANSWER_CHUNK = 4000;
export const LONG_ANSWER_CHUNKS_PER_SECOND = 100;

/** The user message asking for it; `slowly`: at a quarter of the rate (2 MB in 20 s). */
export function longAnswerPrompt(kind: LongAnswerKind, chars: number, slowly = false): string {
  return `Long ${kind} answer, ${chars} characters${slowly ? ', slowly' : ''}`;
}

/** `chars` characters of `kind` (deterministic). */
export function longAnswerText(kind: LongAnswerKind, chars: number): string {
  let text = '';
  for (let index = 0; text.length < chars; index += 1) text += piece(kind, index);
  return text.slice(0, chars);
}

function piece(kind: LongAnswerKind, index: number): string {
  const words = Array.from({ length: 12 }, (_, word) => `w${(index * 12 + word) % 997}`).join(' ');
  switch (kind) {
    case 'markdown':
      return index % 5 === 4
        ? `- item ${words}\n- another **item** ${index}\n- and \`code\` ${index}\n\n`
        : `Paragraph ${index}: ${words} with **bold**, *emphasis* and \`code\`.\n\n`;
    case 'paragraph':
      return `Line ${index} of one paragraph: ${words} **bold**\n`;
    case 'line':
      return `sentence ${index} ${words} `;
    case 'fence':
      return index === 0 ? '```python\n' : `value_${index} = compute(${index}, "${words}")\n`;
  }
}

function lastUserText(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

/** The script: a long answer when asked for one, "OK." otherwise. */
export function longAnswerScript(request: RecordedRequest): ScriptedResponse {
  const match = /Long (markdown|paragraph|line|fence) answer, (\d+) characters/.exec(
    lastUserText(request),
  );
  if (match?.[1] === undefined || match[2] === undefined) return { content: 'OK.' };
  const kind = match[1] as LongAnswerKind;
  const slowly = lastUserText(request).endsWith(', slowly');
  // The end marker on its own line (inside the fence it is code; its text shows all the same).
  return {
    content: `${longAnswerText(kind, Number(match[2]))}\n${LONG_ANSWER_END}`,
    chunkSize: LONG_ANSWER_CHUNK,
    chunksPerSecond: LONG_ANSWER_CHUNKS_PER_SECOND / (slowly ? 4 : 1),
  };
}
