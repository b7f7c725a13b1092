import { describe, expect, it } from 'vitest';
import { createPdfTextExtractor } from '../../../src/main/adapters/fetch/pdf-text-extractor';
import { buildTinyPdf } from '../../support/fetch-pdf';

describe('PDF text extractor (worker thread)', () => {
  it('extracts the text layer and title of a hand-made PDF', async () => {
    const extractor = createPdfTextExtractor();
    const result = await extractor.extractText(
      buildTinyPdf('Hello from a (tiny) PDF', 'Quarterly report'),
      new AbortController().signal,
    );
    expect(result).toEqual({
      ok: true,
      pages: ['Hello from a (tiny) PDF'],
      totalPages: 1,
      title: 'Quarterly report',
    });
    expect(
      'navigator' in globalThis && typeof Reflect.get(globalThis, 'DOMMatrix') === 'function',
    ).toBe(false);
  });

  it('reports garbage as an unreadable PDF, and stops at its deadline', async () => {
    const extractor = createPdfTextExtractor({ timeoutMs: 5_000 });
    const garbage = await extractor.extractText(
      Buffer.from('%PDF-1.4\nnot really'),
      new AbortController().signal,
    );
    expect(garbage).toMatchObject({ ok: false, error: /the PDF could not be read/ });
    const hasty = createPdfTextExtractor({ timeoutMs: 1 });
    expect(await hasty.extractText(buildTinyPdf('x'), new AbortController().signal)).toEqual({
      ok: false,
      error: 'reading the PDF took longer than 0.001 s',
    });
  });

  it('rejects with the abort reason when cancelled', async () => {
    const controller = new AbortController();
    const running = createPdfTextExtractor().extractText(buildTinyPdf('x'), controller.signal);
    controller.abort(new Error('cancelled by the user'));
    await expect(running).rejects.toThrow('cancelled by the user');
  });
});
