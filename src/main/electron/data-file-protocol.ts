/**
 * `app://aivory/files?path=…` in the desktop app: the same files and headers as `aivory serve`'s
 * `/files` route (artifacts/ and uploads/ of the data directory only, real paths checked; raster
 * images inline, everything else as an attachment), without a token — only the app's own window
 * can reach its scheme. No Electron import: the protocol handler in index.ts calls it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { dataFileHeaders, resolveDataFile } from '../host/files/data-files';
import { isAppUrl } from './security';

/** The pathname of data-file requests on the app scheme. */
export const APP_FILES_PATH = '/files';

/** True for `app://aivory/files?…`. */
export function isAppFilesUrl(url: string): boolean {
  return isAppUrl(url) && new URL(url).pathname === APP_FILES_PATH;
}

/** The response to an `app://aivory/files?path=…` request (404 when the path is refused). */
export async function appFilesResponse(url: string, roots: readonly string[]): Promise<Response> {
  const parameters = new URL(url).searchParams;
  const file = await resolveDataFile(roots, parameters.get('path') ?? '');
  if (file === null) return new Response('Not found', { status: 404 });
  const { size } = await stat(file);
  const { headers } = await dataFileHeaders(file, size, parameters.get('download') === '1');
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}
