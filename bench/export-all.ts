/**
 * The export of every conversation (issue 42, item 6) over a real `aivory serve`: 2,000
 * conversations of 6 messages each (one in 20 with a 64 KiB attachment) exported as a Markdown
 * ZIP through `exports.all`, while a static file is requested over and over (the longest wait is
 * how long serve's thread was held). Baselines in the same run: plain reads of the same rows and
 * files in this process (the conversations, each one's shown path, each attachment: no
 * formatting, no compression, no writing), and the longest static request while serve is idle.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/main/adapters/sqlite/sqlite-store';
import { connectTestSocket } from '../test/support/host/ws-test-client';
import type { BenchMetric, BenchResult } from './bench-result';
import { median, timeAsync } from './statistics';
import { serveAt } from './ui/serve-at';
import { startStaticProber } from './ui/static-prober';

const CONVERSATIONS = 2_000;
const MESSAGES = 6;
const ATTACHMENT_EVERY = 20;
const ATTACHMENT_BYTES = 64 * 1024;
const RUNS = 3;
/** Serve may hold its thread this long at most (issue 42: "never blocked > 50 ms"). */
const BLOCK_GOAL_MS = 50;
/** Formatting, compressing and writing against only reading: a bound, not a target. */
const TIME_GOAL_RATIO = 10;

export async function runExportAllBench(): Promise<BenchResult> {
  const home = mkdtempSync(join(tmpdir(), 'aivory-bench-export-'));
  try {
    const attachments = seed(home);
    const serve = await serveAt(home, {});
    try {
      const url = new URL(serve.url);
      const socket = await connectTestSocket(
        `ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`,
        { origin: `http://${url.host}` },
      );
      const staticUrl = new URL('/index.html', serve.url).href;
      const exportTimes: number[] = [];
      const exportBlocks: number[] = [];
      const idleBlocks: number[] = [];
      let exported = 0;
      try {
        for (let run = 0; run < RUNS; run += 1) {
          const prober = startStaticProber(staticUrl);
          exportTimes.push(
            await timeAsync(async () => {
              const frame = await socket.request('exports.all', { format: 'md' });
              const value = (frame.result as { ok: boolean; value?: { conversations: number } })
                .value;
              if (value === undefined)
                throw new Error(`exports.all failed: ${JSON.stringify(frame.result)}`);
              exported = value.conversations;
            }),
          );
          exportBlocks.push((await prober.stop()).longestMs);
          const idle = startStaticProber(staticUrl);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          idleBlocks.push((await idle.stop()).longestMs);
        }
      } finally {
        socket.close();
      }
      if (exported !== CONVERSATIONS)
        throw new Error(`exports.all wrote ${exported} conversations, not ${CONVERSATIONS}`);
      const readTimes: number[] = [];
      const store = openStore(join(home, 'aivory.db'));
      try {
        for (let run = 0; run < RUNS; run += 1)
          readTimes.push(await timeAsync(() => plainReads(store, attachments)));
      } finally {
        store.close();
      }
      const time = median(exportTimes);
      const read = median(readTimes);
      const block = Math.max(...exportBlocks);
      const idle = Math.max(...idleBlocks);
      const metrics: BenchMetric[] = [
        {
          name: 'export-all',
          measured: {
            label: `exports.all, ${CONVERSATIONS} conversations (md ZIP)`,
            value: time,
            unit: 'ms',
          },
          baseline: { label: 'plain reads of the same rows and files', value: read, unit: 'ms' },
          ratio: time / read,
          goal: {
            description: `≤ ${TIME_GOAL_RATIO}`,
            met: time / read <= TIME_GOAL_RATIO,
            missLabel: 'ABOVE GOAL',
          },
        },
        {
          name: 'export-all-block',
          statistic: `longest of ${RUNS}`,
          measured: { label: 'longest static request during the export', value: block, unit: 'ms' },
          baseline: { label: 'longest static request, serve idle', value: idle, unit: 'ms' },
          ratio: idle === 0 ? Number.NaN : block / idle,
          goal: {
            description: `≤ ${BLOCK_GOAL_MS} ms`,
            met: block <= BLOCK_GOAL_MS,
            missLabel: 'ABOVE GOAL',
          },
        },
      ];
      return { metrics, notes: [] };
    } finally {
      await serve.stop();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Seeds `<home>`: the conversations and their attachments; returns the attachments' paths. */
function seed(home: string): string[] {
  const store = openStore(join(home, 'aivory.db'));
  const attachments: string[] = [];
  const text =
    'The model reads the table and compares each value with the previous quarter. '.repeat(6);
  try {
    for (let index = 0; index < CONVERSATIONS; index += 1) {
      const id = `bench_${index}`;
      store.conversations.createConversation({
        id,
        title: `Quarter ${index % 500}`,
        modelId: null,
      });
      for (let message = 0; message < MESSAGES; message += 1) {
        const parts: Parameters<typeof store.conversations.createMessage>[0]['parts'] = [
          { kind: 'text', text: `${message}: ${text}` },
        ];
        if (message === 0 && index % ATTACHMENT_EVERY === 0) {
          const folder = join(home, 'uploads', id);
          mkdirSync(folder, { recursive: true });
          const path = join(folder, 'table.csv');
          writeFileSync(
            path,
            randomBytes(ATTACHMENT_BYTES).toString('hex').slice(0, ATTACHMENT_BYTES),
          );
          attachments.push(path);
          parts.push({
            kind: 'attachment',
            attachment: { name: 'table.csv', path, mime: 'text/csv', size: ATTACHMENT_BYTES },
          });
        }
        store.conversations.createMessage({
          id: `${id}_m${message}`,
          conversationId: id,
          role: message % 2 === 0 ? 'user' : 'assistant',
          status: 'complete',
          parts,
        });
      }
    }
  } finally {
    store.close();
  }
  return attachments;
}

/** Reads what the export reads, and nothing more. */
async function plainReads(
  store: ReturnType<typeof openStore>,
  attachments: readonly string[],
): Promise<void> {
  let messages = 0;
  for (const conversation of store.conversations.listConversations())
    messages += store.conversations.listMessages(conversation.id).length;
  for (const path of attachments) await readFile(path);
  if (messages !== CONVERSATIONS * MESSAGES) throw new Error(`read ${messages} messages`);
}
