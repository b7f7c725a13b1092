/**
 * The artifact viewer's office readers (`features/artifacts/xlsx-read.ts`, `pptx-read.ts`, run
 * here under Node as in their workers) and the new kinds: values as a spreadsheet shows them,
 * sheets and slides in order, and every bound (rows, columns, a zip entry's declared size,
 * pictures, slides), plus what is not a workbook or deck.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  tooLargeToView,
  VIEWER_LIMITS,
  viewerKind,
} from '../../../src/renderer/features/artifacts/artifact-kind';
import { OfficeFileError } from '../../../src/renderer/features/artifacts/office-zip';
import { ReaderLimitError } from '../../../src/renderer/features/artifacts/reader-limits';
import { readPptx, PPTX_LIMITS } from '../../../src/renderer/features/artifacts/pptx-read';
import {
  CELL_SEPARATOR,
  MAX_SHOWN_COLUMNS,
} from '../../../src/renderer/features/artifacts/table-protocol';
import {
  columnName,
  columnOf,
  isDateFormat,
  serialDate,
  XLSX_LIMITS,
  XlsxWorkbook,
} from '../../../src/renderer/features/artifacts/xlsx-read';
import { buildPng } from '../../support/fetch-images';
import { buildPptx, buildXlsx } from '../../support/office-files';

const cells = (row: string | undefined): string[] => (row ?? '').split(CELL_SEPARATOR);

describe('artifact viewer: office kinds', () => {
  it('picks the PDF, spreadsheet, document and slides viewers by extension', () => {
    expect(viewerKind('report.PDF')).toBe('pdf');
    expect(viewerKind('results.xlsx')).toBe('xlsx');
    expect(viewerKind('macros.xlsm')).toBe('xlsx');
    expect(viewerKind('letter.docx')).toBe('docx');
    expect(viewerKind('deck.pptx')).toBe('pptx');
    // Old binary formats have no viewer.
    expect(viewerKind('old.xls')).toBeNull();
    expect(viewerKind('old.doc')).toBeNull();
    expect(viewerKind('old.ppt')).toBeNull();
  });

  it('caps each of them', () => {
    for (const kind of ['pdf', 'xlsx', 'docx', 'pptx'] as const) {
      expect(tooLargeToView(kind, VIEWER_LIMITS[kind])).toBe(false);
      expect(tooLargeToView(kind, VIEWER_LIMITS[kind] + 1)).toBe(true);
    }
  });
});

describe('artifact viewer: XLSX', () => {
  it('names and finds columns as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
    expect(columnOf('A1')).toBe(0);
    expect(columnOf('ab12')).toBe(27);
    expect(columnOf('12')).toBe(-1);
  });

  it('tells date formats and shows serials as ISO dates', () => {
    expect(isDateFormat('yyyy\\-mm\\-dd')).toBe(true);
    expect(isDateFormat('[$-409]h:mm AM/PM')).toBe(true);
    expect(isDateFormat('0.00" days"')).toBe(false);
    expect(isDateFormat('#,##0.00')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
    expect(serialDate(45658)).toBe('2025-01-01');
    expect(serialDate(45658.5)).toBe('2025-01-01 12:00:00');
    expect(serialDate(0.25)).toBe('06:00:00');
    expect(serialDate(44196, true)).toBe('2025-01-01');
  });

  it('reads sheets in order with strings, numbers, dates, gaps and escapes', () => {
    const workbook = new XlsxWorkbook(
      buildXlsx([
        {
          name: 'Results',
          rows: [
            ['City', 'Visits', 'Since'],
            ['Oslo & <Bergen>', 0.1 + 0.2, { date: 45658 }],
            [],
            [null, 42],
          ],
        },
        { name: 'Notes', rows: [['second sheet']] },
      ]),
    );
    expect(workbook.sheets.map((sheet) => sheet.name)).toEqual(['Results', 'Notes']);
    const sheet = workbook.readSheet(0);
    expect(sheet.header).toEqual(['A', 'B', 'C']);
    expect(sheet.columnCount).toBe(3);
    expect(sheet.rows).toHaveLength(4);
    expect(cells(sheet.rows[0])).toEqual(['City', 'Visits', 'Since']);
    expect(cells(sheet.rows[1])).toEqual(['Oslo & <Bergen>', '0.3', '2025-01-01']);
    expect(sheet.rows[2]).toBe('');
    expect(cells(sheet.rows[3])).toEqual(['', '42']);
    expect(cells(workbook.readSheet(1).rows[0])).toEqual(['second sheet']);
  });

  it('reads shared strings, booleans and errors, skipping phonetic runs', () => {
    const bytes = zipSync({
      '_rels/.rels': strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/xl/workbook.xml"/></Relationships>',
      ),
      'xl/workbook.xml': strToU8(
        '<x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="S" r:id="a"/></x:sheets></x:workbook>',
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="a" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="sheets/one.xml"/><Relationship Id="b" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="strings.xml"/></Relationships>',
      ),
      'xl/strings.xml': strToU8(
        '<sst><si><t>plain</t></si><si><r><t>rich </t></r><r><t>text</t></r><rPh><t>ruby</t></rPh></si></sst>',
      ),
      'xl/sheets/one.xml': strToU8(
        '<x:worksheet xmlns:x="s"><x:sheetData><x:row r="2"><x:c r="B2" t="s"><x:v>1</x:v></x:c><x:c r="C2" t="b"><x:v>1</x:v></x:c><x:c r="D2" t="e"><x:v>#DIV/0!</x:v></x:c><x:c r="E2" t="s"><x:v>0</x:v></x:c><x:c r="F2" t="s"><x:v>9</x:v></x:c></x:row></x:sheetData></x:worksheet>',
      ),
    });
    const sheet = new XlsxWorkbook(bytes).readSheet(0);
    expect(sheet.rows[0]).toBe('');
    expect(cells(sheet.rows[1])).toEqual(['', 'rich text', 'TRUE', '#DIV/0!', 'plain', '']);
  });

  it('keeps at most maxRows rows and counts the rest; draws at most 200 columns', () => {
    const wide = Array.from({ length: 250 }, (_, column) => column);
    const workbook = new XlsxWorkbook(
      buildXlsx([
        { name: 'Big', rows: Array.from({ length: 30 }, (_, row) => (row === 0 ? wide : [row])) },
      ]),
      { ...XLSX_LIMITS, maxRows: 10 },
    );
    const sheet = workbook.readSheet(0);
    expect(sheet.rows).toHaveLength(10);
    expect(sheet.rowsCut).toBe(20);
    expect(sheet.columnCount).toBe(250);
    expect(sheet.header).toHaveLength(MAX_SHOWN_COLUMNS);
    expect(cells(sheet.rows[0])).toHaveLength(MAX_SHOWN_COLUMNS);
  });

  it('refuses a part whose declared size is past the cap, and what is not a workbook', () => {
    const bytes = buildXlsx([{ name: 'S', rows: [['x'.repeat(5000)]] }]);
    const workbook = new XlsxWorkbook(bytes, { ...XLSX_LIMITS, maxEntryBytes: 4000 });
    expect(() => workbook.readSheet(0)).toThrow(ReaderLimitError);
    expect(() => new XlsxWorkbook(strToU8('not a zip at all'))).toThrow(OfficeFileError);
    expect(() => new XlsxWorkbook(zipSync({ 'a.txt': strToU8('a') }))).toThrow(/not an XLSX/);
  });

  it('inflates no more than the zip directory declares, and refuses a directory that lies', () => {
    const rows = Array.from({ length: 10_000 }, (_, row) => [row, 'filler text']);
    const bytes = buildXlsx([{ name: 'S', rows }]);
    // The sheet's central directory record: say its XML inflates to 2,000 bytes.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let patched = false;
    for (let offset = 0; offset + 46 < bytes.length; offset++) {
      if (view.getUint32(offset, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(offset + 28, true);
      const name = bytes.subarray(offset + 46, offset + 46 + nameLength).toString('latin1');
      if (name === 'xl/worksheets/sheet1.xml') {
        view.setUint32(offset + 24, 2000, true);
        patched = true;
      }
    }
    expect(patched).toBe(true);
    expect(() => new XlsxWorkbook(bytes).readSheet(0)).toThrow(
      /unzips past the size its directory declares/,
    );
  });

  it('reads 100,000 rows (the e2e test opens 100,000 × 50 in the browser)', () => {
    const rows = function* () {
      for (let row = 0; row < 100_000; row++) {
        yield Array.from({ length: 5 }, (_, column) => row * 5 + column);
      }
    };
    const sheet = new XlsxWorkbook(buildXlsx([{ name: 'Big', rows: rows() }])).readSheet(0);
    expect(sheet.rows).toHaveLength(100_000);
    expect(sheet.rowsCut).toBe(0);
    expect(cells(sheet.rows[99_999])).toEqual(
      Array.from({ length: 5 }, (_, column) => String(99_999 * 5 + column)),
    );
  }, 60_000);
});

describe('artifact viewer: PPTX', () => {
  const png = buildPng(8, 8, [200, 40, 40]);

  it('reads slides in order: title, paragraphs and pictures', () => {
    const deck = readPptx(
      buildPptx([
        { title: 'Quarterly review', body: ['Revenue grew 12 %', 'Costs & risks'], png },
        { title: 'Next steps', body: [] },
      ]),
    );
    expect(deck.slideCount).toBe(2);
    expect(deck.imagesCut).toBe(false);
    expect(deck.slides.map((slide) => slide.title)).toEqual(['Quarterly review', 'Next steps']);
    expect(deck.slides[0]?.paragraphs).toEqual(['Revenue grew 12 %', 'Costs & risks']);
    expect(deck.slides[0]?.images).toHaveLength(1);
    expect(deck.slides[0]?.images[0]?.mime).toBe('image/png');
    expect(Buffer.from(deck.slides[0]?.images[0]?.bytes ?? [])).toEqual(png);
    expect(deck.slides[1]?.images).toEqual([]);
  });

  it('bounds slides, text and pictures', () => {
    const slides = Array.from({ length: 5 }, (_, index) => ({
      title: `Slide ${index + 1}`,
      body: ['x'.repeat(100)],
      png,
    }));
    const deck = readPptx(buildPptx(slides), {
      ...PPTX_LIMITS,
      maxSlides: 3,
      maxSlideChars: 50,
      maxImagesBytes: png.length * 2,
    });
    expect(deck.slideCount).toBe(5);
    expect(deck.slides).toHaveLength(3);
    // The title takes 7 characters; the body gets what is left of 50.
    expect(deck.slides[0]?.paragraphs[0]).toHaveLength(43);
    expect(deck.slides.map((slide) => slide.images.length)).toEqual([1, 1, 0]);
    expect(deck.imagesCut).toBe(true);
    const small = readPptx(buildPptx(slides.slice(0, 1)), { ...PPTX_LIMITS, maxImageBytes: 10 });
    expect(small.slides[0]?.images).toEqual([]);
    expect(small.imagesCut).toBe(true);
  });

  it('refuses what is not a deck', () => {
    expect(() => readPptx(strToU8('%PDF-1.4'))).toThrow(OfficeFileError);
    expect(() => readPptx(zipSync({ 'a.txt': strToU8('a') }))).toThrow(/not a PPTX/);
  });
});
