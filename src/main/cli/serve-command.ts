/**
 * `aivory serve [--port 5217] [--open]`: the desktop UI in a browser. Serves the built renderer
 * and the IPC contract over a WebSocket on 127.0.0.1, with a per-start token in the printed URL.
 * Runs until Ctrl-C, SIGTERM or SIGHUP (`io.onInterrupt`), then closes the server; the caller closes the AppContext.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AivoryError } from '../../shared/errors';
import { DEFAULT_RENDERER_DIR, listenBrowserHost } from '../host/server/browser-host';
import type { AppContext } from '../composition/app-context';
import { installCrashGuard } from '../host/crash-guard';
import { EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { warmUpWhenIdle } from './idle-warm-up';

/** The default port of `aivory serve` (any free port with --port 0). */
export const DEFAULT_SERVE_PORT = 5217;

/**
 * Runs `aivory serve` until interrupted; returns the exit code. `openContext` opens the app: it
 * is called once the port is bound, so the browser loads the page while the app opens.
 */
export async function serveCommand(
  argv: string[],
  io: CliIo,
  openContext: () => Promise<AppContext>,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: String(DEFAULT_SERVE_PORT) },
      open: { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw usageError('--port must be a port number (0 picks a free one).');
  }
  // bin/aivory.js builds before any command runs; a missing page means a broken install, which
  // must say so rather than serve an empty app.
  if (!existsSync(join(DEFAULT_RENDERER_DIR, 'index.html'))) {
    throw new AivoryError(
      'config',
      `The app's interface is missing (${DEFAULT_RENDERER_DIR}); run npm run build.`,
    );
  }
  // The app opens once the port is bound (a port in use opens nothing).
  let context: AppContext | null = null;
  const host = await listenBrowserHost({
    app: async () => (context = await openContext()),
    env: io.env,
    port,
  });
  io.stdout(`Aivory is running at ${host.url}\nPress Ctrl-C to stop.\n`);
  if (values.open) openInBrowser(host.url);
  try {
    await host.ready;
  } catch (error) {
    await host.close();
    throw error;
  }
  const opened = context as AppContext | null;
  if (!opened) throw new Error('the app did not open');
  const { logger } = opened;
  const warming = warmUpWhenIdle(() => opened.warmUp(), logger);
  let failed = false;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      io.offInterrupt(stop);
      removeGuard();
      resolve();
    };
    // One tool's stray error must not end the session; a burst of them ends it cleanly.
    const removeGuard = installCrashGuard({
      logger,
      notice: (text) => io.stderr(text),
      onFatal: () => {
        io.stderr('aivory: too many internal errors in a minute; stopping (see the log).\n');
        failed = true;
        stop();
      },
    });
    io.onInterrupt(stop);
  });
  warming.stop();
  await host.close();
  return failed ? EXIT_FAILED : EXIT_OK;
}

/**
 * Opens the URL in the user's browser without putting the token on a command line (every local
 * user can read argv with `ps`, and the token gives the whole API): the opener gets the path of a
 * private (0600, in a 0700 folder) page that redirects to the URL; it is removed after a minute or
 * when serve stops. A missing opener is not an error (the URL is printed).
 */
function openInBrowser(url: string): void {
  const { command, args, cleanUp } = prepareBrowserOpen(url, process.platform);
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => cleanUp());
  child.unref();
  setTimeout(cleanUp, 60_000).unref();
  process.once('exit', cleanUp);
}

/** The opener's command line and the private redirect page it opens (exported for tests). */
export function prepareBrowserOpen(
  url: string,
  platform: NodeJS.Platform,
  directory: string = tmpdir(),
): { command: string; args: string[]; page: string; cleanUp: () => void } {
  // mkdtemp makes the folder owner-only (0700).
  const folder = mkdtempSync(join(directory, 'aivory-open-'));
  const page = join(folder, 'open-aivory.html');
  const target = escapeAttribute(url);
  writeFileSync(
    page,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${target}"><title>Aivory</title>` +
      `<a href="${target}">Open Aivory</a>\n`,
    { mode: 0o600 },
  );
  const cleanUp = (): void => rmSync(folder, { recursive: true, force: true });
  const [command, ...args] =
    platform === 'darwin'
      ? ['open', page]
      : platform === 'win32'
        ? ['cmd', '/c', 'start', '""', page]
        : ['xdg-open', page];
  return { command: command ?? 'xdg-open', args, page, cleanUp };
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
