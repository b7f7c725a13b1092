/**
 * What the XLSX and PPTX readers share (pure, unit-tested through them): a zip whose entries are
 * inflated one at a time by fflate, each refused past a cap by the size its directory declares
 * before anything is inflated; htmlparser2's streaming parser in XML mode (no DOM: it runs in a
 * worker) fed text in 1 MB pieces; Office relationship parts. fflate and htmlparser2 are small,
 * well-kept and dependency-free.
 */
import { unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';

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
 * The zip's entries, one inflated at a time, each past its cap refused. The size the directory
 * declares is also the most that is inflated: fflate inflates into a buffer of that size, so a
 * directory that lies about a bomb yields a cut entry (then an XML error), never more memory.
 */
export class ZipReader {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly maxEntryBytes: number,
  ) {}

  /** The inflated entry at `path`, or null when there is none; past `cap` bytes refused. */
  entry(path: string, cap = this.maxEntryBytes): Uint8Array | null {
    let tooLarge = false;
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(this.bytes, {
        filter: (file) => {
          if (file.name !== path) return false;
          if (file.originalSize > cap) tooLarge = true;
          return !tooLarge;
        },
      });
    } catch (error) {
      throw new OfficeFileError(
        `not a readable zip (${error instanceof Error ? error.message : ''})`,
      );
    }
    if (tooLarge) throw new OfficeFileError(`${path} is larger than the viewer reads`);
    return files[path] ?? null;
  }
}
