/** The `aivory` command: parses the subcommand, opens the shared data directory, runs it. */
import { toPublicError } from '../../shared/errors';
import { openAppContext } from '../services/app-context';
import { chatCommand } from './chat-command';
import { EXIT_OK, EXIT_USAGE, exitCodeFor } from './cli-errors';
import type { CliIo } from './cli-io';
import { conversationsCommand } from './conversations-command';
import { doctorCommand } from './doctor-command';
import { HELP_TEXT } from './help';
import { mcpCommand } from './mcp-command';
import { memoriesCommand } from './memories-command';
import { modelsCommand } from './models-command';
import { promptsCommand } from './prompts-command';
import { sandboxCommand } from './sandbox-command';
import { serveCommand } from './serve-command';
import { settingsCommand } from './settings-command';
import { skillsCommand } from './skills-command';
import { toolCommand, toolsCommand } from './tool-command';

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
] as const;

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(HELP_TEXT);
    return command === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (!COMMANDS.some((known) => known === command)) {
    io.stderr(`aivory: unknown command "${command}". Run aivory --help.\n`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(HELP_TEXT);
    return EXIT_OK;
  }
  let context: ReturnType<typeof openAppContext> | null = null;
  try {
    // The sidecar needs no data directory: it may run alone on another host.
    if (command === 'sandbox') return await sandboxCommand(rest, io);
    // `serve` is long-running like the desktop app: it keeps one sandbox container warm.
    context = openAppContext({ env: io.env, ...(command === 'serve' ? { warmPool: 1 } : {}) });
    switch (command) {
      case 'chat':
        return await chatCommand(rest, context, io);
      case 'tool':
        return await toolCommand(rest, context, io);
      case 'tools':
        return await toolsCommand(context, io);
      case 'conversations':
        return conversationsCommand(rest, context, io);
      case 'settings':
        return await settingsCommand(rest, context, io);
      case 'doctor':
        return await doctorCommand(rest, context, io);
      case 'skills':
        return await skillsCommand(rest, context, io);
      case 'prompts':
        return await promptsCommand(rest, context, io);
      case 'mcp':
        return await mcpCommand(rest, context, io);
      case 'memories':
        return await memoriesCommand(rest, context, io);
      case 'serve':
        return await serveCommand(rest, context, io);
      default:
        return await modelsCommand(rest, context, io);
    }
  } catch (error) {
    const publicError = toPublicError(error);
    const message =
      publicError.code === 'internal' && error instanceof TypeError && 'code' in error
        ? error.message
        : publicError.message;
    context?.logger.error('cli command failed', { command, error: String(error) });
    io.stderr(`aivory: ${message}\n`);
    return exitCodeFor(publicError.code);
  } finally {
    await context?.close();
  }
}
