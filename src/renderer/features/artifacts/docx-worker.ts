/**
 * Converts a DOCX document to HTML off the main thread with mammoth (its browser build: jszip and
 * xmldom, no DOM needed). The HTML is only markup mammoth writes from the document's paragraphs,
 * tables, lists, links and images (as data: URLs); the viewer still sanitises it and shows it in
 * the isolated frame.
 */
import mammoth from 'mammoth';
import type { DocxRequest, DocxResponse } from './docx-protocol';
import { MAX_DOCX_HTML_CHARS } from './docx-protocol';
import { errorMessage } from './table-rows';

const scope = self as unknown as {
  postMessage(message: DocxResponse): void;
  onmessage: ((event: MessageEvent<DocxRequest>) => void) | null;
};

scope.onmessage = (event) => {
  mammoth.convertToHtml({ arrayBuffer: event.data.bytes }).then(
    (result) => {
      if (result.value.length > MAX_DOCX_HTML_CHARS) {
        scope.postMessage({ type: 'failed', message: 'the document is too large to show' });
        return;
      }
      scope.postMessage({
        type: 'converted',
        html: result.value,
        messages: result.messages.filter((message) => message.type !== 'warning').length,
      });
    },
    (error: unknown) => scope.postMessage({ type: 'failed', message: errorMessage(error) }),
  );
};
