/**
 * Builds a tiny, valid one-page PDF by hand (Helvetica text, correct xref offsets), so tests need
 * no PDF files or generators.
 */
export function buildTinyPdf(text: string, title = 'Tiny test PDF'): Buffer {
  const escaped = text.replace(/[\\()]/g, (character) => `\\${character}`);
  const stream = `BT /F1 18 Tf 72 720 Td (${escaped}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title (${title}) >>`,
  ];
  return pdfFile('1.4', objects, '/Root 1 0 R /Info 6 0 R');
}

/**
 * A PDF file of `objects` (object N is `objects[N - 1]`) with a correct cross-reference table;
 * `trailer` names the root (and info) objects.
 */
export function pdfFile(version: string, objects: readonly string[], trailer: string): Buffer {
  let output = `%PDF-${version}\n`;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(output.length);
    output += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = output.length;
  output += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  output += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  output += `trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(output, 'latin1');
}
