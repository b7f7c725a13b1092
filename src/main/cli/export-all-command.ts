/**
 * `aivory conversations export --all [--format md|json] [--output FILE_OR_DIR]`: every
 * conversation with its files, as a ZIP archive (`aivory-conversations-DATE.zip` in the current
 * folder, or FILE) or, when the output is a folder (existing, or written with a trailing `/`), as
 * a folder tree `aivory-conversations-DATE` inside it. A progress line on a terminal; Ctrl-C
 * stops it and keeps nothing.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatBytes } from '../../shared/byte-size';
import type { AppContext } from '../composition/app-context';
import { dataFileRoots, resolveDataFile } from '../host/files/data-files';
import { openFolderWriter, openZipWriter } from '../services/archive-writers';
import type { ArchiveWriter } from '../services/archive-writers';
import type { ExportFormat } from '../services/conversation-export';
import { writeConversationsArchive } from '../services/conversations-archive';
import { appExportsFolder } from '../services/export-file';
import { EXIT_OK } from './cli-errors';
import type { CliIo } from './cli-io';

export async function exportAllCommand(
  context: AppContext,
  io: CliIo,
  format: ExportFormat,
  output: string | undefined,
): Promise<number> {
  const now = Date.now();
  const name = `aivory-conversations-${new Date(now).toISOString().slice(0, 10)}`;
  const writer = await openWriter(output, name);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  io.onInterrupt(interrupt);
  const exports = appExportsFolder(context.dataDir);
  const roots = dataFileRoots(context.dataDir, io.env).filter((root) => root !== exports);
  let shown = false;
  try {
    const summary = await writeConversationsArchive(
      {
        conversations: context.stores.conversations,
        resolveFile: (path) => resolveDataFile(roots, path),
      },
      writer,
      {
        format,
        now,
        signal: controller.signal,
        onProgress: ({ done, total }) => {
          if (!io.stderrTerminal) return;
          io.stderr(`\rExporting conversations: ${done}/${total}`);
          shown = true;
        },
      },
    );
    if (shown) io.stderr('\n');
    shown = false;
    if (summary.missingFiles > 0)
      io.stderr(
        `${summary.missingFiles} file${summary.missingFiles === 1 ? '' : 's'} the conversations refer to ${summary.missingFiles === 1 ? 'was' : 'were'} not found and ${summary.missingFiles === 1 ? 'is' : 'are'} not included.\n`,
      );
    const files = summary.files === 1 ? '1 file' : `${summary.files} files`;
    const conversations =
      summary.conversations === 1 ? '1 conversation' : `${summary.conversations} conversations`;
    io.stdout(
      `Exported ${conversations} (${files}) to ${summary.path} (${formatBytes(summary.bytes)}).\n`,
    );
    return EXIT_OK;
  } finally {
    if (shown) io.stderr('\n');
    io.offInterrupt(interrupt);
  }
}

/** A folder tree inside `output` when it is a folder, else a ZIP file at `output`. */
async function openWriter(output: string | undefined, name: string): Promise<ArchiveWriter> {
  if (output === undefined) return openZipWriter(resolve(`${name}.zip`));
  if (output.endsWith('/') || (await isFolder(output)))
    return openFolderWriter(resolve(output), name);
  return openZipWriter(resolve(output));
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
