/**
 * Reads a data file's bytes for a viewer from the host's `/files` (the browser host, token in the
 * URL) or `app://aivory/files` (the desktop; the renderer CSP allows connections to that path
 * only). Never more than `limit` bytes: the body is read in chunks and the read stops past the
 * cap, whatever size the message said the file had. A file that changed on disk is not trusted.
 */
import { useEffect, useRef, useState } from 'react';
import { readBoundedBody } from '../../../shared/bounded-body';
import type { AivoryBridge } from '../../bridge/bridge';
import { clearOpening } from './opening-marker';
import type { ReaderLimit } from './reader-limits';

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

/** Where a viewer's read stands before it is ready. */
export type ReadPending =
  | { state: 'loading' }
  /** Past the file's cap (no `limit`) or past a reader's work bound (`reader-limits.ts`). */
  | { state: 'too-large'; limit?: ReaderLimit }
  | { state: 'failed'; reason: string };

/** A failed file read as a viewer shows it: too large, or failed with the reason. */
export function readFailure(error: unknown): Exclude<ReadPending, { state: 'loading' }> {
  return error instanceof FileTooLargeError
    ? { state: 'too-large' }
    : { state: 'failed', reason: error instanceof Error ? error.message : String(error) };
}

/** What a viewer's reader is given: the bridge, the read's abort signal and how to report. */
export interface ViewerReadContext<R> {
  bridge: AivoryBridge;
  path: string;
  signal: AbortSignal;
  /** Reports the read's outcome (ignored once the read is aborted). */
  done(next: R): void;
  /** Reports a failed file read (`readFailure`). */
  fail(error: unknown): void;
}

/**
 * A viewer's read of the file at `path`: `start` begins it and returns what ends it (a worker
 * terminated, URLs revoked); it is aborted and ended when the path (or `key`) changes or the
 * viewer goes. Loading until `done`; a result of an earlier path is never shown for this one.
 */
export function useViewerRead<R extends { state: string }>(
  bridge: AivoryBridge | null,
  path: string,
  start: (context: ViewerReadContext<R | ReadPending>) => () => void,
  key = '',
): R | ReadPending {
  const [read, setRead] = useState<{ path: string; key: string; read: R | ReadPending }>({
    path,
    key,
    read: { state: 'loading' },
  });
  // The latest `start` (a new closure each render); the read restarts only with path and key.
  const starter = useRef(start);
  starter.current = start;
  useEffect(() => {
    if (bridge === null) return undefined;
    const abort = new AbortController();
    const done = (next: R | ReadPending): void => {
      if (abort.signal.aborted) return;
      // Read (or refused) without the page going down: not a file to warn about after a crash.
      clearOpening(path);
      setRead({ path, key, read: next });
    };
    const end = starter.current({
      bridge,
      path,
      signal: abort.signal,
      done,
      fail: (error) => done(readFailure(error)),
    });
    return () => {
      abort.abort();
      end();
      // Left before its read ended (another file, an image, closed): a later crash is not its.
      clearOpening(path);
    };
  }, [bridge, path, key]);
  return read.path === path && read.key === key ? read.read : { state: 'loading' };
}

/** What a text read gives a viewer. */
export type TextRead = ReadPending | { state: 'ready'; text: string };

/** Reads the file at `path` as UTF-8 text (at most `limit` bytes), again when the path changes. */
export function useFileText(bridge: AivoryBridge | null, path: string, limit: number): TextRead {
  return useViewerRead<TextRead>(
    bridge,
    path,
    ({ signal, done, fail, bridge: ready }) => {
      readDataFile(ready, path, limit, signal).then(
        (bytes) => done({ state: 'ready', text: new TextDecoder().decode(bytes) }),
        fail,
      );
      return () => undefined;
    },
    String(limit),
  );
}
