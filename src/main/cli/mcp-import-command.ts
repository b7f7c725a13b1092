/**
 * `aivory mcp import FILE|-`, `aivory mcp export [--file F]` and the rest of `aivory mcp add …
 * --enable`: the configs users already have, in and out, and one flow from a command or URL to
 * an enabled service. The plan is printed before anything is saved; secrets go to the secret
 * store (through `McpServices.add`), and export leaves them out.
 */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { AivoryError } from '../../shared/errors';
import type { AppContext } from '../composition/app-context';
import { describeChange } from '../services/mcp/mcp-diff';
import type { McpImportPlan } from '../services/mcp/mcp-config-import';
import { MAX_IMPORT_BYTES, planMcpImport } from '../services/mcp/mcp-config-import';
import { EXPORT_SECRET_PLACEHOLDER, exportMcpConfig } from '../services/mcp/mcp-config-export';
import { importServices } from '../services/mcp/mcp-import';
import { revealInvisibleCharacters } from '../../shared/untrusted-text';
import { shellWord } from './cli-args';
import { EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

export const IMPORT_USAGE = `Usage: aivory mcp import FILE|- [--yes] [--enable] [--input ID=VALUE]… [--allow-loader-env SERVICE:VAR]…
  FILE: claude_desktop_config.json, .mcp.json, .cursor/mcp.json or .vscode/mcp.json (- reads standard input)
  --allow-loader-env SERVICE:VAR keeps a loader variable (NODE_OPTIONS, LD_PRELOAD…) for that service`;

/** "1 tool", "3 tools". */
export function toolCount(count: number): string {
  return `${count} ${count === 1 ? 'tool' : 'tools'}`;
}

export async function mcpImport(
  file: string | undefined,
  flags: {
    yes: boolean;
    enable: boolean;
    input: readonly string[];
    allowLoaderEnv?: readonly string[];
  },
  context: AppContext,
  io: CliIo,
  signal: AbortSignal,
): Promise<number> {
  if (file === undefined) throw usageError(IMPORT_USAGE);
  const text = readBounded(file);
  const options = {
    existingNames: context.stores.mcp.listServices().map((service) => service.name),
    env: io.env,
    allowLocalCommands: context.settings.get('mcp').allowLocalCommands,
    allowLoaderEnv: parseLoaderFlags(flags.allowLoaderEnv ?? []),
  };
  const first = planMcpImport(text, options);
  const inputs = await answerInputs(first, parseInputFlags(flags.input), io, signal);
  const plan = planMcpImport(text, { ...options, inputs });
  printPlan(plan, io);
  const ready = plan.entries.filter((entry) => entry.missingInputs.length === 0);
  if (ready.length === 0) {
    io.stdout('Nothing to import.\n');
    return plan.skipped.length > 0 || plan.entries.length > 0 ? EXIT_FAILED : EXIT_OK;
  }
  if (!flags.yes) {
    if (!io.ask) throw usageError('Add --yes to import without a terminal to confirm on.');
    const answer = await io.ask(
      `Import ${ready.length} ${ready.length === 1 ? 'service' : 'services'}? [y/N] `,
      signal,
    );
    if (answer.trim().toLowerCase() !== 'y') {
      io.stdout('Nothing imported.\n');
      return EXIT_OK;
    }
  }
  const results = await importServices(context.mcp, ready, {
    signal: () => signal,
    onResult: (result) =>
      io.stdout(
        !result.ok
          ? `✗ ${result.name}: failed: ${result.message}\n`
          : flags.enable
            ? `✓ ${result.name}: ok, ${toolCount(result.toolCount)}\n`
            : `✓ ${result.name}: ok, ${toolCount(result.toolCount)} held for review (aivory mcp diff ${shellWord(result.name)}, then accept and enable)\n`,
      ),
  });
  const imported = results.filter((result) => result.ok).map((result) => result.name);
  if (flags.enable && imported.length > 0) {
    await reviewAndEnable(imported, flags.yes, context, io, signal);
  }
  return results.every((result) => result.ok) ? EXIT_OK : EXIT_FAILED;
}

/**
 * `import --enable`: one review for every imported service — each one's tools listed as the
 * sync found them — then one question (none with --yes) to accept them all and enable the
 * services. Refused, or with no terminal to ask on, they stay imported and held for review.
 */
async function reviewAndEnable(
  names: readonly string[],
  yes: boolean,
  context: AppContext,
  io: CliIo,
  signal: AbortSignal,
): Promise<void> {
  const services = context.mcp;
  let tools = 0;
  for (const name of names) {
    const changes = services.diff(name);
    tools += changes.length;
    io.stdout(`\n${name}: ${toolCount(changes.length)}\n`);
    for (const change of changes) io.stdout(`${describeChange(change)}\n`);
  }
  const what = `the ${toolCount(tools)} of ${names.length} ${names.length === 1 ? 'service' : 'services'}`;
  if (!yes) {
    if (!io.ask) {
      io.stdout(
        `\nNot enabled: no terminal to confirm on. Review with aivory mcp diff NAME, then aivory mcp accept NAME and aivory mcp enable NAME (or import with --enable --yes).\n`,
      );
      return;
    }
    const answer = await io.ask(`\nAccept ${what} and enable them? [y/N] `, signal);
    if (answer.trim().toLowerCase() !== 'y') {
      io.stdout('Not enabled: the tools stay held for review (aivory mcp diff NAME).\n');
      return;
    }
  }
  for (const name of names) {
    services.accept(name);
    services.setEnabled(name, true);
  }
  io.stdout(`Accepted ${what}; enabled: ${names.join(', ')}.\n`);
}

/**
 * `--allow-loader-env SERVICE:VAR` flags, by service name. The variable is what follows the last
 * colon (a variable name has none; a service name may).
 */
function parseLoaderFlags(flags: readonly string[]): Record<string, string[]> {
  const allowed: Record<string, string[]> = {};
  for (const flag of flags) {
    const colon = flag.lastIndexOf(':');
    const service = flag.slice(0, Math.max(colon, 0));
    const variable = flag.slice(colon + 1).trim();
    if (colon < 1 || variable === '')
      throw usageError(
        `--allow-loader-env looks like SERVICE:VAR (got "${flag.slice(0, 60)}"), e.g. memory:NODE_OPTIONS.`,
      );
    (allowed[service] ??= []).push(variable);
  }
  return allowed;
}

/** `--input id=value` flags as answers. */
function parseInputFlags(flags: readonly string[]): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    if (equals < 1) throw usageError(`--input looks like ID=VALUE (got "${flag.slice(0, 40)}").`);
    answers[flag.slice(0, equals)] = flag.slice(equals + 1);
  }
  return answers;
}

/**
 * Each `${input:…}` the planned entries use: a `--input` answer, else asked on a terminal (hidden
 * when the file marks it a password; Enter takes its default), else its default. Unanswered, the
 * entries needing it are skipped with that reason.
 */
async function answerInputs(
  plan: McpImportPlan,
  given: Record<string, string>,
  io: CliIo,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const answers = { ...given };
  for (const input of plan.inputs) {
    if (answers[input.id] !== undefined) continue;
    const ask = input.password ? (io.askHidden ?? null) : (io.ask ?? null);
    if (ask !== null) {
      const choices = input.options ? ` (${input.options.join(' / ')})` : '';
      const fallback = input.default !== null && !input.password ? ` [${input.default}]` : '';
      const answer = await ask(`${input.description}${choices}${fallback}: `, signal);
      if (answer !== '') answers[input.id] = answer;
      else if (input.default !== null) answers[input.id] = input.default;
    } else if (input.default !== null) answers[input.id] = input.default;
  }
  return answers;
}

function printPlan(plan: McpImportPlan, io: CliIo): void {
  const ready = plan.entries.filter((entry) => entry.missingInputs.length === 0);
  const skipped = plan.skipped.length + plan.entries.length - ready.length;
  io.stdout(
    `${plan.shape === 'vscode' ? 'VS Code config (servers)' : 'mcpServers config (Claude Desktop, .mcp.json, Cursor)'}: ${ready.length} to add, ${skipped} skipped.\n`,
  );
  for (const entry of plan.entries) {
    if (entry.missingInputs.length > 0) {
      io.stdout(
        `  - ${entry.name}: skipped: no value for ${entry.missingInputs.map((id) => `\${input:${id}}`).join(', ')} (give --input ID=VALUE, or run on a terminal)\n`,
      );
      continue;
    }
    // What will run, in full: hidden characters written out, so nothing hides in the line.
    // Secret parts of the URL or arguments masked (they go to the secret store).
    const where =
      entry.shownUrl ??
      [
        revealInvisibleCharacters(shellWord(entry.command ?? '')),
        ...entry.shownArgs.map(shellWord),
      ].join(' ');
    io.stdout(`  + ${entry.name}\t${entry.transport}\t${where}\n`);
    for (const value of [...entry.env, ...entry.headers]) {
      io.stdout(
        `      ${entry.env.includes(value) ? 'env' : 'header'} ${value.name} = ${value.shown} (from ${value.from})\n`,
      );
      if (value.loader !== null)
        io.stdout(
          value.allowed
            ? `      ⚠ ${value.name} is a loader variable: ${value.loader}. Allowed for ${entry.name} (--allow-loader-env): the server runs with it.\n`
            : `      ⚠ ${value.name} is a loader variable: ${value.loader}. Refused: left out of ${entry.name}. To keep it: --allow-loader-env ${shellWord(`${entry.name}:${value.name}`)}\n`,
        );
    }
    for (const note of entry.notes) io.stdout(`      note: ${note}\n`);
  }
  for (const skip of plan.skipped) io.stdout(`  - ${skip.name}: skipped: ${skip.reason}\n`);
}

/** The file (or standard input for `-`), at most MAX_IMPORT_BYTES. */
function readBounded(file: string): string {
  let fd: number;
  try {
    fd = file === '-' ? 0 : openSync(file, 'r');
  } catch {
    throw usageError(`Cannot read ${file}.`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      let read: number;
      try {
        read = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        // A non-blocking stdin with nothing yet: try again.
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        throw usageError(`Cannot read ${file === '-' ? 'standard input' : file}.`);
      }
      if (read === 0) break;
      total += read;
      if (total > MAX_IMPORT_BYTES)
        throw new AivoryError(
          'invalid-input',
          `The config is over ${MAX_IMPORT_BYTES / 1024} KiB: not an MCP config.`,
        );
      chunks.push(chunk.subarray(0, read));
    }
  } finally {
    if (file !== '-') closeSync(fd);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `aivory mcp export [--file F]`: the saved services as `mcpServers`, secrets left out. */
export function mcpExport(file: string | undefined, context: AppContext, io: CliIo): number {
  const { config, omitted } = exportMcpConfig(context.stores.mcp.listServices());
  const text = `${JSON.stringify(config, null, 2)}\n`;
  if (file === undefined) io.stdout(text);
  else {
    try {
      writeFileSync(file, text);
    } catch {
      throw usageError(`Cannot write ${file}.`);
    }
    io.stderr(`Wrote ${Object.keys(config.mcpServers).length} services to ${file}.\n`);
  }
  if (omitted.length > 0)
    io.stderr(
      `Note: secrets are not exported. ${omitted.length} ${omitted.length === 1 ? 'value reads' : 'values read'} "${EXPORT_SECRET_PLACEHOLDER}" (${omitted.join(', ')}); fill them in before using the file.\n`,
    );
  return EXIT_OK;
}

/**
 * The rest of `aivory mcp add … --enable`: test, sync, show the tools, accept (asked on a
 * terminal unless --yes), enable. A refusal leaves the service added and synced, not enabled.
 */
export async function enableAfterAdd(
  name: string,
  yes: boolean,
  context: AppContext,
  io: CliIo,
  signal: AbortSignal,
): Promise<number> {
  const services = context.mcp;
  const word = shellWord(name);
  const tested = await services.test(name, signal);
  io.stdout(`${tested.ok ? '✓ connected' : '✗ connection error'}: ${tested.message}\n`);
  if (!tested.ok) return EXIT_FAILED;
  const synced = await services.sync(name, { accept: false, signal });
  io.stdout(`Found ${toolCount(synced.toolCount)}:\n`);
  for (const change of synced.changes) io.stdout(`${describeChange(change)}\n`);
  if (!yes) {
    if (!io.ask) {
      io.stdout(
        `Not enabled: no terminal to confirm on. Review with aivory mcp diff ${word}, then aivory mcp accept ${word} and aivory mcp enable ${word} (or add with --yes).\n`,
      );
      return EXIT_OK;
    }
    const answer = await io.ask(`Accept these tools and enable ${name}? [y/N] `, signal);
    if (answer.trim().toLowerCase() !== 'y') {
      io.stdout(`Not enabled. Later: aivory mcp accept ${word}, then aivory mcp enable ${word}.\n`);
      return EXIT_OK;
    }
  }
  services.accept(name);
  services.setEnabled(name, true);
  io.stdout(`Accepted ${toolCount(synced.toolCount)}; ${name} is enabled.\n`);
  return EXIT_OK;
}
