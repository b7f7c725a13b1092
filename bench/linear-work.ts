/**
 * Speed goals that used to be wall-clock bounds in unit tests (which must pass on a loaded
 * machine, so they now check only results): the `<think>` splitter over 200,000 small chunks
 * (test/unit/core/think-tag-splitter.test.ts), timed next to a baseline that touches the same
 * input once (collect and join the chunks), in the same run. (The hand-written code highlighter
 * measured here before is gone: code blocks use lowlight, off the first paint; bench/markdown.ts
 * measures the Markdown parser.)
 */
import { ThinkTagSplitter } from '../src/main/core/orchestrator/think-tag-splitter';
import type { BenchResult } from './bench-result';
import { measureAgainstBaseline } from './statistics';

const SPLITTER_CHUNKS = 200_000;
const SPLITTER_CHUNK = 'word </';
/** The bound the unit test had, in ms. */
const SPLITTER_GOAL_MS = 2_000;

const MEASURED_RUNS = 7;
const WARMUP_RUNS = 2;

export function runLinearWorkBench(): BenchResult {
  let sink = 0;
  const keep = (length: number): void => {
    sink += length;
  };
  const chunks = Array.from({ length: SPLITTER_CHUNKS }, () => SPLITTER_CHUNK);
  if (splitAll(chunks) !== SPLITTER_CHUNKS * SPLITTER_CHUNK.length) {
    throw new Error('linear-work bench: the splitter lost reasoning text');
  }
  const metrics = [
    measureAgainstBaseline({
      name: 'think-splitter',
      label: `ThinkTagSplitter ${SPLITTER_CHUNKS} chunks`,
      work: () => splitAll(chunks),
      baselineLabel: 'push+join of the same chunks',
      baselineWork: () => chunks.join('').length,
      keep,
      runs: { warmups: WARMUP_RUNS, measured: MEASURED_RUNS },
      goal: (value) => ({
        description: `≤ ${SPLITTER_GOAL_MS} ms`,
        met: value <= SPLITTER_GOAL_MS,
        missLabel: 'ABOVE GOAL',
      }),
    }),
  ];
  if (sink === 0) throw new Error('linear-work bench: nothing was processed');
  return { metrics, notes: [] };
}

/** Feeds every chunk inside one `<think>` block; returns how much reasoning came out. */
function splitAll(chunks: readonly string[]): number {
  const splitter = new ThinkTagSplitter();
  let reasoning = splitter.push('<think>').reasoning.length;
  for (const chunk of chunks) reasoning += splitter.push(chunk).reasoning.length;
  return reasoning + splitter.finish().reasoning.length;
}
