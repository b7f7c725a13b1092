/**
 * Wraps a response body so an untrusted server cannot make the app buffer without bound, and so
 * a body that breaks (socket closed mid-answer, size cap) is reported as an McpError. JSON
 * bodies are capped as a whole; event streams per event (a long-lived stream may carry any
 * number of small events, but no single message may exceed the cap).
 */
import { isAbortError } from '../../../shared/errors';
import { McpError } from '../../core/ports';
import { networkFailure } from './mcp-errors';
import { formatBytes } from '../../../shared/byte-size';

/** How one body is guarded. */
export interface BodyGuardOptions {
  origin: string;
  maxBytes: number;
  /** Count bytes per SSE event (reset at each blank line) instead of in total. */
  perEvent: boolean;
  /** Told when the body fails for any reason but our own abort. */
  onBroken?: (error: McpError) => void;
  /**
   * Told when an event stream ends normally without ever carrying an event id (a stream with
   * ids may be resumed by the transport, so its early end is not final).
   */
  onEndedWithoutId?: () => void;
}

const LF = 0x0a;
const CR = 0x0d;

/** Counts the bytes of the current SSE event; a blank line ends an event. */
export class EventSizeCounter {
  private eventBytes = 0;
  private lineBytes = 0;
  private pendingCr = false;

  /** Adds a chunk; returns the largest event size seen while scanning it. */
  push(chunk: Uint8Array): number {
    let largest = this.eventBytes;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(LF, start);
      if (newline === -1) {
        const rest = chunk.length - start;
        this.lineBytes += rest;
        this.eventBytes += rest;
        if (rest > 0) this.pendingCr = chunk[chunk.length - 1] === CR;
        return Math.max(largest, this.eventBytes);
      }
      const segment = newline - start;
      const endsWithCr = segment > 0 ? chunk[newline - 1] === CR : this.pendingCr;
      const content = this.lineBytes + segment - (endsWithCr ? 1 : 0);
      this.eventBytes += segment + 1;
      largest = Math.max(largest, this.eventBytes);
      if (content === 0) this.eventBytes = 0;
      this.lineBytes = 0;
      this.pendingCr = false;
      start = newline + 1;
    }
  }
}

const ID_FIELD = Buffer.from('\nid:');

/** Watches an event stream for an `id:` field at the start of any line. */
export class EventIdWatch {
  seen = false;
  /** The last bytes of the previous chunk; a newline stands for the start of the stream. */
  private tail: Buffer = Buffer.from('\n');

  push(chunk: Uint8Array): void {
    if (this.seen) return;
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const seam = Buffer.concat([this.tail, buffer.subarray(0, ID_FIELD.length)]);
    this.seen = seam.includes(ID_FIELD) || buffer.includes(ID_FIELD);
    const joined = buffer.length >= 3 ? buffer : Buffer.concat([this.tail, buffer]);
    this.tail = Buffer.from(joined.subarray(-3));
  }
}

function tooLarge(origin: string, maxBytes: number): McpError {
  return new McpError(
    'too-large',
    `${origin} sent a message larger than ${formatBytes(maxBytes)}; refused`,
  );
}

function bodyFailure(error: unknown, origin: string): unknown {
  if (error instanceof McpError || isAbortError(error)) return error;
  return (
    networkFailure(error, origin) ??
    new McpError('disconnected', `${origin} closed the connection in the middle of an answer`)
  );
}

/** The guarded body stream. */
export function guardBody(
  body: ReadableStream<Uint8Array>,
  options: BodyGuardOptions,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const counter = options.perEvent ? new EventSizeCounter() : null;
  const ids = options.perEvent ? new EventIdWatch() : null;
  let total = 0;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: unknown) => {
    const failure = bodyFailure(error, options.origin);
    if (failure instanceof McpError) options.onBroken?.(failure);
    controller.error(failure);
    reader.cancel().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        fail(controller, error);
        return;
      }
      if (chunk.done) {
        controller.close();
        if (ids !== null && !ids.seen) options.onEndedWithoutId?.();
        return;
      }
      ids?.push(chunk.value);
      total += chunk.value.length;
      const size = counter === null ? total : counter.push(chunk.value);
      if (size > options.maxBytes) {
        fail(controller, tooLarge(options.origin, options.maxBytes));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
