/**
 * `aivory tool NAME JSON`: one built-in tool, run with the same validation, timeout and public
 * errors as inside a turn. Prints the tool's output; exit 1 when the tool reports an error.
 */
import { executeTool } from '../core/orchestrator/execute-tool';
import { parseNativeArguments } from '../core/orchestrator/text-call-json';
import type { AppContext } from '../composition/app-context';
import { checkNamedTool } from '../services/tool-selection';
import { EXIT_CANCELED, EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

export async function toolCommand(argv: string[], context: AppContext, io: CliIo): Promise<number> {
  // Not an ESM import: `aivory tools` loads this module, and `node:util`'s ESM facade costs it
  // several milliseconds (see adapters/node-http.ts).
  const { parseArgs } = process.getBuiltinModule('node:util');
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { conversation: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [name, ...rest] = positionals;
  if (!name) throw usageError('Usage: aivory tool NAME JSON (see `aivory tools` for names).');
  const candidates = (await context.tools.candidates()).filter(
    (candidate) => candidate.source === 'built-in',
  );
  checkNamedTool(candidates, context.stores.settings.getToolAvailability(), name);
  const [row] = await context.tools.list([name]);
  const tool = row?.tool;
  if (!tool) throw usageError(`Tool "${name}" is not available: ${row?.reason ?? 'unknown'}`);
  const parsed = parseNativeArguments(rest.join(' '));
  if (!parsed.ok) throw usageError(`The arguments are not valid JSON: ${parsed.error}`);
  const invalid = tool.validate?.(parsed.arguments) ?? null;
  if (invalid !== null) throw usageError(`Invalid arguments for ${name}: ${invalid}`);

  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  io.onInterrupt(onInterrupt);
  try {
    const execution = await executeTool(tool, parsed.arguments, {
      conversationId: values.conversation ?? null,
      signal: controller.signal,
      logger: context.logger,
    });
    if (values.json) {
      io.stdout(
        `${JSON.stringify({ tool: name, outcome: execution.outcome, ...execution.output })}\n`,
      );
    } else {
      const text = execution.output.content;
      (execution.outcome === 'ok' ? io.stdout : io.stderr)(
        text.endsWith('\n') ? text : `${text}\n`,
      );
    }
    if (execution.outcome === 'canceled') return EXIT_CANCELED;
    return execution.outcome === 'ok' ? EXIT_OK : EXIT_FAILED;
  } finally {
    io.offInterrupt(onInterrupt);
  }
}

export async function toolsCommand(context: AppContext, io: CliIo): Promise<number> {
  for (const { name, enabled, tool, reason } of await context.tools.list()) {
    const [state, detail] = tool
      ? ['available', tool.description.split('. ')[0] ?? '']
      : [enabled ? 'hidden' : 'switched off', reason ?? ''];
    io.stdout(`${name}\t${state}\t${detail}\n`);
  }
  return EXIT_OK;
}
