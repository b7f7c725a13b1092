/** A picked file's bytes as base64, for contract methods that carry files. */

/** Bytes per `String.fromCharCode` call (keeps the argument list short). */
const CHUNK = 0x8000;

/** Reads `file` and encodes it. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + CHUNK));
  }
  return btoa(binary);
}
