/**
 * Reads a data file's bytes for a viewer from the host's `/files` (the browser host, token in the
 * URL) or `app://aivory/files` (the desktop; the renderer CSP allows connections to that path
 * only). Never more than `limit` bytes: the body is read in chunks and the read stops past the
 * cap, whatever size the message said the file had. A file that changed on disk is not trusted.
 */
import { useEffect, useState } from 'react';
import { readBoundedBody } from '../../../shared/bounded-body';
import type { AivoryBridge } from '../../bridge/bridge';

/** A read that went past the cap. */
export class FileTooLargeError extends Error {
  constructor() {
    super('file larger than the viewer takes');
    this.name = 'FileTooLargeError';
  }
}

/**
 * The body of the data file at `path`, unread (a worker may read it: the stream can be
 * transferred); FileTooLargeError at once when the size the host declares is past `limit`. The
 * reader must still stop past `limit` (`readBoundedBody`).
 */
export async function openDataFile(
  bridge: AivoryBridge,
  path: string,
  limit: number,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(bridge.fileUrl(path, false), { signal, cache: 'no-store' });
  if (!response.ok || response.body === null) {
    throw new Error(response.status === 404 ? 'the file is gone' : `HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body.cancel();
    throw new FileTooLargeError();
  }
  return response.body;
}

/** The bytes of the data file at `path`, at most `limit` of them (else FileTooLargeError). */
export async function readDataFile(
  bridge: AivoryBridge,
  path: string,
  limit: number,
  signal: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>> {
  const body = await openDataFile(bridge, path, limit, signal);
  return readBoundedBody(body, limit, () => new FileTooLargeError(), signal);
}

/** What a text read gives a viewer. */
export type TextRead =
  | { state: 'loading' }
  | { state: 'ready'; text: string }
  | { state: 'too-large' }
  | { state: 'failed'; reason: string };

/** Reads the file at `path` as UTF-8 text (at most `limit` bytes), again when the path changes. */
export function useFileText(bridge: AivoryBridge | null, path: string, limit: number): TextRead {
  const [read, setRead] = useState<{ path: string; read: TextRead }>({
    path,
    read: { state: 'loading' },
  });
  useEffect(() => {
    if (bridge === null) return undefined;
    const abort = new AbortController();
    readDataFile(bridge, path, limit, abort.signal).then(
      (bytes) => setRead({ path, read: { state: 'ready', text: new TextDecoder().decode(bytes) } }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setRead({
          path,
          read:
            error instanceof FileTooLargeError
              ? { state: 'too-large' }
              : { state: 'failed', reason: error instanceof Error ? error.message : String(error) },
        });
      },
    );
    return () => abort.abort();
  }, [bridge, path, limit]);
  return read.path === path ? read.read : { state: 'loading' };
}
