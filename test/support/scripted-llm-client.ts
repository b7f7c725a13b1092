/**
 * An in-memory `LlmClient` (the port in src/main/core/ports.ts) that plays a script: core unit
 * tests drive the real orchestrator with it and no sockets. It streams what an adapter streams for
 * the same script on `scripted-llm-server.ts` — reasoning then text in `chunkSize` pieces, each
 * native call as a first delta with id and name then its arguments in pieces, one `finish` chunk,
 * the text cut at the request's stop sequences — and fails the way the port says an adapter fails
 * (an `AivoryError` with a public one-line message; an abort error when the signal aborts).
 *
 * What goes over the wire (the OpenAI format, SSE, HTTP errors) is the adapter's business and is
 * tested through the real adapter against the HTTP server in test/integration.
 */
import type { LlmChunk, LlmClient, LlmRequest } from '../../src/main/core/ports';
import { AivoryError } from '../../src/shared/errors';
import type { LlmScript, ScriptedResponse } from './llm-script';
import { chunkWait, exhaustedMessage, planCompletion, scriptedResponse } from './llm-script';

export type ClientScript = LlmScript<LlmRequest>;

export class ScriptedLlmClient implements LlmClient {
  /** Every request, deep-copied when it was made, in order. */
  readonly requests: LlmRequest[] = [];
  private aborted = 0;
  private readonly abortWaiters: { count: number; resolve: () => void }[] = [];

  constructor(private readonly script: ClientScript) {}

  /** Streams that ended before their last chunk because the caller aborted or stopped reading. */
  abortedStreams(): number {
    return this.aborted;
  }

  /** Resolves once at least `count` streams were abandoned by their caller. */
  whenAborted(count = 1): Promise<void> {
    if (count <= this.aborted) return Promise.resolve();
    return new Promise((resolve) => this.abortWaiters.push({ count, resolve }));
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    if (signal.aborted) throw canceledError(signal.reason);
    const index = this.requests.length;
    this.requests.push(structuredClone(request));
    const scripted = this.respond(request, index);
    const plan = planCompletion(scripted, request.stop ?? [], index);
    // Position 0 stands for the role-only first chunk a server sends, so `hangAfterChunks`
    // counts the same chunks here as on the HTTP server.
    const chunks: (LlmChunk | null)[] = [
      null,
      ...plan.reasoningPieces.map((text): LlmChunk => ({ type: 'reasoning', text })),
      ...plan.contentPieces.map((text): LlmChunk => ({ type: 'text', text })),
      ...plan.toolCalls.flatMap((call, position): LlmChunk[] => [
        { type: 'tool-call-delta', index: position, id: call.id, name: call.name },
        ...call.pieces.map((argumentsDelta): LlmChunk => ({
          type: 'tool-call-delta',
          index: position,
          argumentsDelta,
        })),
      ]),
      // Usage only when the script gives it (the HTTP server always reports a rough count).
      ...(scripted.usage
        ? [
            {
              type: 'usage' as const,
              inputTokens: scripted.usage.prompt_tokens ?? 0,
              outputTokens: scripted.usage.completion_tokens ?? 0,
            },
          ]
        : []),
      { type: 'finish', reason: plan.finishReason },
    ];
    let completed = false;
    try {
      const startedAt = Date.now();
      for (const [position, chunk] of chunks.entries()) {
        if (scripted.hangAfterChunks !== undefined && position >= scripted.hangAfterChunks) {
          await untilAborted(signal);
        }
        if (scripted.pauseAfterChunks?.count === position) {
          await Promise.race([
            scripted.pauseAfterChunks.until.then(
              () => undefined,
              () => undefined,
            ),
            untilAborted(signal),
          ]);
        }
        const wait = chunkWait(scripted, position, startedAt, Date.now());
        if (wait > 0) await abortableSleep(wait, signal);
        if (signal.aborted) throw canceledError(signal.reason);
        if (chunk) yield chunk;
      }
      completed = true;
    } finally {
      if (!completed) this.countAbort();
    }
  }

  private respond(request: LlmRequest, index: number): ScriptedResponse {
    let scripted: ScriptedResponse | undefined;
    try {
      scripted = scriptedResponse(this.script, request, index);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new AivoryError('provider', `Scripted LLM client: the script threw: ${message}`);
    }
    if (scripted === undefined) {
      throw new AivoryError(
        'provider',
        `Scripted LLM client: ${exhaustedMessage(this.script, index)}`,
      );
    }
    if (scripted.status !== undefined && scripted.status !== 200) {
      const status = scripted.status;
      const detail = scripted.errorMessage ?? `Scripted error (HTTP ${status})`;
      // The codes the port's adapters use: a rejected key is `auth`, anything else `provider`.
      if (status === 401 || status === 403) {
        throw new AivoryError('auth', `The model server rejected the API key (HTTP ${status})`);
      }
      throw new AivoryError('provider', `The scripted model returned HTTP ${status}: ${detail}`);
    }
    return scripted;
  }

  private countAbort(): void {
    this.aborted += 1;
    for (const waiter of this.abortWaiters.filter((entry) => entry.count <= this.aborted)) {
      this.abortWaiters.splice(this.abortWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}

/** The error the port promises on abort: one for which `isAbortError()` is true. */
function canceledError(reason: unknown): Error {
  const error = new Error('The model request was canceled.', { cause: reason });
  error.name = 'AbortError';
  return error;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

function abortableSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal.addEventListener('abort', done, { once: true });
  });
}
