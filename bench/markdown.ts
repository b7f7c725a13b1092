/**
 * The Markdown pipeline on adversarial input (issue 12): 1 MB mixing unclosed emphasis and
 * other never-closed markers (one 300 KB paragraph opened by `**`, the case that took the old
 * hand-written parser ~1 s per 64 KB), quotes and lists nested 60 deep, and a 10,000-row table.
 * Measured: what the renderer does per message — `splitMarkdownChunks` then markdown-it on each
 * chunk (`parseMarkdownChunk`: a table of more than 500 rows parses its first 500 until the user
 * asks for the rest, as the answer shows them). Baseline, in the same run: the same work on plain text of the
 * same size (the same document with every Markdown marker replaced by a letter: same lines and
 * paragraphs, no markup). Goal (issue 12): ≤ 2× the baseline. (Turning the tokens into React
 * elements is one pass over them, not timed here: bench/ui measures the rendered UI.)
 */
import { splitMarkdownChunks } from '../src/renderer/components/markdown-chunks';
import { parseMarkdownChunk } from '../src/renderer/components/markdown-pipeline';
import type { BenchResult } from './bench-result';
import { measureAgainstBaseline } from './statistics';

const DOCUMENT_CHARS = 1_000_000;
const TABLE_ROWS = 10_000;
const NESTING = 60;
const GOAL_RATIO = 2;
const MEASURED_RUNS = 7;
const WARMUP_RUNS = 2;

const SENTENCE = 'The model streams its answer in small pieces while reading results from tools. ';
const UNCLOSED = ['**', '_', '*', '`', '[', '![', '$', '~~', '<', '__', '[link](https://x'];

/** The adversarial document, exactly DOCUMENT_CHARS long. */
export function adversarialMarkdown(): string {
  const unclosed = UNCLOSED.map((marker) => SENTENCE.replace('model', `${marker}model`)).join('');
  const sections = [
    `**${SENTENCE.repeat(3_600)}\n\n`,
    `${unclosed.repeat(5)}\n\n`.repeat(40),
    `${Array.from({ length: NESTING }, (_, depth) => `${'> '.repeat(depth + 1)}deep *quote`).join('\n')}\n\n`.repeat(
      12,
    ),
    `${Array.from({ length: NESTING }, (_, depth) => `${'  '.repeat(depth)}- item _open`).join('\n')}\n\n`.repeat(
      25,
    ),
    `| name | value | note |\n|:--|--:|---|\n${Array.from(
      { length: TABLE_ROWS },
      (_, row) => `| row ${row} | ${row * 7} | **b** \`c\` ~~d |`,
    ).join('\n')}\n\n`,
  ];
  const text = sections.join('');
  if (text.length < DOCUMENT_CHARS)
    return text + SENTENCE.repeat(DOCUMENT_CHARS).slice(0, DOCUMENT_CHARS - text.length);
  throw new Error(
    `markdown bench: the document is ${text.length} chars, more than ${DOCUMENT_CHARS}`,
  );
}

/** The same text with every Markdown marker replaced by a letter. */
function plainTextLike(markdown: string): string {
  return markdown.replace(/[*_`[\]!$~<>|:()#-]/g, 'x');
}

function parseAll(text: string): number {
  let tokens = 0;
  for (const chunk of splitMarkdownChunks(text))
    tokens += parseMarkdownChunk(chunk.text).tokens.length;
  return tokens;
}

export function runMarkdownBench(): BenchResult {
  const adversarial = adversarialMarkdown();
  const plain = plainTextLike(adversarial);
  if (plain.length !== adversarial.length) throw new Error('markdown bench: sizes differ');
  let sink = 0;
  const keep = (value: number): void => {
    sink += value;
  };
  const size = `${Math.round(adversarial.length / 1000)} KB`;
  const metrics = [
    measureAgainstBaseline({
      name: 'markdown-adversarial',
      label: `parse ${size} adversarial Markdown`,
      work: () => parseAll(adversarial),
      baselineLabel: `parse ${size} plain text`,
      baselineWork: () => parseAll(plain),
      keep,
      runs: { warmups: WARMUP_RUNS, measured: MEASURED_RUNS },
      goal: (_value, ratio) => ({
        description: `≤ ${GOAL_RATIO}×`,
        met: ratio <= GOAL_RATIO,
        missLabel: 'ABOVE GOAL',
      }),
    }),
  ];
  if (sink === 0) throw new Error('markdown bench: nothing was parsed');
  return { metrics, notes: [] };
}
