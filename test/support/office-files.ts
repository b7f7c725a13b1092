/**
 * Builds small XLSX and PPTX files (fflate's zip, hand-written XML) and PDFs with several pages and
 * a JavaScript action (hand-written, correct xref offsets), so tests of the artifact viewer need no
 * generator. The XLSX and PPTX hold the parts Office and LibreOffice write (content types,
 * relationships, workbook/presentation, sheets/slides) and nothing more.
 */
import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { pdfFile } from './fetch-pdf';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

const escape = (text: string): string =>
  text.replace(/[<>&"]/g, (char) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' }[char]};`);

function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

function relationships(entries: { id: string; type: string; target: string }[]): string {
  return `${XML}<Relationships xmlns="${PKG_REL}">${entries
    .map(
      (entry) =>
        `<Relationship Id="${entry.id}" Type="${REL}/${entry.type}" Target="${entry.target}"/>`,
    )
    .join('')}</Relationships>`;
}

/** A cell: text (an inline string), a number, or a date (shown through a date style). */
export type XlsxCell = string | number | { date: number } | null;

/** A sheet's XML in pieces, row by row (a large sheet is never one string). */
function* sheetXml(rows: Iterable<XlsxCell[]>): Generator<string> {
  yield `${XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
  let number = 0;
  let parts: string[] = [];
  for (const row of rows) {
    number++;
    parts.push(`<row r="${number}">`);
    row.forEach((cell, column) => {
      const reference = `${columnName(column)}${number}`;
      if (cell === null) return;
      if (typeof cell === 'number') parts.push(`<c r="${reference}"><v>${cell}</v></c>`);
      else if (typeof cell === 'string') {
        parts.push(`<c r="${reference}" t="inlineStr"><is><t>${escape(cell)}</t></is></c>`);
      } else parts.push(`<c r="${reference}" s="1"><v>${cell.date}</v></c>`);
    });
    parts.push('</row>');
    if (parts.length > 20_000) {
      yield parts.join('');
      parts = [];
    }
  }
  yield `${parts.join('')}</sheetData></worksheet>`;
}

/** A workbook of named sheets (row 1 first); style 1 is a date (`yyyy-mm-dd`). */
export function buildXlsx(sheets: { name: string; rows: Iterable<XlsxCell[]> }[]): Buffer {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        sheets
          .map(
            (_, index) =>
              `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join('') +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      relationships([{ id: 'rId1', type: 'officeDocument', target: 'xl/workbook.xml' }]),
    ),
    'xl/workbook.xml': strToU8(
      `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${sheets
        .map(
          (sheet, index) =>
            `<sheet name="${escape(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`,
        )
        .join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      relationships([
        ...sheets.map((_, index) => ({
          id: `rId${index + 1}`,
          type: 'worksheet',
          target: `worksheets/sheet${index + 1}.xml`,
        })),
        { id: 'rIdStyles', type: 'styles', target: 'styles.xml' },
      ]),
    ),
    'xl/styles.xml': strToU8(
      `${XML}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
        '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts>' +
        '<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs>' +
        '</styleSheet>',
    ),
  };
  // Streamed into the zip, as a writer of large workbooks does.
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  const add = (name: string, pieces: Iterable<Uint8Array>): void => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    for (const piece of pieces) entry.push(piece);
    entry.push(new Uint8Array(0), true);
  };
  for (const [name, bytes] of Object.entries(files)) add(name, [bytes]);
  sheets.forEach((sheet, index) => {
    add(
      `xl/worksheets/sheet${index + 1}.xml`,
      (function* () {
        for (const piece of sheetXml(sheet.rows)) yield strToU8(piece);
      })(),
    );
  });
  zip.end();
  return Buffer.concat(chunks);
}

/** A slide: a title placeholder, body paragraphs, and optionally one PNG picture. */
export interface PptxSlideSpec {
  title: string;
  body: string[];
  png?: Uint8Array;
}

/** A deck of slides, in order. */
export function buildPptx(slides: PptxSlideSpec[]): Buffer {
  const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>' +
        '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>' +
        slides
          .map(
            (_, index) =>
              `<Override PartName="/ppt/slides/slide${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`,
          )
          .join('') +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      relationships([{ id: 'rId1', type: 'officeDocument', target: 'ppt/presentation.xml' }]),
    ),
    'ppt/presentation.xml': strToU8(
      `${XML}<p:presentation xmlns:p="${P}" xmlns:a="${A}" xmlns:r="${REL}"><p:sldIdLst>${slides
        .map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${index + 1}"/>`)
        .join('')}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`,
    ),
    'ppt/_rels/presentation.xml.rels': strToU8(
      relationships(
        slides.map((_, index) => ({
          id: `rId${index + 1}`,
          type: 'slide',
          target: `slides/slide${index + 1}.xml`,
        })),
      ),
    ),
  };
  const paragraph = (text: string): string =>
    `<a:p><a:r><a:rPr lang="en-US"/><a:t>${escape(text)}</a:t></a:r></a:p>`;
  slides.forEach((slide, index) => {
    const number = index + 1;
    const picture =
      slide.png === undefined
        ? ''
        : '<p:pic><p:nvPicPr><p:cNvPr id="4" name="Picture"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>' +
          '<p:blipFill><a:blip r:embed="rIdImage"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>' +
          '<p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm></p:spPr></p:pic>';
    files[`ppt/slides/slide${number}.xml`] = strToU8(
      `${XML}<p:sld xmlns:p="${P}" xmlns:a="${A}" xmlns:r="${REL}"><p:cSld><p:spTree>` +
        '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>' +
        `<p:txBody><a:bodyPr/>${paragraph(slide.title)}</p:txBody></p:sp>` +
        '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr>' +
        `<p:txBody><a:bodyPr/>${slide.body.map(paragraph).join('')}</p:txBody></p:sp>` +
        `${picture}</p:spTree></p:cSld></p:sld>`,
    );
    if (slide.png !== undefined) {
      files[`ppt/slides/_rels/slide${number}.xml.rels`] = strToU8(
        relationships([{ id: 'rIdImage', type: 'image', target: `../media/image${number}.png` }]),
      );
      files[`ppt/media/image${number}.png`] = slide.png;
    }
  });
  return Buffer.from(zipSync(files, { level: 6 }));
}

/**
 * A PDF of pages of Helvetica text (one line each). With `javascript`, the document carries it as
 * an OpenAction and in its JavaScript name tree, and each page has a link annotation (its whole
 * page) whose action is the same script: a viewer that ran PDF scripts would run it on open and on
 * a click. With `uri`, each page also links there (URI action). With `chinese`, the text is set
 * in STSong-Light, a font PDF viewers have by name and the file does not embed (as many Chinese
 * PDFs are made), through the UniGB-UCS2-H CMap: drawn and selectable only with pdf.js's CMaps.
 */
export function buildPdf(
  pages: string[],
  options: { javascript?: string; uri?: string; chinese?: boolean } = {},
): Buffer {
  const text = (value: string): string => value.replace(/[\\()]/g, (char) => `\\${char}`);
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const catalog = add('');
  const pagesObject = add('');
  const font = options.chinese
    ? add(
        '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [' +
          `${objects.length + 2} 0 R] >>`,
      )
    : add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  if (options.chinese) {
    const descriptor = objects.length + 2;
    add(
      '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo' +
        ` << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor ${descriptor} 0 R >>`,
    );
    add(
      '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900]' +
        ' /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>',
    );
  }
  /** A line as the content stream shows it: UCS-2 hex for the Chinese font, else a string. */
  const shown = (line: string): string =>
    options.chinese
      ? `<${Buffer.from(line, 'utf16le').swap16().toString('hex')}>`
      : `(${text(line)})`;
  const script =
    options.javascript === undefined
      ? null
      : add(`<< /Type /Action /S /JavaScript /JS (${text(options.javascript)}) >>`);
  const names = script === null ? null : add(`<< /Names [(open) ${script} 0 R] >>`);
  const uriAction =
    options.uri === undefined
      ? null
      : add(`<< /Type /Action /S /URI /URI (${text(options.uri)}) >>`);
  const pageIds: number[] = [];
  for (const line of pages) {
    const stream = `BT /F1 24 Tf 72 700 Td ${shown(line)} Tj ET`;
    const contents = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    const annotations: number[] = [];
    if (script !== null) {
      annotations.push(
        add(
          `<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /Border [0 0 0] /A ${script} 0 R >>`,
        ),
      );
    }
    if (uriAction !== null) {
      annotations.push(
        add(
          `<< /Type /Annot /Subtype /Link /Rect [72 690 540 730] /Border [0 0 0] /A ${uriAction} 0 R >>`,
        ),
      );
    }
    const annots =
      annotations.length === 0
        ? ''
        : ` /Annots [${annotations.map((id) => `${id} 0 R`).join(' ')}]`;
    const aa = script === null ? '' : ` /AA << /O ${script} 0 R >>`;
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesObject} 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 ${font} 0 R >> >>${annots}${aa} >>`,
      ),
    );
  }
  objects[pagesObject - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  objects[catalog - 1] =
    `<< /Type /Catalog /Pages ${pagesObject} 0 R` +
    (script === null ? '' : ` /OpenAction ${script} 0 R /Names << /JavaScript ${names} 0 R >>`) +
    ' >>';
  return pdfFile('1.7', objects, `/Root ${catalog} 0 R`);
}
