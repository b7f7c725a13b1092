/**
 * A conversation's export written to a file as it is made (issue 21, item 7: a 20,000-message
 * export was one ~14 MB string sent to the UI in one message). On a real small disk: a full disk
 * gives the full-disk message and leaves no half export behind; an existing file is replaced only
 * once the new one is whole; the app's exports older than an hour are removed by the next one.
 */
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportConversation, exportPieces } from '../../src/main/services/conversation-export';
import {
  APP_EXPORT_LIFETIME_MS,
  appExportsFolder,
  writeAppExport,
  writeExportFile,
} from '../../src/main/services/export-file';
import type { Conversation, Message } from '../../src/shared/dto';
import { StorageError } from '../../src/shared/errors';
import { mountSmallDisk } from '../support/storage-faults';
import type { SmallDisk } from '../support/storage-faults';

const conversation = { id: 'c1', title: 'Long', createdAt: 0 } as unknown as Conversation;

/** `count` messages of `chars` characters each, a question and an answer in turn. */
function longMessages(count: number, chars: number): Message[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `m${index}`,
    conversationId: 'c1',
    parentId: index === 0 ? null : `m${index - 1}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    status: 'complete',
    createdAt: index,
    updatedAt: index,
    parts: [{ kind: 'text', text: `${index} ${'x'.repeat(chars)}` }],
  })) as Message[];
}

let disk: SmallDisk | null = null;
afterEach(() => {
  disk?.remove();
  disk = null;
});

describe('export to a file', () => {
  it('writes what the one-go export writes, in both formats', async () => {
    disk = mountSmallDisk(8 * 1024 * 1024);
    const messages = longMessages(1203, 100);
    // A last answer of white space only: the Markdown's trailing white space is dropped as a whole.
    messages.push({ ...messages[0]!, id: 'blank', role: 'assistant', parts: [] });
    for (const format of ['md', 'json'] as const) {
      const path = join(disk.dir, `out.${format}`);
      const bytes = await writeExportFile(path, exportPieces(conversation, messages, format));
      const text = readFileSync(path, 'utf8');
      expect(text).toBe(exportConversation(conversation, messages, format));
      expect(bytes).toBe(Buffer.byteLength(text));
    }
  });

  it('on a full disk: the full-disk message, no half file, the old file kept', async () => {
    disk = mountSmallDisk(1024 * 1024);
    const path = join(disk.dir, 'out.md');
    writeFileSync(path, 'the previous export\n');
    // 2 MiB of export on a 1 MiB disk.
    const pieces = exportPieces(conversation, longMessages(2000, 1000), 'md');
    const failure = await writeExportFile(path, pieces).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageError);
    expect((failure as StorageError).message).toBe(
      `The disk holding ${disk.dir} is full. Free some space on it, then try again.`,
    );
    expect(readdirSync(disk.dir)).toEqual(['out.md']);
    expect(readFileSync(path, 'utf8')).toBe('the previous export\n');
  });

  it("the app's export: its own folder, removed when it fails, old ones cleared", async () => {
    disk = mountSmallDisk(1024 * 1024);
    const folder = appExportsFolder(disk.dir);
    const old = join(folder, 'old');
    const recent = join(folder, 'recent');
    mkdirSync(old, { recursive: true });
    mkdirSync(recent);
    writeFileSync(join(old, 'a.md'), 'old');
    writeFileSync(join(recent, 'b.md'), 'recent');
    const now = Date.now();
    const hourAgo = (now - APP_EXPORT_LIFETIME_MS - 1000) / 1000;
    utimesSync(old, hourAgo, hourAgo);

    const small = exportPieces(conversation, longMessages(4, 10), 'md');
    const written = await writeAppExport(disk.dir, 'Long.md', small, now);
    expect(written.path.startsWith(`${folder}/`)).toBe(true);
    expect(written.path.endsWith('/Long.md')).toBe(true);
    expect(readdirSync(folder).sort()).toEqual(['recent', written.path.split('/').at(-2)!].sort());

    const big = exportPieces(conversation, longMessages(2000, 1000), 'md');
    await expect(writeAppExport(disk.dir, 'Long.md', big, now)).rejects.toThrow(
      `The disk holding ${folder}/`,
    );
    // The failed export's folder is gone; the earlier ones stay.
    expect(readdirSync(folder)).toHaveLength(2);
  });
});
