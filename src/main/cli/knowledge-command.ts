/**
 * `aivory knowledge add PATH [--name N] | list | status [NAME] | search QUERY [--folder N] |
 * reindex NAME | remove NAME`: folders of the user's own documents, indexed for full-text search.
 * Indexing runs here, inline, with a progress line on a terminal; Ctrl-C stops it between files
 * (what was recorded stays, and the next `add` or `reindex` resumes from there).
 */
import { parseArgs } from 'node:util';
import { formatBytes } from '../../shared/byte-size';
import { SNIPPET_MARK } from '../../shared/search-snippet';
import type { KnowledgeFileRecord, KnowledgeFolderSummary } from '../core/ports';
import type { AppContext } from '../composition/app-context';
import { createKnowledgeService } from '../composition/knowledge';
import type { ScanProgress, ScanSummary } from '../services/knowledge/knowledge-indexer';
import type { KnowledgeService } from '../services/knowledge/knowledge-service';
import { EXIT_CANCELED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

const USAGE =
  'Usage: aivory knowledge add PATH [--name N] | list | status [NAME] | search QUERY [--folder N] | reindex NAME | remove NAME';
/** Paths shown per skip reason in a summary; the rest are counted (`status` lists them all). */
const PATHS_PER_REASON = 5;
/** A terminal's progress line is redrawn at most this often. */
const PROGRESS_EVERY_MS = 100;

export async function knowledgeCommand(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      folder: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [action = 'list', ...rest] = positionals;
  const knowledge = createKnowledgeService(context);
  const json = values.json;
  const one = (what: string): string => {
    if (rest.length !== 1) throw usageError(`Usage: aivory knowledge ${action} ${what}`);
    return rest[0] as string;
  };
  switch (action) {
    case 'add':
    case 'reindex':
      return scan(knowledge, action, one(action === 'add' ? 'PATH [--name N]' : 'NAME'), {
        name: values.name,
        json,
        io,
      });
    case 'list': {
      const folders = knowledge.list();
      if (json) io.stdout(`${JSON.stringify(folders)}\n`);
      else if (folders.length === 0)
        io.stdout('No knowledge folders. Add one with: aivory knowledge add PATH\n');
      else for (const folder of folders) io.stdout(`${folderLine(folder)}\n`);
      return EXIT_OK;
    }
    case 'status': {
      if (rest.length > 1) throw usageError('Usage: aivory knowledge status [NAME] [--json]');
      const names = rest.length === 1 ? rest : knowledge.list().map((folder) => folder.name);
      const statuses = names.map((name) => knowledge.status(name));
      if (json) io.stdout(`${JSON.stringify(rest.length === 1 ? statuses[0] : statuses)}\n`);
      else if (statuses.length === 0) io.stdout('No knowledge folders.\n');
      else for (const status of statuses) io.stdout(statusText(status.folder, status.files));
      return EXIT_OK;
    }
    case 'search': {
      if (rest.length === 0) throw usageError('Usage: aivory knowledge search QUERY [--folder N]');
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
        throw usageError('--limit takes a whole number above 0 (at most 100 are returned).');
      }
      const hits = knowledge.search(rest.join(' '), { folder: values.folder, limit });
      if (json) {
        io.stdout(
          `${JSON.stringify(hits.map((hit) => ({ ...hit, snippet: plain(hit.snippet) })))}\n`,
        );
      } else if (hits.length === 0) io.stdout('No passage matches.\n');
      else {
        hits.forEach((hit, index) => {
          io.stdout(`${index + 1}. ${hit.citation}\n   ${marked(hit.snippet)}\n`);
        });
      }
      return EXIT_OK;
    }
    case 'remove': {
      const folder = knowledge.remove(one('NAME'));
      io.stdout(
        `Removed the index of "${folder.name}"; the files in ${folder.path} are untouched.\n`,
      );
      return EXIT_OK;
    }
    default:
      throw usageError(`Unknown action "${action}". ${USAGE}`);
  }
}

async function scan(
  knowledge: KnowledgeService,
  action: 'add' | 'reindex',
  target: string,
  options: { name: string | undefined; json: boolean; io: CliIo },
): Promise<number> {
  const { io } = options;
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  io.onInterrupt(interrupt);
  const progress = progressLine(io);
  try {
    const scanOptions = { signal: controller.signal, onProgress: progress.show };
    const done =
      action === 'add'
        ? await knowledge.add(target, options.name, scanOptions)
        : { summary: await knowledge.reindex(target, scanOptions), resumed: false };
    progress.clear();
    if (options.json) io.stdout(`${JSON.stringify(summaryJson(done.summary))}\n`);
    else io.stdout(summaryText(done.summary, done.resumed));
    return EXIT_OK;
  } catch (error) {
    progress.clear();
    if (!controller.signal.aborted) throw error;
    io.stderr(
      'Interrupted: the files indexed so far are kept. Run the same command again to go on.\n',
    );
    return EXIT_CANCELED;
  } finally {
    io.offInterrupt(interrupt);
  }
}

/** "indexing 120/4000 notes/a.md" on a terminal's standard error, redrawn in place. */
function progressLine(io: CliIo): { show: (progress: ScanProgress) => void; clear: () => void } {
  let last = 0;
  let drawn = false;
  return {
    show: (progress) => {
      if (io.stderrTerminal !== true) return;
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      drawn = true;
      const path = progress.relativePath.slice(-60);
      io.stderr(`\r\u001b[2Kindexing ${progress.done + 1}/${progress.total} ${path}`);
    },
    clear: () => {
      if (drawn) io.stderr('\r\u001b[2K');
    },
  };
}

function summaryText(summary: ScanSummary, resumed: boolean): string {
  const skippedCount = [...summary.skipped.values()].reduce((sum, paths) => sum + paths.length, 0);
  const lines = [
    `${resumed ? 'Resumed' : 'Indexed'} "${summary.folder}": ${summary.indexed} indexed, ${skippedCount} skipped, ${summary.failed.length} failed; ${summary.unchanged} unchanged, ${summary.renamed} renamed, ${summary.removed} removed.`,
    `Passages: ${summary.chunks.added} added, ${summary.chunks.kept} kept, ${summary.chunks.removed} removed.`,
  ];
  if (summary.note !== null) lines.push(`Note: ${summary.note}.`);
  if (skippedCount > 0) lines.push('Skipped:');
  for (const [reason, paths] of summary.skipped) {
    const shown = paths.slice(0, PATHS_PER_REASON).join(', ');
    const more =
      paths.length > PATHS_PER_REASON ? `, and ${paths.length - PATHS_PER_REASON} more` : '';
    lines.push(`  ${reason} (${paths.length}): ${shown}${more}`);
  }
  if (summary.failed.length > 0) lines.push('Failed:');
  for (const failure of summary.failed) lines.push(`  ${failure.relativePath}: ${failure.reason}`);
  return `${lines.join('\n')}\n`;
}

function summaryJson(summary: ScanSummary): object {
  return { ...summary, skipped: Object.fromEntries(summary.skipped) };
}

/** `NAME<TAB>PATH<TAB>3 indexed, 1 skipped, 0 failed<TAB>40 passages (1.2 MiB)<TAB>scanned …`. */
function folderLine(folder: KnowledgeFolderSummary): string {
  const { indexed, skipped, failed } = folder.files;
  const scanned =
    folder.scanFinishedAt === null
      ? 'last scan unfinished (aivory knowledge reindex to finish it)'
      : `scanned ${when(folder.scanFinishedAt)}`;
  return [
    folder.name,
    folder.path,
    `${indexed} indexed, ${skipped} skipped, ${failed} failed`,
    `${folder.chunks} passages (${formatBytes(folder.textChars)} of text)`,
    scanned,
  ].join('\t');
}

function statusText(folder: KnowledgeFolderSummary, files: KnowledgeFileRecord[]): string {
  const lines = [folderLine(folder)];
  if (folder.scanNote !== null) lines.push(`  note: ${folder.scanNote}`);
  for (const file of files) {
    const reason = file.reason === null ? '' : `\t${file.reason}`;
    lines.push(`  ${file.status}\t${when(file.indexedAt)}\t${file.relativePath}${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

/** The snippet with its matches in [brackets], on one line. */
function marked(snippet: string): string {
  return snippet
    .replaceAll(SNIPPET_MARK.start, '[')
    .replaceAll(SNIPPET_MARK.end, ']')
    .replace(/\s+/g, ' ');
}

function plain(snippet: string): string {
  return snippet.replaceAll(SNIPPET_MARK.start, '').replaceAll(SNIPPET_MARK.end, '');
}
