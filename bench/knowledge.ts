/**
 * Knowledge folders (issue 38, "Speed"): index 10,000 generated text files (~100 MB) with
 * full-text search only, through the real service, walk, SQLite file and FTS5 index. Baseline in
 * the same run: a plain read loop over the same files (a `cat`). Noted: the process's peak
 * resident memory while indexing, and the longest the event loop was held (the indexer yields
 * between files and passage batches; issue 38: "never blocked > 50 ms").
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createFolderFiles } from '../src/main/adapters/knowledge/folder-files';
import { createPdfTextExtractor } from '../src/main/adapters/fetch/pdf-text-extractor';
import { openStore } from '../src/main/adapters/sqlite/sqlite-store';
import { KnowledgeService } from '../src/main/services/knowledge/knowledge-service';
import type { BenchMetric, BenchResult } from './bench-result';
import { timeAsync } from './statistics';

const FILES = 10_000;
const FOLDERS = 100;
const FILE_BYTES = 10_000;
/** Indexing (walk, hash, cut, write, FTS) against only reading: a bound, not a target. */
const TIME_GOAL_RATIO = 40;
const BLOCK_GOAL_MS = 50;

export async function runKnowledgeBench(): Promise<BenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'aivory-bench-knowledge-'));
  try {
    const docs = join(home, 'docs');
    const bytes = seed(docs);
    let readBytes = 0;
    const readTime = await timeAsync(async () => {
      readBytes = await readAll(docs);
    });
    if (readBytes !== bytes) throw new Error(`the read loop read ${readBytes} of ${bytes} bytes`);
    const store = openStore(join(home, 'aivory.db'));
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    const delay = monitorEventLoopDelay({ resolution: 5 });
    try {
      const knowledge = new KnowledgeService({
        store: store.knowledge,
        files: createFolderFiles(),
        pdf: createPdfTextExtractor(),
        ids: { next: (prefix) => `${prefix}bench` },
      });
      let indexed = 0;
      delay.enable();
      const indexTime = await timeAsync(async () => {
        indexed = (await knowledge.add(docs, 'bench')).summary.indexed;
      });
      delay.disable();
      if (indexed !== FILES) throw new Error(`indexed ${indexed} files, not ${FILES}`);
      const [folder] = knowledge.list();
      const blockMs = delay.max / 1e6;
      const megabytes = bytes / 1e6;
      const metrics: BenchMetric[] = [
        {
          name: 'knowledge-index',
          statistic: 'one run',
          measured: {
            label: `index ${FILES} files (${megabytes.toFixed(0)} MB), FTS only`,
            value: indexTime,
            unit: 'ms',
          },
          baseline: { label: 'plain read loop over the same files', value: readTime, unit: 'ms' },
          ratio: indexTime / readTime,
          goal: {
            description: `≤ ${TIME_GOAL_RATIO}`,
            met: indexTime / readTime <= TIME_GOAL_RATIO,
            missLabel: 'ABOVE GOAL',
          },
        },
        {
          name: 'knowledge-index-block',
          statistic: 'longest',
          measured: {
            label: 'longest event-loop delay while indexing',
            value: blockMs,
            unit: 'ms',
          },
          baseline: { label: 'the goal', value: BLOCK_GOAL_MS, unit: 'ms' },
          ratio: blockMs / BLOCK_GOAL_MS,
          goal: {
            description: `≤ ${BLOCK_GOAL_MS} ms`,
            met: blockMs <= BLOCK_GOAL_MS,
            missLabel: 'ABOVE GOAL',
          },
        },
      ];
      const notes = [
        `throughput: indexing ${(megabytes / (indexTime / 1000)).toFixed(1)} MB/s, plain reads ${(megabytes / (readTime / 1000)).toFixed(0)} MB/s`,
        `peak resident memory while indexing: ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
        `index: ${folder?.chunks ?? 0} passages; database and WAL ${databaseMiB(home)} MiB for ${megabytes.toFixed(0)} MB of text`,
      ];
      return { metrics, notes };
    } finally {
      clearInterval(sampler);
      store.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Writes the generated files (prose-like lines of words from a varied vocabulary). */
function seed(docs: string): number {
  const words = Array.from({ length: 5000 }, (_, index) => wordOf(index));
  let state = 42;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  let total = 0;
  for (let folder = 0; folder < FOLDERS; folder += 1)
    mkdirSync(join(docs, `f${folder}`), { recursive: true });
  for (let index = 0; index < FILES; index += 1) {
    let text = '';
    while (text.length < FILE_BYTES) {
      let line = '';
      while (line.length < 72) line += `${words[next() % words.length]} `;
      text += `${line.trimEnd()}\n${next() % 6 === 0 ? '\n' : ''}`;
    }
    text = text.slice(0, FILE_BYTES);
    writeFileSync(join(docs, `f${index % FOLDERS}`, `note-${index}.md`), text);
    total += Buffer.byteLength(text);
  }
  return total;
}

function wordOf(index: number): string {
  const letters = 'etaoinshrdlucmfwypvbgkqjxz';
  let word = '';
  let value = index + 27;
  while (value > 0) {
    word += letters[value % 26];
    value = Math.floor(value / 26);
  }
  return word;
}

/** The baseline: every file read once, as `cat` would. */
async function readAll(docs: string): Promise<number> {
  let total = 0;
  for (const folder of await readdir(docs)) {
    for (const name of await readdir(join(docs, folder))) {
      total += (await readFile(join(docs, folder, name))).length;
    }
  }
  return total;
}

/** The database file and its WAL, in MiB (the WAL holds pages not yet checkpointed). */
function databaseMiB(home: string): string {
  const size = (name: string): number => {
    try {
      return statSync(join(home, name)).size;
    } catch {
      return 0;
    }
  };
  return ((size('aivory.db') + size('aivory.db-wal')) / 2 ** 20).toFixed(0);
}
