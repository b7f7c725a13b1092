/**
 * The `aivory` command: parses the subcommand, opens the shared data directory, runs it. Each
 * command's module (and the app context behind it) is imported only when that command runs, so
 * `aivory --help` loads almost nothing and `aivory tools` no model or MCP SDK.
 */
import { StorageError, toPublicError } from '../../shared/errors';
import type { AppContext, openAppContext } from '../composition/app-context';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, exitCodeFor, nativeModuleError } from './cli-errors';
import type { CliIo } from './cli-io';
import { HELP_TEXT } from './help';

const COMMANDS = [
  'chat',
  'tool',
  'tools',
  'conversations',
  'models',
  'settings',
  'sandbox',
  'doctor',
  'skills',
  'prompts',
  'memories',
  'serve',
  'mcp',
  'backup',
  'knowledge',
] as const;

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(HELP_TEXT);
    return command === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const known = COMMANDS.find((name) => name === command);
  if (known === undefined) {
    io.stderr(`aivory: unknown command "${command}". Run aivory --help.\n`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(HELP_TEXT);
    return EXIT_OK;
  }
  let context: AppContext | null = null;
  let code: number;
  /** True while the app context opens: a failure then has no log to point to. */
  let opening = false;
  const open = async (options: Parameters<typeof openAppContext>[0]): Promise<AppContext> => {
    const { openAppContext } = await import('../composition/app-context');
    opening = true;
    context = openAppContext(options);
    opening = false;
    return context;
  };
  try {
    // The sidecar needs no data directory: it may run alone on another host. Resetting a
    // conversation's workspace goes through the app's sandbox (settings, the local sidecar).
    if (known === 'sandbox' && rest[0] === 'reset-workspace') {
      const opened = await open({ env: io.env, signInLinkSeen: io.ask !== undefined });
      code = await (await import('./sandbox-command')).resetWorkspace(rest.slice(1), opened, io);
    } else if (known === 'backup' && rest[0] === 'restore') {
      // A restore replaces the database the app context would hold open: it runs without one.
      return await (await import('./backup-command')).restoreCommand(rest, io);
    } else if (known === 'sandbox') {
      return await (await import('./sandbox-command')).sandboxCommand(rest, io);
    } else if (known === 'serve') {
      // serve opens the app itself, once its page is being served (the browser loads it
      // meanwhile). It is long-running like the desktop app: one sandbox container kept warm,
      // and it makes the automatic backups.
      const { serveCommand } = await import('./serve-command');
      code = await serveCommand(rest, io, () =>
        open({ env: io.env, warmPool: 1, scheduleBackups: true }),
      );
    } else {
      // Without a terminal (io.ask absent) nobody can open a printed sign-in link by hand.
      const opened = await open({ env: io.env, signInLinkSeen: io.ask !== undefined });
      code = await runCommand(known, rest, opened, io);
    }
  } catch (thrown) {
    const error = nativeModuleError(thrown) ?? thrown;
    if (opening) return await startupFailed(known, rest, error, io);
    const publicError = toPublicError(error);
    const message =
      publicError.code === 'internal' && error instanceof TypeError && 'code' in error
        ? error.message
        : publicError.message;
    (context as AppContext | null)?.logger.error('cli command failed', {
      command,
      error: String(error),
    });
    io.stderr(`aivory: ${message}\n`);
    code = exitCodeFor(publicError.code);
  }
  // Workspaces the sandbox could not save (their containers are kept): said, and a failure.
  const warnings = (await (context as AppContext | null)?.close()) ?? [];
  for (const warning of warnings) io.stderr(`aivory: ${warning}\n`);
  return warnings.length > 0 && code === EXIT_OK ? EXIT_FAILED : code;
}

/**
 * The app did not open (a read-only folder, a full disk, a locked or damaged database): the one
 * line that says what and where (the log was never opened, so it is not mentioned); `aivory
 * doctor` shows its database check with the steps to recover instead.
 */
async function startupFailed(
  command: (typeof COMMANDS)[number],
  rest: string[],
  error: unknown,
  io: CliIo,
): Promise<number> {
  const [{ resolveDataDir }, { startupFailure }] = await Promise.all([
    import('../adapters/data-dir'),
    import('../services/startup-failure'),
  ]);
  if (command === 'doctor' && error instanceof StorageError) {
    const { doctorWithoutStore } = await import('./doctor-command');
    return doctorWithoutStore(error, io, rest.includes('--json'));
  }
  const failure = startupFailure(error, resolveDataDir(io.env));
  io.stderr(`aivory: ${failure.message}\n`);
  return exitCodeFor(failure.code);
}

/** Loads the command's module and runs it. */
async function runCommand(
  command: Exclude<(typeof COMMANDS)[number], 'sandbox' | 'serve'>,
  rest: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  switch (command) {
    case 'chat':
      return (await import('./chat-command')).chatCommand(rest, context, io);
    case 'tool':
      return (await import('./tool-command')).toolCommand(rest, context, io);
    case 'tools':
      return (await import('./tool-command')).toolsCommand(context, io);
    case 'conversations':
      return (await import('./conversations-command')).conversationsCommand(rest, context, io);
    case 'settings':
      return (await import('./settings-command')).settingsCommand(rest, context, io);
    case 'doctor':
      return (await import('./doctor-command')).doctorCommand(rest, context, io);
    case 'skills':
      return (await import('./skills-command')).skillsCommand(rest, context, io);
    case 'prompts':
      return (await import('./prompts-command')).promptsCommand(rest, context, io);
    case 'mcp':
      return (await import('./mcp-command')).mcpCommand(rest, context, io);
    case 'memories':
      return (await import('./memories-command')).memoriesCommand(rest, context, io);
    case 'models':
      return (await import('./models-command')).modelsCommand(rest, context, io);
    case 'backup':
      return (await import('./backup-command')).backupCommand(rest, context, io);
    case 'knowledge':
      return (await import('./knowledge-command')).knowledgeCommand(rest, context, io);
  }
}
