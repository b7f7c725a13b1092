/**
 * A zip's central directory and its entries inflated under a cap (pure: unit-tested). The office
 * readers never hand a zip to a library unread: the directory's declared sizes are checked first,
 * and since a directory can lie, every entry is inflated by fflate's streaming `Inflate`, counted
 * as it comes out and stopped past its cap (or past the size it declared), so a bomb costs at most
 * the cap, never the size the deflate stream expands to.
 */
import { Inflate } from 'fflate';
import { ReaderLimitError } from './reader-limits';

/** A zip that is not one, or is damaged. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

/** One entry as the central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (others are refused when read). */
  method: number;
  compressedSize: number;
  /** The inflated size the directory declares (not trusted: inflating stops past it). */
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;
/** Most entries read from a directory (an Office file has tens to a few thousand). */
export const MAX_ZIP_ENTRIES = 20_000;
/** Inflated bytes handed on at once (fflate's own chunk is 64 KiB; this bounds a stored read). */
const PIECE = 1024 * 1024;

/** The zip's entries, from its central directory (names as UTF-8). */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  // The end record is in the last 22 + 65,535 (comment) bytes.
  for (let offset = bytes.length - 22; offset >= Math.max(0, bytes.length - 65_557); offset--) {
    if (view.getUint32(offset, true) === EOCD) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new ZipFormatError('not a zip (no central directory)');
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count > MAX_ZIP_ENTRIES) throw new ReaderLimitError('entries', `${count} zip entries`);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL) {
      throw new ZipFormatError('a damaged zip directory');
    }
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const entry: ZipEntry = {
      name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      size: view.getUint32(offset + 24, true),
      localOffset: view.getUint32(offset + 42, true),
    };
    readZip64(view, offset + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes and offset the zip64 extra field holds for fields marked 0xFFFFFFFF. */
function readZip64(view: DataView, start: number, length: number, entry: ZipEntry): void {
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      const next = (): number => {
        const value = Number(view.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (entry.size === ZIP64_MARK) entry.size = next();
      if (entry.compressedSize === ZIP64_MARK) entry.compressedSize = next();
      if (entry.localOffset === ZIP64_MARK) entry.localOffset = next();
      return;
    }
    at += 4 + size;
  }
}

/** Compressed bytes pushed at once: at most ~1,000× this comes out of one push (deflate's limit). */
const COMPRESSED_PIECE = 16 * 1024;

/**
 * The entry's bytes, inflated, in pieces as they come out (never the whole entry at once);
 * ReaderLimitError('unzipped') before inflating when the directory declares more than `cap`,
 * ZipFormatError as soon as more comes out than it declared (a lying directory: so never more
 * than `cap` either).
 */
export function* inflatePieces(
  bytes: Uint8Array,
  entry: ZipEntry,
  cap: number,
): Generator<Uint8Array> {
  if (entry.size > cap) throw new ReaderLimitError('unzipped', `${entry.name} unzips past ${cap}`);
  const data = entryData(bytes, entry);
  if (entry.method === 0) {
    if (data.length !== entry.size) throw new ZipFormatError(`${entry.name} has a wrong size`);
    for (let offset = 0; offset < data.length; offset += PIECE) {
      yield data.subarray(offset, offset + PIECE);
    }
    return;
  }
  if (entry.method !== 8) throw new ZipFormatError(`${entry.name}: unsupported compression`);
  let out: Uint8Array[] = [];
  let written = 0;
  const inflater = new Inflate((chunk) => {
    written += chunk.length;
    if (written > entry.size) {
      throw new ZipFormatError(`${entry.name} unzips past the size its directory declares`);
    }
    out.push(chunk);
  });
  for (let offset = 0; offset < data.length || offset === 0; offset += COMPRESSED_PIECE) {
    const end = Math.min(data.length, offset + COMPRESSED_PIECE);
    try {
      inflater.push(data.subarray(offset, end), end === data.length);
    } catch (error) {
      if (error instanceof ZipFormatError) throw error;
      throw new ZipFormatError(`${entry.name} is damaged (${String(error)})`);
    }
    const ready = out;
    out = [];
    yield* ready;
    if (end === data.length) break;
  }
}

/** The entry's bytes, inflated whole (at most its declared size, at most `cap`). */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, cap: number): Uint8Array {
  if (entry.size > cap) throw new ReaderLimitError('unzipped', `${entry.name} unzips past ${cap}`);
  const result = new Uint8Array(entry.size);
  let written = 0;
  for (const piece of inflatePieces(bytes, entry, cap)) {
    result.set(piece, written);
    written += piece.length;
  }
  return written === result.length ? result : result.subarray(0, written);
}

/** The entry's compressed bytes (after its local header). */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL) {
    throw new ZipFormatError(`a damaged zip entry (${entry.name})`);
  }
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length < entry.compressedSize) throw new ZipFormatError(`${entry.name} is cut short`);
  return data;
}

/** Stops a count past its cap (internal to `inflatedSize`). */
class CountPastCap extends Error {}

/**
 * How many bytes raw deflate `data` inflates to, counted without keeping them: at most `cap + 1`
 * (counting stops there); what inflates before a damaged part is counted, the rest is not.
 */
export function inflatedSize(data: Uint8Array, cap: number): number {
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > cap) throw new CountPastCap();
  });
  try {
    for (let offset = 0; offset < data.length; offset += COMPRESSED_PIECE) {
      const end = Math.min(data.length, offset + COMPRESSED_PIECE);
      inflater.push(data.subarray(offset, end), end === data.length);
    }
  } catch {
    // Past the cap, or damaged: the count so far is the answer.
  }
  return Math.min(size, cap + 1);
}
