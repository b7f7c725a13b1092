/** A file's name on a message is shown without the characters that make it read as another. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FileView } from '../../../src/renderer/features/chat/file-view';

describe('renderer: file names', () => {
  it('drops bidi overrides and zero-width characters from a shown name', () => {
    const html = renderToStaticMarkup(
      <FileView
        file={{
          name: 'invoice\u202efdp.exe\u200b',
          size: 2048,
          mime: 'application/octet-stream',
          path: null,
        }}
        attached
      />,
    );
    expect(html).toContain('invoicefdp.exe');
    expect(html).toContain('data-name="invoicefdp.exe"');
    expect(html).not.toMatch(/[\u202e\u200b]/u);
  });
});
