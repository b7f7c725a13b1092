/**
 * The attack's office files, built here: small zips that expand far past their size. A workbook
 * whose tiny cells (`<c t="s"><v>7</v></c>`, 20 bytes) each name a 300-character shared string, and
 * a document of one paragraph repeated without end. Both are streamed into the zip (fflate), so the
 * test never holds the expanded text as one string.
 */
import { strToU8, Zip, ZipDeflate } from 'fflate';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CONTENT_TYPES = 'http://schemas.openxmlformats.org/package/2006/content-types';

/** A zip of entries, each streamed from its pieces at deflate level 9. */
function streamedZip(entries: Record<string, Iterable<string>>): Buffer {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  for (const [name, pieces] of Object.entries(entries)) {
    const entry = new ZipDeflate(name, { level: 9 });
    zip.add(entry);
    for (const piece of pieces) entry.push(strToU8(piece));
    entry.push(new Uint8Array(0), true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

/** `count` pieces of `text` joined `per` at a time. */
function* repeated(text: string, count: number, per = 10_000): Generator<string> {
  for (let done = 0; done < count; done += per) yield text.repeat(Math.min(per, count - done));
}

export interface SharedStringBomb {
  /** Distinct shared strings (each `length` characters). */
  strings: number;
  length: number;
  /** Rows of `columns` cells, each naming a shared string. */
  rows: number;
  columns: number;
}

/** The expanded characters of a bomb's cells. */
export const bombTextChars = (bomb: SharedStringBomb): number =>
  bomb.rows * bomb.columns * bomb.length;

/** A workbook of one sheet whose every cell names a long shared string. */
export function buildSharedStringBomb(bomb: SharedStringBomb): Buffer {
  const strings = Array.from({ length: bomb.strings }, (_, index) =>
    `${index} `.padEnd(bomb.length, 'abcdefghij'),
  );
  const row = (number: number): string =>
    `<row r="${number}">${Array.from(
      { length: bomb.columns },
      (_, column) => `<c t="s"><v>${(number + column) % bomb.strings}</v></c>`,
    ).join('')}</row>`;
  return streamedZip({
    '[Content_Types].xml': [
      `${XML}<Types xmlns="${CONTENT_TYPES}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
    ],
    '_rels/.rels': [
      `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    'xl/workbook.xml': [
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets><sheet name="Bomb" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    'xl/_rels/workbook.xml.rels': [
      `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
    'xl/sharedStrings.xml': [
      `${XML}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${bomb.strings}" uniqueCount="${bomb.strings}">`,
      ...strings.map((text) => `<si><t>${text}</t></si>`),
      '</sst>',
    ],
    'xl/worksheets/sheet1.xml': (function* () {
      yield `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
      // Rows repeat every `strings` rows, so deflate finds them: a tiny file.
      const pattern = Array.from({ length: bomb.strings }, (_, index) => row(index + 1));
      for (let number = 1; number <= bomb.rows; number++) {
        yield (pattern[(number - 1) % bomb.strings] ?? '').replace(
          /^<row r="\d+">/,
          `<row r="${number}">`,
        );
      }
      yield '</sheetData></worksheet>';
    })(),
  });
}

/** A document of `paragraphs` one-run paragraphs (mammoth builds a DOM of all of them). */
export function buildParagraphBomb(paragraphs: number): Buffer {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  return streamedZip({
    '[Content_Types].xml': [
      `${XML}<Types xmlns="${CONTENT_TYPES}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ],
    '_rels/.rels': [
      `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ],
    'word/document.xml': (function* () {
      yield `${XML}<w:document xmlns:w="${W}"><w:body>`;
      yield* repeated(
        '<w:p><w:r><w:t>Nothing to see here, just one more line.</w:t></w:r></w:p>',
        paragraphs,
      );
      yield '</w:body></w:document>';
    })(),
  });
}
