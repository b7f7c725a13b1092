/**
 * A PDF's compressed streams measured before pdf.js opens it (pure: unit-tested; run in
 * `pdf-scan-worker.ts`). pdf.js bounds images (`maxImageSize`) and the canvas, not what a stream
 * inflates to: a page whose content stream is a Flate bomb (a few hundred KB that inflate to
 * gigabytes) is decoded whole, into a buffer that doubles as it grows, in a worker that shares the
 * page's process. So every `stream … endstream` whose dictionary names FlateDecode is inflated
 * here, counted and dropped: past PDF_LIMITS the file is too large to show. The stream's end is
 * found by its `endstream`, not its declared /Length (which may lie or be indirect).
 */
import { ReaderLimitError, WorkBudget } from './reader-limits';
import { inflatedSize } from './zip-directory';

export interface PdfLimits {
  /** What one stream may inflate to. */
  maxStreamBytes: number;
  /** What all streams together may inflate to (the scan's own work, too). */
  maxTotalBytes: number;
}

export const PDF_LIMITS: PdfLimits = {
  // An RGB image of pdf.js's largest (`maxImageSize`, 64 M pixels) is 192 MiB.
  maxStreamBytes: 200 * 1024 * 1024,
  // Ten such images; at fflate's few hundred MB/s, seconds of scanning at most.
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
};

const encoder = new TextEncoder();
const STREAM = encoder.encode('stream');
const END_STREAM = encoder.encode('endstream');
const FLATE = 'FlateDecode';
/** The stream's filter is Flate, alone or first of its chain. */
const FLATE_FIRST = /\/Filter\s*(?:\[\s*)?\/FlateDecode\b/;
/** How far back from `stream` its dictionary is looked for. */
const DICTIONARY_WINDOW = 2048;

/** The index of `needle` in `bytes` from `from`, or -1. */
function indexOf(bytes: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  for (let at = bytes.indexOf(first ?? 0, from); at >= 0; at = bytes.indexOf(first ?? 0, at + 1)) {
    let match = true;
    for (let index = 1; index < needle.length; index++) {
      if (bytes[at + index] !== needle[index]) {
        match = false;
        break;
      }
    }
    if (match) return at;
  }
  return -1;
}

/** Throws ReaderLimitError when a Flate stream of the PDF inflates past PDF_LIMITS. */
export function checkPdfStreams(bytes: Uint8Array, limits: PdfLimits = PDF_LIMITS): void {
  const total = new WorkBudget('unzipped', limits.maxTotalBytes);
  const latin = new TextDecoder('latin1');
  for (let at = indexOf(bytes, STREAM, 0); at >= 0; at = indexOf(bytes, STREAM, at + 1)) {
    // `endstream` contains `stream`: skip it.
    if (at >= 3 && latin.decode(bytes.subarray(at - 3, at)) === 'end') continue;
    let start = at + STREAM.length;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a && bytes[start - 1] !== 0x0d) continue;
    if (bytes[start] === 0x0a) start++;
    const preceding = latin.decode(bytes.subarray(Math.max(0, at - DICTIONARY_WINDOW), at));
    const dictionary = preceding.slice(Math.max(0, preceding.lastIndexOf('obj')));
    if (!dictionary.includes(FLATE)) continue;
    // Flate behind another filter (`[/ASCII85Decode /FlateDecode]`) cannot be measured here
    // without decoding that one too; counted as nothing, a bomb wrapped in text would pass.
    if (!FLATE_FIRST.test(dictionary)) {
      throw new ReaderLimitError('unzipped', 'a stream wraps Flate data in another filter');
    }
    const end = indexOf(bytes, END_STREAM, start);
    const data = bytes.subarray(start, end < 0 ? bytes.length : end);
    // zlib's two-byte header, then raw deflate.
    const size = inflatedSize(data.subarray(2), limits.maxStreamBytes);
    if (size > limits.maxStreamBytes) {
      throw new ReaderLimitError('unzipped', `a stream inflates past ${limits.maxStreamBytes}`);
    }
    total.spend(size);
    if (end >= 0) at = end + END_STREAM.length - 1;
  }
}
