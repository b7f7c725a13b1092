/**
 * Reads a PPTX deck off the main thread (`pptx-read.ts`) and hands back its slides' text and
 * pictures (the pictures' buffers transferred, not copied).
 */
import type { PptxDeck } from './pptx-read';
import { readPptx } from './pptx-read';
import type { ReaderLimit } from './reader-limits';
import { readerLimitOf } from './reader-limits';
import { errorMessage } from './table-rows';

export type PptxResponse =
  | { type: 'read'; deck: PptxDeck }
  | { type: 'too-large'; limit: ReaderLimit }
  | { type: 'failed'; message: string };

const scope = self as unknown as {
  postMessage(message: PptxResponse, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<{ bytes: ArrayBuffer }>) => void) | null;
};

scope.onmessage = (event) => {
  try {
    const deck = readPptx(new Uint8Array(event.data.bytes));
    // Each picture is its own copy out of the zip: its buffer can move.
    const buffers = deck.slides.flatMap((slide) => slide.images.map((image) => image.bytes.buffer));
    scope.postMessage({ type: 'read', deck }, buffers);
  } catch (error) {
    const limit = readerLimitOf(error);
    scope.postMessage(
      limit !== null
        ? { type: 'too-large', limit }
        : { type: 'failed', message: errorMessage(error) },
    );
  }
};
