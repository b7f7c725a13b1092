/**
 * Megabytes of text turned into a file, and files read to base64, a piece per task: the browser
 * encodes each piece natively, and the page stays responsive in between (one 5 MB piece was a
 * task of a few hundred milliseconds on a loaded machine).
 */
import { base64OfDataUrl } from '../../state/attachment-rules';
import { pieceEnds } from '../../state/message-text-rules';

/** Characters encoded to UTF-8 per task. */
const CHARS_PER_TASK = 256 * 1024;
/** Bytes read to base64 per task: a multiple of 3, so the pieces' base64 joins as one. */
const BYTES_PER_TASK = 3 * 256 * 1024;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** `text` as a UTF-8 text file; null when `cancelled()` says so between pieces. */
export async function textFile(text: string, cancelled: () => boolean): Promise<Blob | null> {
  const parts: Blob[] = [];
  let start = 0;
  for (const end of pieceEnds(text, CHARS_PER_TASK)) {
    parts.push(new Blob([text.slice(start, end)]));
    start = end;
    await nextTask();
    if (cancelled()) return null;
  }
  return new Blob(parts, { type: 'text/plain' });
}

function readPiece(piece: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(base64OfDataUrl(String(reader.result)));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(piece);
  });
}

/** The file's bytes as standard base64, encoded by the browser a piece at a time. */
export async function readBase64(file: Blob): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < file.size; start += BYTES_PER_TASK) {
    parts.push(await readPiece(file.slice(start, start + BYTES_PER_TASK)));
  }
  return parts.join('');
}
