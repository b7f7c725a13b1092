/**
 * `aivory mcp complete SERVICE prompt NAME ARG [PREFIX]` / `complete SERVICE resource TEMPLATE ARG
 * [PREFIX]` (the server's suggestions for an argument, one a line; `--context k=v` gives the
 * other arguments) and `aivory mcp resource SERVICE URI --watch [--count N]` (the resource, then
 * again after each change the server announces, until Ctrl-C or N changes).
 */
import type { McpResourceContents } from '../core/ports';
import type { AppContext } from '../composition/app-context';
import type { McpWatchEvent } from '../services/mcp/mcp-resource-watch';
import { EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

export const COMPLETE_USAGE =
  'Usage: aivory mcp complete SERVICE prompt NAME ARG [PREFIX] | complete SERVICE resource TEMPLATE ARG [PREFIX] [--context k=v]… [--json]';

/** Prints the server's suggestions for one argument of a prompt or resource template. */
export async function mcpComplete(
  context: AppContext,
  io: CliIo,
  service: string | undefined,
  rest: readonly string[],
  options: { json: boolean; context: readonly string[] },
  signal: AbortSignal,
): Promise<number> {
  const [kind, target, argument, prefix = ''] = rest;
  if (
    service === undefined ||
    (kind !== 'prompt' && kind !== 'resource') ||
    !target ||
    !argument ||
    rest.length > 4
  )
    throw usageError(COMPLETE_USAGE);
  const others = Object.fromEntries(
    options.context.map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 1) throw usageError(`--context looks like key=value (got "${pair}").`);
      return [pair.slice(0, equals), pair.slice(equals + 1)];
    }),
  );
  const completion = await context.mcp.complete(
    service,
    kind === 'prompt' ? { type: 'prompt', name: target } : { type: 'resource', uri: target },
    { name: argument, value: prefix },
    others,
    signal,
  );
  if (options.json) {
    io.stdout(`${JSON.stringify(completion)}\n`);
    return EXIT_OK;
  }
  for (const value of completion.values) io.stdout(`${value}\n`);
  if (completion.values.length === 0) io.stderr('No suggestions.\n');
  else if (completion.hasMore)
    io.stderr(
      completion.total === null
        ? 'The server has more; type more of the value.\n'
        : `${completion.values.length} of ${completion.total}; type more of the value.\n`,
    );
  return EXIT_OK;
}

/**
 * Prints the resource, subscribes, and prints it again after each change (`--count N`: stops
 * after N changes) until Ctrl-C or the watch ends; a line on stderr marks each change.
 */
export async function mcpWatchResource(
  context: AppContext,
  io: CliIo,
  service: string,
  uri: string,
  options: { count: number | null; print: (contents: McpResourceContents) => Promise<void> },
  signal: AbortSignal,
): Promise<number> {
  const { mcp } = context;
  const events: McpWatchEvent[] = [];
  let wake: (() => void) | null = null;
  const listener = (event: McpWatchEvent): void => {
    events.push(event);
    wake?.();
  };
  const watchId = await mcp.watchResource(service, uri, listener, signal);
  try {
    // The content as of the subscription: every change after it is announced.
    await options.print(await mcp.readResourceContents(service, uri, signal));
    io.stderr(`Watching ${uri} for changes (Ctrl-C stops).\n`);
    let changes = 0;
    while (options.count === null || changes < options.count) {
      const event =
        events.shift() ??
        (await next(signal, events, (resolve) => {
          wake = resolve;
        }));
      wake = null;
      if (event === null) return EXIT_OK;
      if (event.kind === 'ended') {
        io.stderr(`The watch ended: ${event.reason}\n`);
        return EXIT_FAILED;
      }
      changes++;
      io.stderr(`— changed (${new Date().toLocaleTimeString()})\n`);
      await options.print(await mcp.readResourceContents(service, uri, signal));
    }
    return EXIT_OK;
  } finally {
    await mcp.unwatchResource(watchId);
  }
}

/** The next event, or null once `signal` aborts (Ctrl-C). */
function next(
  signal: AbortSignal,
  events: McpWatchEvent[],
  arm: (resolve: () => void) => void,
): Promise<McpWatchEvent | null> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(null);
      return;
    }
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', done);
      resolve(signal.aborted ? null : (events.shift() ?? null));
    };
    signal.addEventListener('abort', done, { once: true });
    arm(done);
  });
}

/** `--count N`: a whole number from 1 to 1000. */
export function watchCount(value: string | undefined): number | null {
  if (value === undefined) return null;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 1000)
    throw usageError(`--count takes a whole number from 1 to 1000 (got "${value}").`);
  return count;
}
