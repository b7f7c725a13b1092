/**
 * The catch-up scan of one knowledge folder: list it, compare with what the index holds, read
 * only what changed, record each file's outcome in its own transaction. A file with the same size
 * and modification time is not read again; one with the same bytes (hash) under a new time is
 * only touched; a new path with the bytes of a file gone from disk is that file renamed (its
 * passages kept); files gone leave the index. The scan yields the thread between files and
 * between batches of passages, so the process serving a UI stays responsive. Files are recorded
 * a batch per transaction (each file whole: a crash never leaves half of one), so that 10,000
 * small files do not cost 10,000 disk syncs. Killed midway, the next scan resumes: the files
 * already recorded are unchanged and are not read again.
 */
import type {
  ChunkChanges,
  FileOutcome,
  FolderEntry,
  KnowledgeFileRecord,
  KnowledgeFiles,
  KnowledgeFolder,
  KnowledgeStore,
  NewKnowledgeChunk,
  PdfTextExtractor,
} from '../../core/ports';
import { passagesOf, sha256, toChunk } from './chunking';
import { kindOf, tooLarge } from './file-kinds';
import type { KnowledgeKind } from './file-kinds';
import { extractText } from './text-extraction';
import type { Extracted } from './text-extraction';

/** 50,000 files a folder: the scan lists them all before reading any; said when reached. */
export const DEFAULT_MAX_FILES = 50_000;
/** Files recorded per transaction, at most (see `WriteBatch`). */
const BATCH_FILES = 64;
/** Passage text recorded per transaction, about (a file's own passages are never split). */
const BATCH_CHARS = 1024 * 1024;
/** Passages hashed between two yields of the thread. */
const PASSAGE_BATCH = 256;

export interface ScanProgress {
  done: number;
  total: number;
  relativePath: string;
}

export interface ScanSummary {
  folder: string;
  /** Entries the walk found (files and others). */
  listed: number;
  /** Files not read again: same size and time, or the same bytes. */
  unchanged: number;
  /** Files read (and recorded) by this scan. */
  read: number;
  indexed: number;
  /** Skipped files by reason (this scan's; `status` shows every file). */
  skipped: Map<string, string[]>;
  failed: { relativePath: string; reason: string }[];
  renamed: number;
  removed: number;
  chunks: ChunkChanges;
  /** The walk stopped at the file-count limit: the note said in status. */
  note: string | null;
}

export interface IndexerDependencies {
  store: KnowledgeStore;
  files: KnowledgeFiles;
  pdf: PdfTextExtractor;
  maxFiles?: number;
}

export class KnowledgeIndexer {
  private readonly maxFiles: number;

  constructor(private readonly deps: IndexerDependencies) {
    this.maxFiles = deps.maxFiles ?? DEFAULT_MAX_FILES;
  }

  async scan(
    folder: KnowledgeFolder,
    options: { signal?: AbortSignal; onProgress?: (progress: ScanProgress) => void } = {},
  ): Promise<ScanSummary> {
    const { store, files } = this.deps;
    const signal = options.signal ?? new AbortController().signal;
    store.scanStarted(folder.id);
    const listing = await files.list(folder.path, this.maxFiles);
    const known = new Map(store.listFiles(folder.id).map((file) => [file.relativePath, file]));
    const onDisk = new Set(listing.entries.map((entry) => entry.relativePath));
    const gone = [...known.values()].filter((file) => !onDisk.has(file.relativePath));
    const goneByHash = new Map<string, KnowledgeFileRecord[]>();
    for (const file of gone) {
      if (file.contentHash === null) continue;
      goneByHash.set(file.contentHash, [...(goneByHash.get(file.contentHash) ?? []), file]);
    }
    const summary: ScanSummary = {
      folder: folder.name,
      listed: listing.entries.length,
      unchanged: 0,
      read: 0,
      indexed: 0,
      skipped: new Map(),
      failed: [],
      renamed: 0,
      removed: 0,
      chunks: { kept: 0, added: 0, removed: 0 },
      note: listing.truncated
        ? `stopped listing at ${this.maxFiles.toLocaleString('en-US')} files: the rest of the folder is not indexed`
        : null,
    };
    const renamedIds = new Set<number>();
    const batch = new WriteBatch(store);
    try {
      for (const [index, entry] of listing.entries.entries()) {
        signal.throwIfAborted();
        options.onProgress?.({
          done: index,
          total: listing.entries.length,
          relativePath: entry.relativePath,
        });
        await yieldThread();
        const record = known.get(entry.relativePath);
        if (record && record.size === entry.size && record.mtimeMs === entry.mtimeMs) {
          summary.unchanged += 1;
          continue;
        }
        const prepared = await this.prepare(folder, entry);
        let outcome: FileOutcome;
        if ('hash' in prepared) {
          if (record !== undefined && record.contentHash === prepared.hash) {
            batch.add(() => store.touchFile(record.id, prepared.size, prepared.mtimeMs), 0);
            summary.unchanged += 1;
            continue;
          }
          const moved = record === undefined ? goneByHash.get(prepared.hash)?.shift() : undefined;
          if (moved !== undefined) {
            batch.add(
              () => store.renameFile(moved.id, entry.relativePath, prepared.size, prepared.mtimeMs),
              0,
            );
            renamedIds.add(moved.id);
            summary.renamed += 1;
            continue;
          }
          outcome = await this.extract(entry.relativePath, prepared, signal);
        } else outcome = prepared;
        summary.read += 1;
        const chars = outcome.chunks.reduce((sum, chunk) => sum + chunk.text.length, 0);
        batch.add(() => {
          const changes = store.recordFile(folder.id, outcome);
          summary.chunks.kept += changes.kept;
          summary.chunks.added += changes.added;
          summary.chunks.removed += changes.removed;
        }, chars);
        if (outcome.status === 'indexed') summary.indexed += 1;
        else if (outcome.status === 'failed') {
          summary.failed.push({
            relativePath: outcome.relativePath,
            reason: outcome.reason ?? 'failed',
          });
        } else {
          const reason = outcome.reason ?? 'skipped';
          summary.skipped.set(reason, [...(summary.skipped.get(reason) ?? []), entry.relativePath]);
        }
      }
    } finally {
      // Interrupted or not, the files read so far are recorded.
      batch.flush();
    }
    // A truncated listing does not say which files are gone: none is removed then.
    if (!listing.truncated) {
      const removed = gone.filter((file) => !renamedIds.has(file.id)).map((file) => file.id);
      store.removeFiles(removed);
      summary.removed = removed.length;
    }
    store.scanFinished(folder.id, summary.note);
    return summary;
  }

  /** A changed entry's outcome without reading it (skipped, unreadable), or its bytes read. */
  private async prepare(
    folder: KnowledgeFolder,
    entry: FolderEntry,
  ): Promise<FileOutcome | ReadFile> {
    const base = { relativePath: entry.relativePath, size: entry.size, mtimeMs: entry.mtimeMs };
    const unread = (
      status: 'skipped' | 'failed',
      reason: string,
      kind: string | null,
    ): FileOutcome => ({
      ...base,
      contentHash: null,
      kind,
      status,
      reason,
      chunks: [],
    });
    if (entry.type === 'other') return unread('skipped', entry.what, null);
    const verdict = kindOf(entry.relativePath);
    if ('skip' in verdict) return unread('skipped', verdict.skip, verdict.kind);
    if (entry.size > verdict.maxBytes) {
      return unread('skipped', tooLarge(entry.size, verdict.maxBytes), verdict.kind);
    }
    const read = await this.deps.files.read(folder.path, entry.relativePath, verdict.maxBytes);
    if (!read.ok) return unread('failed', read.reason, verdict.kind);
    return {
      kind: verdict.kind,
      bytes: read.bytes,
      hash: sha256(read.bytes),
      size: read.size,
      mtimeMs: read.mtimeMs,
    };
  }

  /** The outcome of a file read: its text cut into passages, or why it has none. */
  private async extract(
    relativePath: string,
    file: ReadFile,
    signal: AbortSignal,
  ): Promise<FileOutcome> {
    const base = {
      relativePath,
      size: file.size,
      mtimeMs: file.mtimeMs,
      contentHash: file.hash,
      kind: file.kind,
    };
    const extracted = await extractText(file.kind, file.bytes, this.deps.pdf, signal);
    if (!extracted.ok) {
      return { ...base, status: extracted.status, reason: extracted.reason, chunks: [] };
    }
    const chunks = await chunksOf(extracted);
    if (chunks.length === 0) {
      return { ...base, status: 'skipped', reason: 'no text in the file', chunks: [] };
    }
    const note = 'pages' in extracted ? extracted.note : null;
    return { ...base, status: 'indexed', reason: note, chunks };
  }
}

/**
 * Files' writes gathered into one transaction (each file whole inside it): one disk sync for up
 * to `BATCH_FILES` files or `BATCH_CHARS` of passage text, which also bounds how long one commit
 * holds the thread.
 */
class WriteBatch {
  private writes: (() => void)[] = [];
  private chars = 0;

  constructor(private readonly store: KnowledgeStore) {}

  add(write: () => void, chars: number): void {
    this.writes.push(write);
    this.chars += chars;
    if (this.writes.length >= BATCH_FILES || this.chars >= BATCH_CHARS) this.flush();
  }

  flush(): void {
    if (this.writes.length === 0) return;
    const writes = this.writes;
    this.writes = [];
    this.chars = 0;
    this.store.transaction(() => {
      for (const write of writes) write();
    });
  }
}

interface ReadFile {
  kind: KnowledgeKind;
  bytes: Uint8Array;
  hash: string;
  size: number;
  mtimeMs: number;
}

/** The passages of extracted text, hashed a batch at a time between yields of the thread. */
async function chunksOf(extracted: Extract<Extracted, { ok: true }>): Promise<NewKnowledgeChunk[]> {
  const located =
    'pages' in extracted
      ? extracted.pages.flatMap((page, index) =>
          passagesOf(page).map((passage) => ({
            text: passage.text,
            location: { page: index + 1 },
          })),
        )
      : passagesOf(extracted.text).map((passage) => ({
          text: passage.text,
          location: { lines: [passage.first, passage.last] as [number, number] },
        }));
  const chunks: NewKnowledgeChunk[] = [];
  for (const [index, passage] of located.entries()) {
    if (index > 0 && index % PASSAGE_BATCH === 0) await yieldThread();
    chunks.push(toChunk(passage.text, passage.location));
  }
  return chunks;
}

/** Lets the event loop run (I/O, timers, a UI's requests) before the next piece of work. */
function yieldThread(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
