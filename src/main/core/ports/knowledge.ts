/**
 * Knowledge folders (issue 38): the user's own documents, indexed where they lie. `KnowledgeStore`
 * keeps the folders, one record per file found (indexed, skipped or failed, with the reason) and
 * the passages (chunks) of the indexed ones with their full-text index; `KnowledgeFiles` is the
 * file system as the indexer sees it (a bounded walk that never follows a link, bounded reads).
 */

export type KnowledgeFileStatus = 'indexed' | 'skipped' | 'failed';

export interface KnowledgeFolder {
  id: string;
  name: string;
  /** Absolute path of the folder on this machine. */
  path: string;
  addedAt: number;
  /** When the last catch-up scan started and finished (null: never, or it did not finish). */
  scanStartedAt: number | null;
  scanFinishedAt: number | null;
  /** What the last scan left out as a whole (e.g. the file-count limit), or null. */
  scanNote: string | null;
}

export interface KnowledgeFolderSummary extends KnowledgeFolder {
  files: Record<KnowledgeFileStatus, number>;
  chunks: number;
  /** Characters of passage text held for the folder. */
  textChars: number;
}

export interface KnowledgeFileRecord {
  id: number;
  relativePath: string;
  size: number;
  mtimeMs: number;
  /** SHA-256 (hex) of the file's bytes; null when they were not read. */
  contentHash: string | null;
  /** What the file was read as (`markdown`, `pdf`, …); null when it was not. */
  kind: string | null;
  status: KnowledgeFileStatus;
  reason: string | null;
  indexedAt: number;
}

/** Where a passage is: a line range (from 1, inclusive) or a page (from 1). */
export type ChunkLocation = { lines: [number, number] } | { page: number };

export interface NewKnowledgeChunk {
  text: string;
  /** SHA-256 (hex) of `text`: what a re-read compares, and what embeddings will be keyed by. */
  contentHash: string;
  location: ChunkLocation;
}

export interface KnowledgeChunkRecord extends NewKnowledgeChunk {
  id: number;
  ordinal: number;
}

/** What one file's outcome did to its passages. */
export interface ChunkChanges {
  /** Passages whose text was already stored (same hash): their rows and ids kept. */
  kept: number;
  added: number;
  removed: number;
}

export interface FileOutcome {
  relativePath: string;
  size: number;
  mtimeMs: number;
  contentHash: string | null;
  kind: string | null;
  status: KnowledgeFileStatus;
  reason: string | null;
  /** The file's passages in order (indexed files); any other status drops its passages. */
  chunks: readonly NewKnowledgeChunk[];
}

export interface KnowledgeSearchHit {
  chunkId: number;
  folder: string;
  relativePath: string;
  location: ChunkLocation;
  /** `<folder>:<relative path>#L10-L42` or `…#page=3`: stable while the passage is unchanged. */
  citation: string;
  /** A cut of the passage with matches between `SNIPPET_MARK.start` and `.end`. */
  snippet: string;
  /** bm25, lower is better (FTS5's rank). */
  score: number;
}

export interface KnowledgeStore {
  /** Throws `conflict` when the name is taken. */
  addFolder(folder: { id: string; name: string; path: string }): KnowledgeFolder;
  getFolder(name: string): KnowledgeFolder | null;
  listFolders(): KnowledgeFolderSummary[];
  /** Drops the folder's index (files, passages); never touches the folder on disk. */
  removeFolder(name: string): boolean;
  scanStarted(folderId: string): void;
  scanFinished(folderId: string, note: string | null): void;
  listFiles(folderId: string): KnowledgeFileRecord[];
  /**
   * Records one file's outcome in one transaction: its record, and its passages diffed against
   * the stored ones by hash (unchanged ones keep their rows). A crash leaves the file as it was.
   */
  recordFile(folderId: string, outcome: FileOutcome): ChunkChanges;
  /**
   * Runs `body` (calls of this store) in one transaction: a scan records many small files per
   * commit (each still whole or absent after a crash) instead of paying a disk sync for each.
   */
  transaction(body: () => void): void;
  /** The file's bytes are the same (same hash): only its size and time change. */
  touchFile(fileId: number, size: number, mtimeMs: number): void;
  /** A file moved within the folder with the same bytes: its passages are kept. */
  renameFile(fileId: number, relativePath: string, size: number, mtimeMs: number): void;
  /** Files gone from disk leave the index, with their passages. */
  removeFiles(fileIds: readonly number[]): void;
  fileChunks(fileId: number): KnowledgeChunkRecord[];
  /** FTS5 search, best first, at most `limit` (bounded by the store) hits. */
  search(query: string, options?: { folder?: string; limit?: number }): KnowledgeSearchHit[];
}

/** A file or other entry found in a folder, by a walk that follows no link. */
export type FolderEntry =
  | { type: 'file'; relativePath: string; size: number; mtimeMs: number }
  | { type: 'other'; relativePath: string; size: number; mtimeMs: number; what: string };

export interface FolderListing {
  entries: FolderEntry[];
  /** True when the walk stopped at its entry limit (the rest of the folder is not listed). */
  truncated: boolean;
}

export type FileBytes =
  { ok: true; bytes: Uint8Array; size: number; mtimeMs: number } | { ok: false; reason: string };

/** The folder on disk, as the indexer reads it. */
export interface KnowledgeFiles {
  /** Whether `path` is a folder that can be listed; else why not. */
  checkFolder(path: string): Promise<string | null>;
  /**
   * Lists the folder's files, never following a symbolic link, leaving out hidden entries
   * (names starting with ".") and `node_modules`, at most `maxEntries`.
   */
  list(root: string, maxEntries: number): Promise<FolderListing>;
  /** Reads one file (relative to `root`), refusing it when it has grown past `maxBytes`. */
  read(root: string, relativePath: string, maxBytes: number): Promise<FileBytes>;
}
