/**
 * `exports.all` / `exports.cancel`: every conversation as a ZIP in the data directory's exports/
 * folder (removed after an hour, like a one-conversation export), which the renderer downloads
 * through the data-file route. One at a time per host; progress on `exports.progress`.
 */
import { join } from 'node:path';
import { rm } from 'node:fs/promises';
import { AivoryError } from '../../../shared/errors';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { openZipWriter } from '../../services/archive-writers';
import { writeConversationsArchive } from '../../services/conversations-archive';
import { appExportsFolder, newAppExportFolder } from '../../services/export-file';
import type { ApiHandlers } from '../dispatcher';
import { dataFileRoots, resolveDataFile } from '../files/data-files';
import type { HostContext } from '../host-context';

type ExportAllHandlers = Pick<ApiHandlers, 'exports.all' | 'exports.cancel'>;

/** The export handlers over the host context. */
export function createExportAllHandlers(context: HostContext): ExportAllHandlers {
  const { app } = context;
  let running: AbortController | null = null;
  const exportAll = async (
    format: 'md' | 'json',
    signal: AbortSignal,
  ): Promise<InvokeResponse<'exports.all'>> => {
    const now = Date.now();
    const own = await newAppExportFolder(app.dataDir, now);
    const fileName = `aivory-conversations-${new Date(now).toISOString().slice(0, 10)}-${format}.zip`;
    const exports = appExportsFolder(app.dataDir);
    const roots = dataFileRoots(app.dataDir, context.env).filter((root) => root !== exports);
    try {
      const summary = await writeConversationsArchive(
        {
          conversations: app.stores.conversations,
          resolveFile: (path) => resolveDataFile(roots, path),
        },
        await openZipWriter(join(own, fileName)),
        {
          format,
          now,
          signal,
          onProgress: (progress) => context.events.publish('exports.progress', progress),
        },
      );
      return {
        fileName,
        mime: 'application/zip',
        path: summary.path,
        bytes: summary.bytes,
        conversations: summary.conversations,
        files: summary.files,
        missingFiles: summary.missingFiles,
      };
    } catch (error) {
      await rm(own, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
  };
  return {
    'exports.all': async ({ format }) => {
      if (running)
        throw new AivoryError(
          'busy',
          'All conversations are being exported already; wait for that export to finish.',
        );
      const controller = new AbortController();
      running = controller;
      try {
        return await exportAll(format, controller.signal);
      } finally {
        running = null;
      }
    },
    'exports.cancel': () => {
      running?.abort();
      return { ok: true };
    },
  };
}
