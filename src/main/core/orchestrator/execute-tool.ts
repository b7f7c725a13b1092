/**
 * Runs one tool call with its timeout and the turn's abort signal. Whatever a tool throws, the
 * caller gets one of the seed's three public strings; the real error goes to the log only.
 */
import { isAbortError } from '../../../shared/errors';
import type { Approver, Logger, Tool, ToolOutput, TurnTaint } from '../ports';
import { PUBLIC_ERROR_CANCELED, PUBLIC_ERROR_FAILED, PUBLIC_ERROR_TIMEOUT } from './protocol-text';

export interface ToolExecution {
  output: ToolOutput;
  /** 'canceled' when the turn was aborted, 'timeout' when the tool ran past its limit. */
  outcome: 'ok' | 'error' | 'canceled' | 'timeout';
}

/** Marks the abort reason used when a tool runs past `timeoutMs`. */
class ToolTimeoutError extends Error {
  constructor(name: string, timeoutMs: number) {
    super(`tool ${name} timed out after ${timeoutMs} ms`);
    this.name = 'ToolTimeoutError';
  }
}

export async function executeTool(
  tool: Tool,
  args: Record<string, unknown>,
  options: {
    conversationId: string | null;
    signal: AbortSignal;
    logger: Logger;
    approve?: Approver | undefined;
    /** The turn's id and taint; absent outside a turn. */
    turnId?: string | undefined;
    taint?: TurnTaint | undefined;
  },
): Promise<ToolExecution> {
  const { signal, logger } = options;
  if (signal.aborted) return canceled();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // One promise settles on the first of: the tool's result, its deadline, the turn's abort.
    // Later settlements are no-ops, so a tool that fails after its timeout raises nothing.
    const output = await new Promise<ToolOutput>((resolve, reject) => {
      // The error is built only when the deadline passes: an Error records a stack trace, which
      // is measurable per call (bench/orchestrator) and almost never needed.
      timer = setTimeout(() => {
        const timeoutError = new ToolTimeoutError(tool.name, tool.timeoutMs);
        controller.abort(timeoutError);
        reject(timeoutError);
      }, tool.timeoutMs);
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
        once: true,
      });
      Promise.resolve()
        .then(() =>
          tool.execute(args, {
            conversationId: options.conversationId,
            signal: controller.signal,
            logger,
            ...(options.approve ? { approve: options.approve } : {}),
            ...(options.turnId !== undefined ? { turnId: options.turnId } : {}),
            ...(options.taint ? { taint: options.taint } : {}),
          }),
        )
        .then(resolve, reject);
    });
    return { output, outcome: output.isError ? 'error' : 'ok' };
  } catch (error) {
    if (error instanceof ToolTimeoutError) {
      logger.warn('tool timed out', { tool: tool.name, timeoutMs: tool.timeoutMs });
      return { output: { content: PUBLIC_ERROR_TIMEOUT, isError: true }, outcome: 'timeout' };
    }
    if (signal.aborted || isAbortError(error)) return canceled();
    logger.error('tool failed', { tool: tool.name, error: describe(error) });
    return { output: { content: PUBLIC_ERROR_FAILED, isError: true }, outcome: 'error' };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function canceled(): ToolExecution {
  return { output: { content: PUBLIC_ERROR_CANCELED, isError: true }, outcome: 'canceled' };
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  return String(error);
}
