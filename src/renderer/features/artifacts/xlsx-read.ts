/**
 * Reads an XLSX workbook's sheets as rows of text for the table viewer (in `xlsx-worker.ts`; pure
 * apart from that, so unit-tested under Node). The zip is read with fflate (only the entries
 * needed, each checked against a cap by the size its directory declares before it is inflated),
 * the XML with htmlparser2's streaming parser in XML mode: the sheet's XML is decoded and parsed
 * in chunks, and each row is kept as the one joined string the table receives, never as a cell
 * object. Hand-written over ExcelJS because ExcelJS, the well-kept alternative on npm (SheetJS's
 * npm release is old and has advisories), took 29 s and 2.7 GB to load a 100,000 × 50 sheet in
 * Node (`Workbook.xlsx.load`, its only browser reader): it builds an object per cell. What is shown
 * is each cell's stored value: shared and inline strings, numbers (to 15 significant digits),
 * booleans, errors, formulas' cached results, and dates (a number whose style has a date format)
 * as ISO dates. No formula is evaluated and no macro (`.xlsm`) is read.
 */
import { decodedPieces, OfficeFileError, parseXml, relationships, ZipReader } from './office-zip';
import { WorkBudget } from './reader-limits';
import { MAX_CELL_CHARS, MAX_SHOWN_COLUMNS } from './table-protocol';
import { joinRow } from './table-rows';

export interface XlsxLimits {
  /** Largest inflated size of one zip entry (bytes): declared, and counted while inflating. */
  maxEntryBytes: number;
  /** Rows kept per sheet; past it rows are counted, not kept. */
  maxRows: number;
  /** Shared strings kept (a cell naming a later one is shown empty). */
  maxSharedStrings: number;
  /** Characters of the shared-string table kept (each string cut to a cell's shown length). */
  maxSharedStringChars: number;
  /** Cells read per sheet (shown or not): past it the sheet is too large to show. */
  maxCells: number;
  /**
   * Characters of the rows kept per sheet: what cells expand to, shared strings included, so a
   * 20-byte cell naming a 300-character string counts 300. Past it the sheet is too large.
   */
  maxTextChars: number;
}

export const XLSX_LIMITS: XlsxLimits = {
  // A 100,000 × 50 sheet of short cells is ~250 MB of XML.
  maxEntryBytes: 512 * 1024 * 1024,
  maxRows: 500_000,
  maxSharedStrings: 2_000_000,
  // 2,000,000 strings of 32 characters; the table keeps them for the sheet's life (≤ 128 MB).
  maxSharedStringChars: 64 * 1024 * 1024,
  // Five times the 100,000 × 50 sheet the bench opens; the XML of more is minutes of parsing.
  maxCells: 25_000_000,
  // The 100,000 × 50 sheet of numbers keeps ~35 M characters. 96 M characters are 96–192 MB of
  // strings in the worker, which shares the page's process (and V8's 4 GB heap cage): the attack's
  // 0.9 MB workbook of cells naming 300-character strings expanded to ~5 GB and crashed the page.
  maxTextChars: 96 * 1024 * 1024,
};

/** One sheet as the table shows it: Excel's column letters as header, every row from row 1. */
export interface XlsxSheet {
  header: string[];
  /** Each row's cells joined by CELL_SEPARATOR (`table-rows.ts`). */
  rows: string[];
  columnCount: number;
  rowsCut: number;
}

/** Excel's name of a 0-based column: A … Z, AA … */
export function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

/** The 0-based column of a cell reference such as `AB12`; -1 when there is none. */
export function columnOf(reference: string): number {
  let column = 0;
  let letters = 0;
  for (const char of reference) {
    const code = char.toUpperCase().charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    letters++;
  }
  return letters === 0 ? -1 : column - 1;
}

/** Excel's built-in date and time formats (ids 14–22, 27–36, 45–47, 50–58). */
function builtinDateFormat(id: number): boolean {
  return (
    (id >= 14 && id <= 22) ||
    (id >= 27 && id <= 36) ||
    (id >= 45 && id <= 47) ||
    (id >= 50 && id <= 58)
  );
}

/** True when a custom number format shows a date or time (d, m, y, h or s outside quotes). */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** A date serial as an ISO date (and time when it has one); `date1904` for Mac workbooks. */
export function serialDate(serial: number, date1904 = false): string {
  const days = date1904 ? serial + 1462 : serial;
  const milliseconds = Math.round((days - 25569) * 86_400_000);
  const date = new Date(milliseconds);
  if (Number.isNaN(date.getTime())) return String(serial);
  const iso = date.toISOString();
  if (Number.isInteger(serial)) return iso.slice(0, 10);
  if (serial >= 0 && serial < 1) return iso.slice(11, 19);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** A stored number as text: at most 15 significant digits, as Excel keeps them. */
function numberText(value: string): string {
  // Most stored numbers are short already (and Number() on five million of them is seconds).
  if (value.length <= 15) return value;
  const number = Number(value);
  return Number.isFinite(number) ? String(Number(number.toPrecision(15))) : value;
}

/** A workbook: its sheet names, each sheet read when asked for. */
export class XlsxWorkbook {
  readonly sheets: { name: string; path: string }[] = [];
  private readonly zip: ZipReader;
  private sharedStrings: string[] | null = null;
  private readonly dateStyles: boolean[] = [];
  private date1904 = false;
  private readonly sharedStringsPath: string | null;
  private readonly stylesPath: string | null;

  constructor(
    bytes: Uint8Array,
    private readonly limits: XlsxLimits = XLSX_LIMITS,
  ) {
    this.zip = new ZipReader(bytes, limits.maxEntryBytes);
    const root = relationships(this.zip, '');
    const office = [...root.values()].find((entry) => entry.type.endsWith('/officeDocument'));
    const workbookPath = office?.target ?? 'xl/workbook.xml';
    const workbook = this.zip.entry(workbookPath);
    if (workbook === null) throw new OfficeFileError('not an XLSX workbook (no workbook part)');
    const parts = relationships(this.zip, workbookPath);
    const byType = (suffix: string): string | null =>
      [...parts.values()].find((entry) => entry.type.endsWith(suffix))?.target ?? null;
    this.sharedStringsPath = byType('/sharedStrings');
    this.stylesPath = byType('/styles');
    parseXml(decodedPieces(workbook), {
      open: (tag, attributes) => {
        if (tag === 'workbookPr') {
          this.date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
        }
        if (tag !== 'sheet') return;
        const id = attributes['r:id'] ?? '';
        const target = parts.get(id)?.target;
        if (target === undefined) return;
        this.sheets.push({
          name: attributes.name ?? `Sheet${this.sheets.length + 1}`,
          path: target,
        });
      },
    });
    if (this.sheets.length === 0) throw new OfficeFileError('the workbook has no sheets');
    this.readStyles();
  }

  /** Which cell styles show numbers as dates (`cellXfs`, by index). */
  private readStyles(): void {
    if (this.stylesPath === null) return;
    const bytes = this.zip.entry(this.stylesPath);
    if (bytes === null) return;
    const custom = new Map<number, string>();
    let inCellXfs = false;
    const formats: number[] = [];
    parseXml(decodedPieces(bytes), {
      open: (tag, attributes) => {
        if (tag === 'numFmt') {
          custom.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
        } else if (tag === 'cellXfs') inCellXfs = true;
        else if (tag === 'xf' && inCellXfs) formats.push(Number(attributes.numFmtId ?? 0));
      },
      close: (tag) => {
        if (tag === 'cellXfs') inCellXfs = false;
      },
    });
    for (const id of formats) {
      const code = custom.get(id);
      this.dateStyles.push(code === undefined ? builtinDateFormat(id) : isDateFormat(code));
    }
  }

  /** The shared strings, read once (rich text runs joined; phonetic runs left out). */
  private strings(): string[] {
    if (this.sharedStrings !== null) return this.sharedStrings;
    const strings: string[] = [];
    this.sharedStrings = strings;
    if (this.sharedStringsPath === null) return strings;
    const xml = this.zip.text(this.sharedStringsPath);
    if (xml === null) return strings;
    let current: string[] | null = null;
    let currentLength = 0;
    let inText = false;
    let phonetic = 0;
    const max = this.limits.maxSharedStrings;
    const chars = new WorkBudget('strings', this.limits.maxSharedStringChars);
    parseXml(xml, {
      open: (tag) => {
        if (tag === 'si') {
          current = [];
          currentLength = 0;
        } else if (tag === 'rPh') phonetic++;
        else if (tag === 't') inText = phonetic === 0;
      },
      text: (text) => {
        // A string is kept to a cell's shown length: a longer one costs no more.
        if (inText && current !== null && currentLength <= MAX_CELL_CHARS) {
          current.push(text);
          currentLength += text.length;
        }
      },
      close: (tag) => {
        if (tag === 't') inText = false;
        else if (tag === 'rPh') phonetic--;
        else if (tag === 'si' && current !== null) {
          if (strings.length < max) {
            // A cell shows at most MAX_CELL_CHARS (then "…"): one more tells it was cut.
            const text = current.join('').slice(0, MAX_CELL_CHARS + 1);
            chars.spend(text.length);
            strings.push(text);
          }
          current = null;
        }
      },
    });
    return strings;
  }

  /** The sheet at `index` (0-based), read now. */
  readSheet(index: number): XlsxSheet {
    const sheet = this.sheets[index];
    if (sheet === undefined) throw new OfficeFileError(`no sheet ${index + 1}`);
    // Parsed as it is inflated: a 250 MB sheet is never held whole.
    const xml = this.zip.text(sheet.path);
    if (xml === null) throw new OfficeFileError(`the sheet "${sheet.name}" is missing`);
    const strings = this.strings();
    const rows: string[] = [];
    let rowsCut = 0;
    let columnCount = 0;
    let cells: string[] = [];
    let rowNumber = 0;
    let cell: { column: number; type: string; style: number } | null = null;
    let value: string[] = [];
    let valueLength = 0;
    let collecting = false;
    let phonetic = 0;
    const limits = this.limits;
    const cellBudget = new WorkBudget('cells', limits.maxCells);
    const textBudget = new WorkBudget('text', limits.maxTextChars);

    const keepRow = (): void => {
      // Rows the sheet skips are empty rows of the table (row numbers stay Excel's).
      while (rows.length < rowNumber - 1 && rows.length < limits.maxRows) rows.push('');
      if (rows.length < limits.maxRows) {
        const row = joinRow(cells);
        textBudget.spend(row.length + 1);
        rows.push(row);
      } else rowsCut = Math.max(rowsCut, rowNumber - limits.maxRows);
    };
    const cellText = (raw: string, type: string, style: number): string => {
      switch (type) {
        case 's':
          return strings[Number(raw)] ?? '';
        case 'b':
          return raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE';
        case 'inlineStr':
        case 'str':
        case 'e':
        case 'd':
          return raw;
        default:
          if (raw === '') return '';
          if (this.dateStyles[style] === true && Number.isFinite(Number(raw))) {
            return serialDate(Number(raw), this.date1904);
          }
          return numberText(raw);
      }
    };

    parseXml(xml, {
      open: (tag, attributes) => {
        if (tag === 'row') {
          const number = Number(attributes.r);
          rowNumber = Number.isInteger(number) && number > rowNumber ? number : rowNumber + 1;
          cells = [];
        } else if (tag === 'c') {
          const column = attributes.r === undefined ? cells.length : columnOf(attributes.r);
          cell = {
            column: column < 0 ? cells.length : column,
            type: attributes.t ?? 'n',
            style: Number(attributes.s ?? 0),
          };
          value = [];
          valueLength = 0;
        } else if (tag === 'rPh') phonetic++;
        else if (cell !== null && (tag === 'v' || (tag === 't' && cell.type === 'inlineStr'))) {
          collecting = phonetic === 0;
        }
      },
      text: (text) => {
        // A value is kept to a cell's shown length (a number or a string: either is cut there).
        if (collecting && valueLength <= MAX_CELL_CHARS) {
          value.push(text);
          valueLength += text.length;
        }
      },
      close: (tag) => {
        if (tag === 'v' || tag === 't') collecting = false;
        else if (tag === 'rPh') phonetic--;
        else if (tag === 'c' && cell !== null) {
          cellBudget.spend(1);
          if (cell.column + 1 > columnCount) columnCount = cell.column + 1;
          if (cell.column < MAX_SHOWN_COLUMNS) {
            while (cells.length < cell.column) cells.push('');
            cells[cell.column] = cellText(value.join(''), cell.type, cell.style);
          }
          cell = null;
        } else if (tag === 'row') keepRow();
      },
    });
    const shown = Math.min(columnCount, MAX_SHOWN_COLUMNS);
    return {
      header: Array.from({ length: shown }, (_, column) => columnName(column)),
      rows,
      columnCount,
      rowsCut,
    };
  }
}
