/**
 * Reading request bodies without trusting them: a declared Content-Length over the limit is
 * refused before a byte is read, the bytes actually received are counted while streaming (a
 * chunked body has no declared length), and a client that stops sending is timed out.
 */
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/** JSON bodies carry at most 1 MiB of code plus JSON escaping; 2 MiB leaves room for both. */
export const JSON_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * How long a body may go without a new byte. The server has no overall request timeout (an
 * exec may legitimately take ten minutes), so a stalled upload is cut by this instead.
 */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

function tooLarge(limitBytes: number): HttpError {
  return new HttpError(413, 'too-large', `The request body exceeds ${limitBytes} bytes.`);
}

function stalled(idleTimeoutMs: number): HttpError {
  return new HttpError(
    408,
    'request-timeout',
    `No request body bytes arrived for ${Math.round(idleTimeoutMs / 1000)} s.`,
  );
}

function incomplete(): HttpError {
  return new HttpError(400, 'bad-request', 'The request body was not received completely.');
}

/** The declared Content-Length, or null for a chunked body or none. */
export function declaredLength(request: IncomingMessage): number | null {
  const header = request.headers['content-length'];
  // Node's parser has already rejected malformed and conflicting Content-Length headers.
  return header === undefined ? null : Number(header);
}

/** Throws 413 when the declared Content-Length is over the limit (before reading anything). */
export function checkDeclaredLength(request: IncomingMessage, limitBytes: number): void {
  const length = declaredLength(request);
  if (length !== null && length > limitBytes) throw tooLarge(limitBytes);
}

function readBytes(
  request: IncomingMessage,
  limitBytes: number,
  idleTimeoutMs: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const timer = setTimeout(() => finish(stalled(idleTimeoutMs)), idleTimeoutMs);
    const finish = (error: HttpError | null): void => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('error', onIncomplete);
      request.off('close', onIncomplete);
      if (error === null) resolve(Buffer.concat(chunks, received));
      else reject(error);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limitBytes) {
        finish(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
      timer.refresh();
    };
    const onEnd = (): void => finish(null);
    // 'close' before 'end' means the client went away mid-body.
    const onIncomplete = (): void => finish(incomplete());
    request.on('data', onData).on('end', onEnd).on('error', onIncomplete).on('close', onIncomplete);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body as a JSON object. The Content-Type is not checked (curl sends a form type by
 * default); an empty body counts as `{}`. Non-UTF-8, non-JSON and non-object JSON get 400,
 * more than `limitBytes` gets 413 with at most `limitBytes` buffered.
 */
export async function readJsonObject(
  request: IncomingMessage,
  limitBytes: number = JSON_BODY_LIMIT_BYTES,
  idleTimeoutMs: number = DEFAULT_BODY_IDLE_TIMEOUT_MS,
): Promise<Record<string, unknown>> {
  checkDeclaredLength(request, limitBytes);
  const bytes = await readBytes(request, limitBytes, idleTimeoutMs);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new HttpError(400, 'bad-request', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'bad-request', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'bad-request', 'The request body must be a JSON object.');
  }
  // JSON.parse only ever produces plain objects here.
  return Object.fromEntries(Object.entries(value));
}

/**
 * A pass-through that fails with 413 once more than `limitBytes` have flowed through it and
 * with 408 when no byte arrives for `idleTimeoutMs`. `failure` tells the handler which of the
 * two cut the stream, whatever error the consumer then reports.
 */
export class BodyGuard extends Transform {
  failure: HttpError | null = null;
  private received = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly limitBytes: number,
    private readonly idleTimeoutMs: number,
  ) {
    super();
    this.timer = setTimeout(() => this.fail(stalled(this.idleTimeoutMs)), this.idleTimeoutMs);
  }

  get bytesReceived(): number {
    return this.received;
  }

  private fail(error: HttpError): void {
    if (this.failure === null) this.failure = error;
    this.destroy(error);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limitBytes) {
      this.failure ??= tooLarge(this.limitBytes);
      callback(this.failure);
      return;
    }
    this.timer.refresh();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    clearTimeout(this.timer);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    callback(error);
  }
}

/**
 * Pipes the request body into `guard`, and destroys the guard when the client goes away before
 * the body ended, so whoever consumes the guard sees an error instead of a short, "complete" file.
 */
export function pipeBodyInto(request: IncomingMessage, guard: BodyGuard): void {
  const onIncomplete = (): void => {
    if (!request.complete) guard.destroy(incomplete());
  };
  request.once('error', onIncomplete).once('close', onIncomplete);
  request.pipe(guard);
}
