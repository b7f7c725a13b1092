/**
 * Tools for orchestrator tests: they implement the Tool port and record what they were asked,
 * so tests can assert on what really ran. Names may reuse built-in names to exercise their caps.
 */
import type { Tool, ToolOutput } from '../../src/main/core/ports';

export interface RecordingTool extends Tool {
  calls: Record<string, unknown>[];
}

/** Echoes its arguments (or returns `output` when given). */
export function echoTool(
  name: string,
  options: { output?: (args: Record<string, unknown>) => ToolOutput; timeoutMs?: number } = {},
): RecordingTool {
  const calls: Record<string, unknown>[] = [];
  return {
    name,
    description: `Test tool ${name}.`,
    inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
    timeoutMs: options.timeoutMs ?? 5_000,
    calls,
    execute: (args) => {
      const record = Object.fromEntries(Object.entries(args ?? {}));
      calls.push(record);
      return Promise.resolve(
        options.output?.(record) ?? { content: `${name} got ${JSON.stringify(record)}` },
      );
    },
  };
}

/** Throws an error whose message must never reach the model. */
export function throwingTool(name: string, message: string): RecordingTool {
  const calls: Record<string, unknown>[] = [];
  return {
    name,
    description: `Failing tool ${name}.`,
    inputSchema: { type: 'object' },
    timeoutMs: 5_000,
    calls,
    execute: (args) => {
      calls.push(Object.fromEntries(Object.entries(args ?? {})));
      return Promise.reject(new Error(message));
    },
  };
}

/**
 * Never finishes unless aborted; reports whether it saw the abort, and `whenStarted()` resolves
 * once a call is running (so a test can cancel during the call without guessing a delay).
 */
export function hangingTool(
  name: string,
  timeoutMs: number,
): RecordingTool & { sawAbort: () => boolean; whenStarted: () => Promise<void> } {
  const calls: Record<string, unknown>[] = [];
  let aborted = false;
  let markStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    name,
    description: `Hanging tool ${name}.`,
    inputSchema: { type: 'object' },
    timeoutMs,
    calls,
    sawAbort: () => aborted,
    whenStarted: () => started,
    execute: (args, context) => {
      calls.push(Object.fromEntries(Object.entries(args ?? {})));
      return new Promise((_, reject) => {
        context.signal.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('aborted'));
        });
        markStarted();
      });
    },
  };
}
