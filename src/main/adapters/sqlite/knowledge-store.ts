/**
 * Knowledge folders in SQLite, for `SqliteStore` (migration 018): folders, one record per file
 * found, the passages of indexed files and their external-content FTS5 index (`knowledge_fts`,
 * kept in step by triggers). A file's outcome is written in one transaction, its passages diffed
 * by hash so that unchanged ones keep their rows (and, later, their embeddings).
 */
import { AivoryError } from '../../../shared/errors';
import type {
  ChunkChanges,
  ChunkLocation,
  FileOutcome,
  KnowledgeChunkRecord,
  KnowledgeFileRecord,
  KnowledgeFolder,
  KnowledgeFolderSummary,
  KnowledgeSearchHit,
  KnowledgeStore,
  Clock,
} from '../../core/ports';
import { SNIPPET_MARK, toMatchExpression } from './message-search';
import type { Statements } from './statements';

const DEFAULT_SEARCH_LIMIT = 10;
/** Caps a search so one query cannot pull the whole index into memory. */
const MAX_SEARCH_LIMIT = 100;
/** Words of context around a match in a snippet. */
const SNIPPET_TOKENS = 16;

interface FolderRow {
  id: string;
  name: string;
  path: string;
  added_at: number;
  scan_started_at: number | null;
  scan_finished_at: number | null;
  scan_note: string | null;
}

interface FileRow {
  id: number;
  relative_path: string;
  size: number;
  mtime_ms: number;
  content_hash: string | null;
  kind: string | null;
  status: KnowledgeFileRecord['status'];
  reason: string | null;
  indexed_at: number;
}

interface ChunkRow {
  id: number;
  ordinal: number;
  text: string;
  content_hash: string;
  line_start: number | null;
  line_end: number | null;
  page: number | null;
}

interface HitRow {
  chunk_id: number;
  folder: string;
  relative_path: string;
  line_start: number | null;
  line_end: number | null;
  page: number | null;
  snippet: string;
  score: number;
}

export class SqliteKnowledge implements KnowledgeStore {
  constructor(
    private readonly sql: Statements,
    private readonly clock: Clock,
  ) {}

  addFolder(folder: { id: string; name: string; path: string }): KnowledgeFolder {
    return this.sql.write(() => {
      if (this.getFolder(folder.name) !== null) {
        throw new AivoryError(
          'invalid-input',
          `A knowledge folder named "${folder.name}" exists already. Choose another name with --name.`,
        );
      }
      this.sql.run(
        'INSERT INTO knowledge_folders (id, name, path, added_at) VALUES (?, ?, ?, ?)',
        folder.id,
        folder.name,
        folder.path,
        this.clock.now(),
      );
      return this.getFolder(folder.name) as KnowledgeFolder;
    });
  }

  getFolder(name: string): KnowledgeFolder | null {
    const row = this.sql.get<FolderRow>('SELECT * FROM knowledge_folders WHERE name = ?', name);
    return row === undefined ? null : toFolder(row);
  }

  listFolders(): KnowledgeFolderSummary[] {
    const rows = this.sql.all<
      FolderRow & {
        indexed: number;
        skipped: number;
        failed: number;
      }
    >(
      `SELECT folders.*,
         (SELECT COUNT(*) FROM knowledge_files WHERE folder_id = folders.id AND status = 'indexed') AS indexed,
         (SELECT COUNT(*) FROM knowledge_files WHERE folder_id = folders.id AND status = 'skipped') AS skipped,
         (SELECT COUNT(*) FROM knowledge_files WHERE folder_id = folders.id AND status = 'failed') AS failed
       FROM knowledge_folders AS folders ORDER BY folders.name`,
    );
    return rows.map((row) => {
      const chunks = this.sql.get<{ count: number; chars: number | null }>(
        `SELECT COUNT(*) AS count, SUM(LENGTH(chunks.text)) AS chars
         FROM knowledge_chunks AS chunks JOIN knowledge_files AS files ON files.id = chunks.file_id
         WHERE files.folder_id = ?`,
        row.id,
      );
      return {
        ...toFolder(row),
        files: { indexed: row.indexed, skipped: row.skipped, failed: row.failed },
        chunks: chunks?.count ?? 0,
        textChars: chunks?.chars ?? 0,
      };
    });
  }

  removeFolder(name: string): boolean {
    // The cascade deletes files and passages; the delete trigger takes each out of the index.
    return this.sql.write(
      () => this.sql.run('DELETE FROM knowledge_folders WHERE name = ?', name).changes > 0,
    );
  }

  scanStarted(folderId: string): void {
    this.sql.run(
      'UPDATE knowledge_folders SET scan_started_at = ?, scan_finished_at = NULL WHERE id = ?',
      this.clock.now(),
      folderId,
    );
  }

  scanFinished(folderId: string, note: string | null): void {
    this.sql.run(
      'UPDATE knowledge_folders SET scan_finished_at = ?, scan_note = ? WHERE id = ?',
      this.clock.now(),
      note,
      folderId,
    );
  }

  listFiles(folderId: string): KnowledgeFileRecord[] {
    return this.sql
      .all<FileRow>(
        `SELECT id, relative_path, size, mtime_ms, content_hash, kind, status, reason, indexed_at
         FROM knowledge_files WHERE folder_id = ? ORDER BY relative_path`,
        folderId,
      )
      .map(toFile);
  }

  recordFile(folderId: string, outcome: FileOutcome): ChunkChanges {
    return this.sql.write(() => {
      this.sql.run(
        `INSERT INTO knowledge_files (folder_id, relative_path, size, mtime_ms, content_hash, kind,
           status, reason, indexed_at)
         VALUES (@folderId, @relativePath, @size, @mtimeMs, @contentHash, @kind, @status, @reason,
           @indexedAt)
         ON CONFLICT (folder_id, relative_path) DO UPDATE SET size = excluded.size,
           mtime_ms = excluded.mtime_ms, content_hash = excluded.content_hash,
           kind = excluded.kind, status = excluded.status, reason = excluded.reason,
           indexed_at = excluded.indexed_at`,
        {
          folderId,
          relativePath: outcome.relativePath,
          size: outcome.size,
          mtimeMs: outcome.mtimeMs,
          contentHash: outcome.contentHash,
          kind: outcome.kind,
          status: outcome.status,
          reason: outcome.reason,
          indexedAt: this.clock.now(),
        },
      );
      const file = this.sql.get<{ id: number }>(
        'SELECT id FROM knowledge_files WHERE folder_id = ? AND relative_path = ?',
        folderId,
        outcome.relativePath,
      ) as { id: number };
      return this.replaceChunks(file.id, outcome.status === 'indexed' ? outcome.chunks : []);
    });
  }

  /**
   * Makes the file's passages `chunks`, in order: a stored passage with the same hash is kept
   * (its ordinal and location updated, its text and index entry untouched), the rest inserted;
   * stored passages left over are deleted.
   */
  private replaceChunks(fileId: number, chunks: FileOutcome['chunks']): ChunkChanges {
    const stored = new Map<string, number[]>();
    for (const row of this.sql.all<{ id: number; content_hash: string }>(
      'SELECT id, content_hash FROM knowledge_chunks WHERE file_id = ? ORDER BY ordinal',
      fileId,
    )) {
      const ids = stored.get(row.content_hash) ?? [];
      ids.push(row.id);
      stored.set(row.content_hash, ids);
    }
    const changes: ChunkChanges = { kept: 0, added: 0, removed: 0 };
    chunks.forEach((chunk, ordinal) => {
      const place = locationColumns(chunk.location);
      const keptId = stored.get(chunk.contentHash)?.shift();
      if (keptId !== undefined) {
        this.sql.run(
          `UPDATE knowledge_chunks SET ordinal = ?, line_start = ?, line_end = ?, page = ?
           WHERE id = ?`,
          ordinal,
          place.lineStart,
          place.lineEnd,
          place.page,
          keptId,
        );
        changes.kept += 1;
        return;
      }
      this.sql.run(
        `INSERT INTO knowledge_chunks (file_id, ordinal, text, content_hash, line_start, line_end,
           page) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        fileId,
        ordinal,
        chunk.text,
        chunk.contentHash,
        place.lineStart,
        place.lineEnd,
        place.page,
      );
      changes.added += 1;
    });
    for (const ids of stored.values()) {
      for (const id of ids) {
        this.sql.run('DELETE FROM knowledge_chunks WHERE id = ?', id);
        changes.removed += 1;
      }
    }
    return changes;
  }

  transaction(body: () => void): void {
    this.sql.write(body);
  }

  touchFile(fileId: number, size: number, mtimeMs: number): void {
    this.sql.run(
      'UPDATE knowledge_files SET size = ?, mtime_ms = ? WHERE id = ?',
      size,
      mtimeMs,
      fileId,
    );
  }

  renameFile(fileId: number, relativePath: string, size: number, mtimeMs: number): void {
    this.sql.run(
      'UPDATE knowledge_files SET relative_path = ?, size = ?, mtime_ms = ? WHERE id = ?',
      relativePath,
      size,
      mtimeMs,
      fileId,
    );
  }

  removeFiles(fileIds: readonly number[]): void {
    if (fileIds.length === 0) return;
    this.sql.write(() => {
      for (const id of fileIds) this.sql.run('DELETE FROM knowledge_files WHERE id = ?', id);
    });
  }

  fileChunks(fileId: number): KnowledgeChunkRecord[] {
    return this.sql
      .all<ChunkRow>(
        `SELECT id, ordinal, text, content_hash, line_start, line_end, page
         FROM knowledge_chunks WHERE file_id = ? ORDER BY ordinal`,
        fileId,
      )
      .map((row) => ({
        id: row.id,
        ordinal: row.ordinal,
        text: row.text,
        contentHash: row.content_hash,
        location: toLocation(row),
      }));
  }

  search(query: string, options: { folder?: string; limit?: number } = {}): KnowledgeSearchHit[] {
    const expression = toMatchExpression(query);
    if (expression === null) return [];
    const limit = Math.min(
      Math.max(Math.trunc(options.limit ?? DEFAULT_SEARCH_LIMIT) || 1, 1),
      MAX_SEARCH_LIMIT,
    );
    const { start, end, ellipsis } = SNIPPET_MARK;
    const rows = this.sql.all<HitRow>(
      `SELECT chunks.id AS chunk_id, folders.name AS folder, files.relative_path,
         chunks.line_start, chunks.line_end, chunks.page,
         snippet(knowledge_fts, 0, '${start}', '${end}', '${ellipsis}', ${SNIPPET_TOKENS}) AS snippet,
         bm25(knowledge_fts) AS score
       FROM knowledge_fts
         JOIN knowledge_chunks AS chunks ON chunks.id = knowledge_fts.rowid
         JOIN knowledge_files AS files ON files.id = chunks.file_id
         JOIN knowledge_folders AS folders ON folders.id = files.folder_id
       WHERE knowledge_fts MATCH @expression AND (@folder IS NULL OR folders.name = @folder)
       ORDER BY rank LIMIT @limit`,
      { expression, folder: options.folder ?? null, limit },
    );
    return rows.map((row) => {
      const location = toLocation(row);
      return {
        chunkId: row.chunk_id,
        folder: row.folder,
        relativePath: row.relative_path,
        location,
        citation: citationOf(row.folder, row.relative_path, location),
        snippet: row.snippet,
        score: row.score,
      };
    });
  }
}

/** `<folder>:<relative path>#L10-L42` (lines) or `#page=3` (PDF). */
export function citationOf(folder: string, relativePath: string, location: ChunkLocation): string {
  const anchor =
    'page' in location ? `page=${location.page}` : `L${location.lines[0]}-L${location.lines[1]}`;
  return `${folder}:${relativePath}#${anchor}`;
}

function toFolder(row: FolderRow): KnowledgeFolder {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    addedAt: row.added_at,
    scanStartedAt: row.scan_started_at,
    scanFinishedAt: row.scan_finished_at,
    scanNote: row.scan_note,
  };
}

function toFile(row: FileRow): KnowledgeFileRecord {
  return {
    id: row.id,
    relativePath: row.relative_path,
    size: row.size,
    mtimeMs: row.mtime_ms,
    contentHash: row.content_hash,
    kind: row.kind,
    status: row.status,
    reason: row.reason,
    indexedAt: row.indexed_at,
  };
}

function toLocation(row: {
  line_start: number | null;
  line_end: number | null;
  page: number | null;
}): ChunkLocation {
  if (row.page !== null) return { page: row.page };
  return { lines: [row.line_start ?? 1, row.line_end ?? row.line_start ?? 1] };
}

function locationColumns(location: ChunkLocation): {
  lineStart: number | null;
  lineEnd: number | null;
  page: number | null;
} {
  if ('page' in location) return { lineStart: null, lineEnd: null, page: location.page };
  return { lineStart: location.lines[0], lineEnd: location.lines[1], page: null };
}
