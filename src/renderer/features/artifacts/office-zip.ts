/**
 * What the XLSX, PPTX and DOCX readers share (pure, unit-tested through them): a zip whose entries
 * are inflated one at a time by fflate, each refused past a cap by the size its directory declares
 * before anything is inflated and stopped while inflating past it; htmlparser2's streaming parser in XML mode (no DOM: it runs in a
 * worker) fed text in 1 MB pieces; Office relationship parts. fflate and htmlparser2 are small,
 * well-kept and dependency-free.
 */
import { Parser } from 'htmlparser2';
import { ReaderLimitError, WorkBudget } from './reader-limits';
import type { ZipEntry } from './zip-directory';
import { inflateEntry, inflatePieces, readZipDirectory, ZipFormatError } from './zip-directory';

/** A file a reader refuses (not the format, damaged, or a part past its cap). */
export class OfficeFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfficeFileError';
  }
}

export const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/** Runs the streaming parser over text given in pieces. */
export function parseXml(
  pieces: Iterable<string>,
  handlers: {
    open?: (name: string, attributes: Record<string, string>) => void;
    text?: (text: string) => void;
    close?: (name: string) => void;
  },
): void {
  const parser = new Parser(
    {
      onopentag: (name, attributes) => handlers.open?.(localName(name), attributes),
      ontext: (text) => handlers.text?.(text),
      onclosetag: (name) => handlers.close?.(localName(name)),
    },
    { xmlMode: true, decodeEntities: true },
  );
  for (const piece of pieces) parser.write(piece);
  parser.end();
}

/** The text of bytes in pieces of 1 MB (the parser never sees one huge string). */
export function* decodedPieces(bytes: Uint8Array): Generator<string> {
  const decoder = new TextDecoder();
  const piece = 1024 * 1024;
  for (let offset = 0; offset < bytes.length; offset += piece) {
    yield decoder.decode(bytes.subarray(offset, offset + piece), { stream: true });
  }
  yield decoder.decode();
}

/** A path inside the zip for a relationship target relative to `base`'s folder. */
export function resolvePart(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}

/** A relationships part: id → { type, target } (targets resolved against `owner`). */
export function relationships(
  zip: ZipReader,
  owner: string,
): Map<string, { type: string; target: string }> {
  const folder = owner.split('/').slice(0, -1).join('/');
  const name = owner.split('/').pop() ?? '';
  const path = `${folder === '' ? '' : `${folder}/`}_rels/${name}.rels`;
  const map = new Map<string, { type: string; target: string }>();
  const bytes = zip.entry(path);
  if (bytes === null) return map;
  parseXml(decodedPieces(bytes), {
    open: (tag, attributes) => {
      if (tag !== 'Relationship' || attributes.Id === undefined) return;
      if (attributes.TargetMode === 'External') return;
      map.set(attributes.Id, {
        type: attributes.Type ?? '',
        target: resolvePart(owner, attributes.Target ?? ''),
      });
    },
  });
  return map;
}

/**
 * The zip's entries, one inflated at a time (`zip-directory.ts`): each refused past its cap by the
 * size the directory declares before anything is inflated, and stopped while inflating past it (a
 * directory may lie); everything inflated through one reader counts against `maxTotalBytes`.
 */
export class ZipReader {
  private readonly entries: Map<string, ZipEntry>;
  private readonly total: WorkBudget;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly maxEntryBytes: number,
    maxTotalBytes = Number.MAX_SAFE_INTEGER,
  ) {
    try {
      this.entries = new Map(readZipDirectory(bytes).map((entry) => [entry.name, entry]));
    } catch (error) {
      throw asOfficeError(error);
    }
    this.total = new WorkBudget('unzipped', maxTotalBytes);
  }

  /** The entries' names and declared sizes, before anything is inflated. */
  list(): readonly ZipEntry[] {
    return [...this.entries.values()];
  }

  /** The size the directory declares for `path` (null when there is no such entry). */
  declaredSize(path: string): number | null {
    return this.entries.get(path)?.size ?? null;
  }

  /**
   * The text of the entry at `path` in pieces as it is inflated (the whole entry is never held),
   * or null when there is none; past `cap` bytes refused.
   */
  text(path: string, cap = this.maxEntryBytes): Iterable<string> | null {
    const entry = this.entries.get(path);
    if (entry === undefined) return null;
    const total = this.total;
    const bytes = this.bytes;
    return (function* () {
      try {
        if (entry.size > cap) {
          throw new ReaderLimitError('unzipped', `${path} unzips to ${entry.size} bytes`);
        }
        total.spend(entry.size);
        const decoder = new TextDecoder();
        for (const piece of inflatePieces(bytes, entry, cap)) {
          yield decoder.decode(piece, { stream: true });
        }
        yield decoder.decode();
      } catch (error) {
        throw asOfficeError(error);
      }
    })();
  }

  /** The inflated entry at `path`, or null when there is none; past `cap` bytes refused. */
  entry(path: string, cap = this.maxEntryBytes): Uint8Array | null {
    const entry = this.entries.get(path);
    if (entry === undefined) return null;
    try {
      if (entry.size > cap) {
        throw new ReaderLimitError('unzipped', `${path} unzips to ${entry.size} bytes`);
      }
      // Counted before inflating, by the declared size (which inflating never passes).
      this.total.spend(entry.size);
      return inflateEntry(this.bytes, entry, cap);
    } catch (error) {
      throw asOfficeError(error);
    }
  }
}

/** A damaged zip as the readers report it; a limit passes through as it is. */
function asOfficeError(error: unknown): Error {
  if (error instanceof ReaderLimitError || error instanceof OfficeFileError) return error;
  return new OfficeFileError(
    error instanceof ZipFormatError
      ? error.message
      : `not a readable zip (${error instanceof Error ? error.message : String(error)})`,
  );
}
