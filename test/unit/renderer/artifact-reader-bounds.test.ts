/**
 * The viewers' readers are bounded by the work they do, not only by the file's size (issue 37:
 * a 0.9 MB workbook of cells naming 300-character shared strings took Chromium to 5 GB, a 176 KB
 * document to a crash): the zip's directory is read before anything is inflated and every entry is
 * counted while it is inflated; the XLSX reader counts cells and the text they expand to (shared
 * strings included), the CSV reader cells and text, the DOCX check elements and unzipped bytes
 * before mammoth, the PPTX reader the bytes it unzips. Past a bound: ReaderLimitError, which the
 * viewer shows as "too large to show here".
 */
import { strToU8, zipSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readCsv, CSV_LIMITS } from '../../../src/renderer/features/artifacts/csv-read';
import { prepareDocx, DOCX_LIMITS } from '../../../src/renderer/features/artifacts/docx-prepare';
import { checkPdfStreams, PDF_LIMITS } from '../../../src/renderer/features/artifacts/pdf-scan';
import { readPptx, PPTX_LIMITS } from '../../../src/renderer/features/artifacts/pptx-read';
import { ReaderLimitError } from '../../../src/renderer/features/artifacts/reader-limits';
import { XLSX_LIMITS, XlsxWorkbook } from '../../../src/renderer/features/artifacts/xlsx-read';
import {
  inflateEntry,
  readZipDirectory,
} from '../../../src/renderer/features/artifacts/zip-directory';
import { buildPng } from '../../support/fetch-images';
import {
  bombTextChars,
  buildParagraphBomb,
  buildSharedStringBomb,
} from '../../support/office-bombs';
import { buildPdf, buildPptx, buildXlsx } from '../../support/office-files';

/** What a call throws (or null). */
function thrown(run: () => unknown): unknown {
  try {
    run();
    return null;
  } catch (error) {
    return error;
  }
}

describe('zip directory', () => {
  it('lists entries with declared sizes and inflates each under its cap', () => {
    const bytes = zipSync({ 'a.xml': strToU8('x'.repeat(10_000)), 'b.txt': strToU8('hi') });
    const entries = readZipDirectory(bytes);
    expect(entries.map((entry) => [entry.name, entry.size])).toEqual([
      ['a.xml', 10_000],
      ['b.txt', 2],
    ]);
    const [big] = entries;
    if (big === undefined) throw new Error('no entry');
    expect(inflateEntry(bytes, big, 10_000)).toHaveLength(10_000);
    const error = thrown(() => inflateEntry(bytes, big, 9_999));
    expect(error).toBeInstanceOf(ReaderLimitError);
    expect((error as ReaderLimitError).limit).toBe('unzipped');
  });

  it('stops inflating a bomb whose directory lies about its size', () => {
    const bytes = zipSync({ 'bomb.xml': new Uint8Array(20 * 1024 * 1024) });
    expect(bytes.length).toBeLessThan(100 * 1024);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const [entry] = readZipDirectory(bytes);
    if (entry === undefined) throw new Error('no entry');
    // Declare 1 KB in the directory: inflating stops just past it.
    entry.size = 1024;
    expect(() => inflateEntry(bytes, entry, 1024 * 1024)).toThrow(
      /unzips past the size its directory declares/,
    );
    expect(view.getUint32(0, true)).toBe(0x04034b50);
  });
});

describe('XLSX: a shared-string bomb', () => {
  const bomb = { strings: 5, length: 300, rows: 2_000, columns: 200 };

  it('is small zipped and huge expanded', () => {
    const bytes = buildSharedStringBomb(bomb);
    expect(bytes.length).toBeLessThan(200 * 1024);
    expect(bombTextChars(bomb)).toBe(120_000_000);
  });

  it('stops at the text its cells expand to (shared strings counted), not at the cell cap', () => {
    const bytes = buildSharedStringBomb(bomb);
    // 400,000 cells are well under the cell cap: only the text bound stops it.
    expect(bomb.rows * bomb.columns).toBeLessThan(XLSX_LIMITS.maxCells);
    const limits = { ...XLSX_LIMITS, maxTextChars: 10_000_000 };
    const error = thrown(() => new XlsxWorkbook(bytes, limits).readSheet(0));
    expect(error).toBeInstanceOf(ReaderLimitError);
    expect((error as ReaderLimitError).limit).toBe('text');
    // With the real bound the default reader refuses the attack's size too.
    const attack = { ...bomb, rows: 20_000 };
    expect(bombTextChars(attack)).toBeGreaterThan(XLSX_LIMITS.maxTextChars);
  });

  it('reads the same workbook when it stays under the bound', () => {
    const small = buildSharedStringBomb({ ...bomb, rows: 10, columns: 3 });
    const sheet = new XlsxWorkbook(small).readSheet(0);
    expect(sheet.rows).toHaveLength(10);
    expect(sheet.rows[0]?.length).toBeGreaterThan(900);
  });

  it('bounds cells, and the shared-string table', () => {
    const bytes = buildSharedStringBomb({ ...bomb, rows: 100 });
    const cells = thrown(() =>
      new XlsxWorkbook(bytes, { ...XLSX_LIMITS, maxCells: 1_000 }).readSheet(0),
    );
    expect((cells as ReaderLimitError).limit).toBe('cells');
    const strings = thrown(() =>
      new XlsxWorkbook(bytes, { ...XLSX_LIMITS, maxSharedStringChars: 1_000 }).readSheet(0),
    );
    expect((strings as ReaderLimitError).limit).toBe('strings');
  });

  it('keeps a shared string only to a cell’s shown length', () => {
    const bytes = buildSharedStringBomb({ strings: 2, length: 100_000, rows: 1, columns: 2 });
    // Two 100,000-character strings fit a 1,000-character table: each is kept to 301.
    const sheet = new XlsxWorkbook(bytes, {
      ...XLSX_LIMITS,
      maxSharedStringChars: 1_000,
    }).readSheet(0);
    expect(sheet.rows[0]?.length).toBeLessThan(700);
  });
});

describe('DOCX: checked before mammoth', () => {
  it('refuses a document of too many elements, counted while it is inflated', () => {
    const bomb = buildParagraphBomb(100_000);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const error = thrown(() => prepareDocx(bomb));
    expect(error).toBeInstanceOf(ReaderLimitError);
    expect((error as ReaderLimitError).limit).toBe('nodes');
  });

  it('refuses a document that unzips past its bound by its declared sizes', () => {
    const bomb = buildParagraphBomb(1_000_000);
    const error = thrown(() => prepareDocx(bomb, { ...DOCX_LIMITS, maxNodes: 1e9 }));
    expect((error as ReaderLimitError).limit).toBe('unzipped');
  });

  it('passes a normal document on, stored, with the same entries', () => {
    const document = buildParagraphBomb(100);
    const prepared = prepareDocx(document);
    const entries = readZipDirectory(prepared);
    expect(entries.map((entry) => entry.name)).toEqual(
      readZipDirectory(document).map((entry) => entry.name),
    );
    expect(entries.every((entry) => entry.method === 0)).toBe(true);
  });
});

describe('CSV and PPTX', () => {
  it('CSV: rows kept joined; cells and text bounded', () => {
    const text = `a,b\n${'1,2\n'.repeat(1_000)}`;
    expect(readCsv(text, false).rows).toHaveLength(1_000);
    const cells = thrown(() => readCsv(text, false, { ...CSV_LIMITS, maxCells: 500 }));
    expect((cells as ReaderLimitError).limit).toBe('cells');
    const wide = `h\n${`${'x'.repeat(300)}\n`.repeat(100)}`;
    const chars = thrown(() => readCsv(wide, false, { ...CSV_LIMITS, maxTextChars: 10_000 }));
    expect((chars as ReaderLimitError).limit).toBe('text');
  });

  it('PPTX: what a deck unzips is bounded as a whole', () => {
    const png = buildPng(8, 8, [1, 2, 3]);
    const slides = Array.from({ length: 20 }, (_, index) => ({
      title: `Slide ${index}`,
      body: ['x'.repeat(2_000)],
      png,
    }));
    const deck = buildPptx(slides);
    expect(readPptx(deck).slides).toHaveLength(20);
    const error = thrown(() => readPptx(deck, { ...PPTX_LIMITS, maxUnzippedBytes: 20_000 }));
    expect((error as ReaderLimitError).limit).toBe('unzipped');
  });

  it('XLSX: a normal workbook still reads (bounds leave room)', () => {
    const sheet = new XlsxWorkbook(buildXlsx([{ name: 'S', rows: [['a', 1]] }])).readSheet(0);
    expect(sheet.rows).toHaveLength(1);
  });
});

describe('PDF: streams measured before pdf.js', () => {
  /** A PDF object holding `data` Flate-compressed, its /Length a lie. */
  function flateObject(data: Uint8Array): Buffer {
    return Buffer.concat([
      Buffer.from('4 0 obj\n<< /Length 12 /Filter /FlateDecode >>\nstream\r\n'),
      Buffer.from(zlibSync(data, { level: 9 })),
      Buffer.from('\nendstream\nendobj\n'),
    ]);
  }

  it('refuses a stream that inflates past its bound, whatever its /Length says', () => {
    const bomb = Buffer.concat([Buffer.from('%PDF-1.7\n'), flateObject(new Uint8Array(30e6))]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const error = thrown(() => checkPdfStreams(bomb, { ...PDF_LIMITS, maxStreamBytes: 20e6 }));
    expect((error as ReaderLimitError).limit).toBe('unzipped');
    // Under the bound each; past it together.
    const pair = Buffer.concat([bomb, flateObject(new Uint8Array(15e6))]);
    const limits = { maxStreamBytes: 40e6, maxTotalBytes: 40e6 };
    expect((thrown(() => checkPdfStreams(pair, limits)) as ReaderLimitError).limit).toBe(
      'unzipped',
    );
    expect(() =>
      checkPdfStreams(pair, { maxStreamBytes: 40e6, maxTotalBytes: 50e6 }),
    ).not.toThrow();
  });

  it('refuses Flate data behind another filter, which it cannot measure (a bomb in text)', () => {
    const wrapped = Buffer.concat([
      Buffer.from('%PDF-1.7\n4 0 obj\n<< /Filter [/ASCIIHexDecode /FlateDecode] >>\nstream\n'),
      Buffer.from(Buffer.from(zlibSync(new Uint8Array(30e6), { level: 9 })).toString('hex')),
      Buffer.from('>\nendstream\nendobj\n'),
    ]);
    const error = thrown(() => checkPdfStreams(wrapped, { ...PDF_LIMITS, maxStreamBytes: 20e6 }));
    expect((error as ReaderLimitError).limit).toBe('unzipped');
    // Flate first in a chain is measured as before.
    const chain = Buffer.concat([
      Buffer.from('%PDF-1.7\n4 0 obj\n<< /Filter [ /FlateDecode /DCTDecode ] >>\nstream\n'),
      Buffer.from(zlibSync(new Uint8Array(1000))),
      Buffer.from('\nendstream\nendobj\n'),
    ]);
    expect(() => checkPdfStreams(chain)).not.toThrow();
  });

  it('lets an ordinary PDF through', () => {
    expect(() => checkPdfStreams(buildPdf(['Page one', 'Page two']))).not.toThrow();
  });
});
