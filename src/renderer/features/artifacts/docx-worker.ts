/**
 * Converts a DOCX document to HTML off the main thread with mammoth (its browser build: jszip and
 * xmldom, no DOM needed), after `docx-prepare.ts` has checked the zip and the document against
 * DOCX_LIMITS (mammoth has no bound of its own). The HTML is only markup mammoth writes from the
 * document's paragraphs, tables, lists, links and images (as data: URLs); the viewer still
 * sanitises it and shows it in the isolated frame.
 */
import mammoth from 'mammoth';
import type { DocxRequest, DocxResponse } from './docx-protocol';
import { MAX_DOCX_HTML_CHARS } from './docx-protocol';
import { prepareDocx } from './docx-prepare';
import { readerLimitOf } from './reader-limits';
import { errorMessage } from './table-rows';

const scope = self as unknown as {
  postMessage(message: DocxResponse): void;
  onmessage: ((event: MessageEvent<DocxRequest>) => void) | null;
};

/** Too large past a work bound, else failed with the reason. */
function failure(error: unknown): DocxResponse {
  const limit = readerLimitOf(error);
  return limit !== null
    ? { type: 'too-large', limit }
    : { type: 'failed', message: errorMessage(error) };
}

scope.onmessage = (event) => {
  let prepared: Uint8Array<ArrayBuffer>;
  try {
    prepared = prepareDocx(new Uint8Array(event.data.bytes)) as Uint8Array<ArrayBuffer>;
  } catch (error) {
    scope.postMessage(failure(error));
    return;
  }
  mammoth.convertToHtml({ arrayBuffer: prepared.buffer }).then(
    (result) => {
      if (result.value.length > MAX_DOCX_HTML_CHARS) {
        scope.postMessage({ type: 'too-large', limit: 'html' });
        return;
      }
      scope.postMessage({
        type: 'converted',
        html: result.value,
        messages: result.messages.filter((message) => message.type !== 'warning').length,
      });
    },
    (error: unknown) => scope.postMessage(failure(error)),
  );
};
