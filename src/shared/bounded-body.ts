/**
 * Reads a response body in full, but never more than a cap: the one loop behind every "read what
 * an untrusted server sent, up to N bytes" (search backends, model listings, OAuth answers). More
 * than the cap cancels the stream and throws the caller's error, rather than a silently cut body.
 */

/**
 * The bytes of `body` (empty for none). `tooLarge` makes the error for a body over `maxBytes`;
 * with `signal`, an abort cancels the pending read (not every fetcher ends a body stream on
 * abort) and throws the signal's reason.
 */
export async function readBoundedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => Error,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>> {
  if (body === null) return new Uint8Array();
  const reader = body.getReader();
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The start of a text stream (a probe needs only a server's first words): chunks are read until
 * `enough(text)` holds or `maxChars` are in, then the stream is cancelled (an event stream may
 * never end). The last chunk may take the text a little past `maxChars`.
 */
export async function readTextStart(
  body: ReadableStream<Uint8Array> | null,
  maxChars: number,
  enough: (text: string) => boolean,
): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < maxChars) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      if (enough(text)) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}
