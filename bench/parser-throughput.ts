/**
 * Throughput of the prompt-mode stream parser: 10 MB of model output fed in the small chunks a
 * provider streams, mostly prose with `<` characters and partial `<tool` prefixes that force the
 * parser to hold text back, ending in one tool call whose body is a few hundred KB. The baseline
 * is the same chunks collected by a loop that does nothing else, measured in the same run.
 */
import {
  PROMPT_MARKERS,
  ToolCallStreamParser,
} from '../src/main/core/orchestrator/tool-call-stream-parser';
import type { RawTextCall } from '../src/main/core/orchestrator/tool-call-stream-parser';
import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from '../src/main/core/orchestrator/protocol-text';
import type { BenchResult } from './bench-result';
import { median, randomInteger, seededRandom, timeSync } from './statistics';

/** Characters in the whole stream (all ASCII, so bytes too); 1 MB here is 1,000,000 bytes. */
const STREAM_CHARS = 10_000_000;
const CHARS_PER_MB = 1_000_000;

/** Characters in the final call's body: a large write_file-style argument. */
const CALL_BODY_CHARS = 400_000;

/** Chunk sizes a provider's SSE deltas typically have once decoded. */
const MIN_CHUNK_CHARS = 16;
const MAX_CHUNK_CHARS = 64;

/** Chance that the next word of prose is markup-like rather than a plain word. */
const MARKUP_WORD_CHANCE = 0.04;

/** Measured passes per side; each pass is ~10 MB, so a handful gives a stable median. */
const MEASURED_RUNS = 9;

/** Unmeasured passes per side first, so both loops are optimised before timing starts. */
const WARMUP_RUNS = 3;

/** The absolute floor the issue sets for the parser, in MB/s. */
export const PARSER_THROUGHPUT_GOAL_MB_PER_SECOND = 50;

const PLAIN_WORDS = (
  'the model streams its answer in small pieces while reading results from earlier tools ' +
  'and a table of numbers with notes'
).split(' ');

/** Words that look like the start of markup; none of them is a complete `<tool_call>`. */
const MARKUP_WORDS = [
  'a < b',
  'x<y',
  '<',
  '<b>bold</b>',
  '<tool',
  '<tool_',
  '<tool_c',
  '<tool_cal',
  '<tool_calls>',
  '</tool_result>',
  '<tool_result name="x">',
  '<t',
  '<to',
];

interface ParserInput {
  chunks: string[];
  /** What the parser must show: everything before the call. */
  expectedVisible: string;
  expectedBody: string;
}

/**
 * Builds the input once, checks that the parser splits it correctly, then times both loops
 * alternately and reports median throughput. The goal is absolute (≥ 50 MB/s, from the issue);
 * the baseline ratio is reported alongside so a slow machine can be told from a slow parser.
 */
export function runParserThroughputBench(): BenchResult {
  const input = buildParserInput();
  assertParsesCorrectly(input);

  let sink = 0;
  const keep = (length: number): void => {
    sink += length;
  };
  for (let warmup = 0; warmup < WARMUP_RUNS; warmup += 1) {
    keep(parseAll(input.chunks).visible.length);
    keep(passThrough(input.chunks).length);
  }
  const parserTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let run = 0; run < MEASURED_RUNS; run += 1) {
    const parserFirst = run % 2 === 0;
    if (!parserFirst) baselineTimes.push(timeSync(() => passThrough(input.chunks).length, keep));
    parserTimes.push(timeSync(() => parseAll(input.chunks).visible.length, keep));
    if (parserFirst) baselineTimes.push(timeSync(() => passThrough(input.chunks).length, keep));
  }
  if (sink === 0) throw new Error('parser bench: nothing was processed');

  const parserRate = megabytesPerSecond(median(parserTimes));
  const baselineRate = megabytesPerSecond(median(baselineTimes));
  return {
    metrics: [
      {
        name: 'parser',
        measured: {
          label: `ToolCallStreamParser ${STREAM_CHARS / CHARS_PER_MB} MB`,
          value: parserRate,
          unit: 'MB/s',
        },
        baseline: { label: 'pass-through push+join', value: baselineRate, unit: 'MB/s' },
        ratio: parserRate / baselineRate,
        goal: {
          description: `≥ ${PARSER_THROUGHPUT_GOAL_MB_PER_SECOND} MB/s`,
          met: parserRate >= PARSER_THROUGHPUT_GOAL_MB_PER_SECOND,
          missLabel: 'BELOW GOAL',
        },
      },
    ],
    notes: [],
  };
}

/** Feeds every chunk and collects the visible text the way a consumer of the parser would. */
function parseAll(chunks: readonly string[]): { visible: string; call: RawTextCall | null } {
  const parser = new ToolCallStreamParser(PROMPT_MARKERS);
  const parts: string[] = [];
  for (const chunk of chunks) {
    const visible = parser.push(chunk);
    if (visible !== '') parts.push(visible);
  }
  const end = parser.finish();
  if (end.text !== '') parts.push(end.text);
  return { visible: parts.join(''), call: end.call };
}

/**
 * The baseline: collect the chunks and join them once. A list and one join rather than `+=`,
 * because V8 turns `+=` into a lazy rope and would time almost nothing.
 */
function passThrough(chunks: readonly string[]): string {
  const parts: string[] = [];
  for (const chunk of chunks) parts.push(chunk);
  return parts.join('');
}

/** Throws unless the parser shows exactly the prose and returns exactly the call body. */
function assertParsesCorrectly(input: ParserInput): void {
  const result = parseAll(input.chunks);
  if (result.visible !== input.expectedVisible) {
    throw new Error('parser bench: the visible text differs from the prose that was fed');
  }
  if (result.call?.body !== input.expectedBody || !result.call.closed) {
    throw new Error('parser bench: the tool call was not recovered intact');
  }
}

/** The deterministic 10 MB stream, already cut into chunks of 16–64 characters. */
function buildParserInput(): ParserInput {
  const random = seededRandom(0x5eed);
  const bodyContent = 'x'.repeat(CALL_BODY_CHARS - 100);
  const body = JSON.stringify({
    name: 'write_file',
    arguments: { path: 'out.md', content: bodyContent },
  });
  const trailing = '\nI will wait for the result.';
  const callText = `${TOOL_CALL_OPEN}${body}${TOOL_CALL_CLOSE}${trailing}`;

  const proseParts: string[] = [];
  let proseLength = 0;
  const proseTarget = STREAM_CHARS - callText.length;
  while (proseLength < proseTarget) {
    const words = random() < MARKUP_WORD_CHANCE ? MARKUP_WORDS : PLAIN_WORDS;
    const word = `${words[randomInteger(random, 0, words.length - 1)] ?? ''} `;
    proseParts.push(word);
    proseLength += word.length;
  }
  // Trim the prose to the exact target, and end it on a space so the call marker is not merged
  // with a markup word into something that is not a call.
  const prose = `${proseParts.join('').slice(0, proseTarget - 1)} `;
  const stream = prose + callText;

  const chunks: string[] = [];
  for (let start = 0; start < stream.length;) {
    const size = randomInteger(random, MIN_CHUNK_CHARS, MAX_CHUNK_CHARS);
    // A JSON round trip gives each chunk its own flat string, as decoding an SSE event does;
    // a plain slice would be a view into the 10 MB string, which real chunks never are.
    chunks.push(JSON.parse(JSON.stringify(stream.slice(start, start + size))) as string);
    start += size;
  }
  return { chunks, expectedVisible: prose, expectedBody: body };
}

function megabytesPerSecond(milliseconds: number): number {
  return STREAM_CHARS / CHARS_PER_MB / (milliseconds / 1000);
}
