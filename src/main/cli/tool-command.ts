/**
 * `aivory tool NAME JSON`: one built-in tool, run with the same validation, timeout and public
 * errors as inside a turn. Prints the tool's output; exit 1 when the tool reports an error.
 */
import { parseArgs } from 'node:util';
import { executeTool } from '../core/orchestrator/execute-tool';
import { parseNativeArguments } from '../core/orchestrator/text-call-json';
import type { AppContext } from '../services/app-context';
import { BACKEND_TOOLS } from '../services/tool-preparation';
import { EXIT_CANCELED, EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

export async function toolCommand(argv: string[], context: AppContext, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { conversation: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [name, ...rest] = positionals;
  if (!name) throw usageError('Usage: aivory tool NAME JSON (see `aivory tools` for names).');
  await context.prepareTools([name]);
  const [tool] = context.tools.select([name]);
  if (!tool) throw usageError(`Unknown tool "${name}".`);
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
  await context.prepareTools();
  const available = new Set(context.tools.available().map((tool) => tool.name));
  for (const tool of context.tools.all()) {
    const state = available.has(tool.name) ? 'available' : 'switched off';
    io.stdout(`${tool.name}\t${state}\t${tool.description.split('. ')[0] ?? ''}\n`);
  }
  for (const name of BACKEND_TOOLS) {
    const reason = await context.toolStatus(name);
    if (reason !== null) io.stdout(`${name}\thidden\t${reason}\n`);
  }
  return EXIT_OK;
}
