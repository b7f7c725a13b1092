/**
 * Whether a chat-completions stream ended on purpose. The SDK ends its iteration the same way
 * for `data: [DONE]` and for a connection that simply closed, so the bytes are watched on their
 * way to it: a fetch wrapper passes every response body through unchanged and notes a
 * `data: [DONE]` line.
 */

/** What one request's watcher saw. */
export interface StreamEndWatch {
  /** True once the body carried a `data: [DONE]` line. */
  sawDone: boolean;
}

/**
 * Longest partial line kept between chunks. A `[DONE]` line is a dozen characters; anything
 * longer is some other event, so only its start is needed (and memory stays bounded however long
 * the server's lines are).
 */
const MAX_PENDING_CHARS = 64;

const DONE_LINE = /^data:\s*\[DONE\]\s*$/;

/** A fetch that behaves like `fetchImplementation` and records `[DONE]` in `watch`. */
export function streamEndWatchingFetch(
  fetchImplementation: typeof fetch,
  watch: StreamEndWatch,
): typeof fetch {
  return async (input, init) => {
    const response = await fetchImplementation(input, init);
    if (response.body === null) return response;
    const decoder = new TextDecoder();
    let pending = '';
    const inspect = (text: string): void => {
      const lines = (pending + text).split(/\r\n|\r|\n/);
      pending = (lines.pop() ?? '').slice(0, MAX_PENDING_CHARS);
      if (lines.some((line) => DONE_LINE.test(line))) watch.sawDone = true;
    };
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          inspect(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
        flush() {
          // A last line without its line break still counts.
          inspect(`${decoder.decode()}\n`);
        },
      }),
    );
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
