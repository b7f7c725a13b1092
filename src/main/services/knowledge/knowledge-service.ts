/**
 * Knowledge folders as the CLI (and later the app) uses them: add a folder and index it, list
 * them, a folder's per-file status, search, a catch-up scan, remove. Removing drops the index
 * only; the user's files are never written or deleted.
 */
import { basename, resolve } from 'node:path';
import { AivoryError } from '../../../shared/errors';
import type {
  IdGenerator,
  KnowledgeFileRecord,
  KnowledgeFiles,
  KnowledgeFolder,
  KnowledgeFolderSummary,
  KnowledgeSearchHit,
  KnowledgeStore,
  PdfTextExtractor,
} from '../../core/ports';
import { KnowledgeIndexer } from './knowledge-indexer';
import type { ScanProgress, ScanSummary } from './knowledge-indexer';

/** A name is how citations and commands refer to a folder: no ":" or "/", one line, bounded. */
const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

export interface ScanOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ScanProgress) => void;
}

export class KnowledgeService {
  private readonly indexer: KnowledgeIndexer;

  constructor(
    private readonly deps: {
      store: KnowledgeStore;
      files: KnowledgeFiles;
      pdf: PdfTextExtractor;
      ids: IdGenerator;
      maxFiles?: number;
    },
  ) {
    this.indexer = new KnowledgeIndexer(deps);
  }

  /**
   * Adds the folder at `path` (named after it unless `name` is given) and indexes it. The same
   * folder added again under its name resumes its index (an earlier `add` was interrupted).
   */
  async add(
    path: string,
    name: string | undefined,
    options: ScanOptions = {},
  ): Promise<{ folder: KnowledgeFolder; resumed: boolean; summary: ScanSummary }> {
    const absolute = resolve(path);
    const problem = await this.deps.files.checkFolder(absolute);
    if (problem !== null) throw new AivoryError('invalid-input', problem);
    const folderName = (name ?? basename(absolute)).trim();
    if (!NAME_PATTERN.test(folderName)) {
      throw new AivoryError(
        'invalid-input',
        `"${folderName}" cannot name a knowledge folder: use up to 64 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit (--name N).`,
      );
    }
    const existing = this.deps.store.getFolder(folderName);
    if (existing !== null && existing.path !== absolute) {
      throw new AivoryError(
        'invalid-input',
        `A knowledge folder named "${folderName}" exists already (${existing.path}). Choose another name with --name.`,
      );
    }
    const folder =
      existing ??
      this.deps.store.addFolder({ id: this.deps.ids.next('kf'), name: folderName, path: absolute });
    const summary = await this.indexer.scan(folder, options);
    return { folder, resumed: existing !== null, summary };
  }

  list(): KnowledgeFolderSummary[] {
    return this.deps.store.listFolders();
  }

  status(name: string): { folder: KnowledgeFolderSummary; files: KnowledgeFileRecord[] } {
    const folder = this.list().find((summary) => summary.name === name);
    if (folder === undefined) throw unknownFolder(name);
    return { folder, files: this.deps.store.listFiles(folder.id) };
  }

  search(query: string, options: { folder?: string; limit?: number } = {}): KnowledgeSearchHit[] {
    if (options.folder !== undefined && this.deps.store.getFolder(options.folder) === null) {
      throw unknownFolder(options.folder);
    }
    return this.deps.store.search(query, options);
  }

  /** A catch-up scan: what changed on disk since the last one is read again. */
  async reindex(name: string, options: ScanOptions = {}): Promise<ScanSummary> {
    const folder = this.deps.store.getFolder(name);
    if (folder === null) throw unknownFolder(name);
    const problem = await this.deps.files.checkFolder(folder.path);
    if (problem !== null) {
      throw new AivoryError(
        'invalid-input',
        `${problem} The index of "${name}" is kept as it was; remove it with: aivory knowledge remove ${name}`,
      );
    }
    return this.indexer.scan(folder, options);
  }

  /** Drops the folder's index; the folder on disk is left alone. */
  remove(name: string): KnowledgeFolder {
    const folder = this.deps.store.getFolder(name);
    if (folder === null || !this.deps.store.removeFolder(name)) throw unknownFolder(name);
    return folder;
  }
}

function unknownFolder(name: string): AivoryError {
  return new AivoryError(
    'not-found',
    `No knowledge folder is named "${name}". List them with: aivory knowledge list`,
  );
}
