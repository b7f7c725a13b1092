/**
 * `aivory sandbox serve | image build | reset-workspace`: the Python sandbox sidecar from the
 * command line. `serve` needs no data directory (it can run alone on another host); the key comes
 * from SANDBOX_API_KEY, or a random one is generated and printed for a loopback-only sidecar.
 * `reset-workspace` runs in the app's context (its sandbox settings, its local sidecar).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadSandboxConfig, startSidecar } from '@aivory/sandbox';
import { SANDBOX_PACKAGE_DIR } from '../adapters/install-layout';
import type { AppContext } from '../composition/app-context';
import { unsavedWorkspaceLine } from '../services/sandbox-manager';
import { resetDamagedWorkspace } from '../services/workspace-reset';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

const BUILD_SCRIPT = join(SANDBOX_PACKAGE_DIR, 'scripts', 'build-image.sh');
const DOCKERFILE = join(SANDBOX_PACKAGE_DIR, 'Dockerfile.runner');
const SANDBOX_DIR = `${SANDBOX_PACKAGE_DIR}/`;
const DEFAULT_IMAGE = 'aivory-runner:latest';

export async function sandboxCommand(argv: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = argv;
  if (action === 'serve') return serve(rest, io);
  if (action === 'image' && rest[0] === 'build') return buildImage(rest.slice(1), io);
  throw usageError(
    'Usage: aivory sandbox serve [--host H] [--port P] | aivory sandbox image build [--image NAME] [--offline] [--force] | aivory sandbox reset-workspace CONVERSATION_ID',
  );
}

/**
 * `aivory sandbox reset-workspace CONVERSATION_ID`: no save of the conversation's /workspace can
 * be read, and the user chooses to start empty (the damaged save kept aside); the same service
 * as the chat's button. The sandbox refuses, and nothing changes, when a save can be read.
 */
export async function resetWorkspace(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const [conversationId, ...extra] = argv;
  if (conversationId === undefined || conversationId.startsWith('-') || extra.length > 0) {
    throw usageError('Usage: aivory sandbox reset-workspace CONVERSATION_ID');
  }
  const outcome = await resetDamagedWorkspace(
    { sandbox: context.sandbox, conversations: context.stores.conversations },
    conversationId,
  );
  io.stdout(`${outcome.message}\n`);
  return EXIT_OK;
}

async function serve(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { host: { type: 'string' }, port: { type: 'string' } },
  });
  const env = { ...io.env };
  if (values.host) env.SANDBOX_HOST = values.host;
  if (values.port) env.SANDBOX_PORT = values.port;
  let generatedKey: string | null = null;
  if (!env.SANDBOX_API_KEY && env.SANDBOX_ALLOW_NO_AUTH !== '1') {
    generatedKey = randomBytes(24).toString('base64url');
    env.SANDBOX_API_KEY = generatedKey;
  }
  let config;
  try {
    config = loadSandboxConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`aivory: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  const log = (level: string) => (message: string, fields?: object) =>
    io.stderr(`[sandbox] ${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
  const sidecar = await startSidecar(config, {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
  });
  io.stdout(`Aivory sandbox listening on ${sidecar.url}\n`);
  if (generatedKey)
    io.stdout(
      `SANDBOX_API_KEY=${generatedKey}   (generated for this run; set SANDBOX_API_KEY to choose one)\n`,
    );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      io.offInterrupt(stop);
      resolve();
    };
    io.onInterrupt(stop);
  });
  io.stdout('Archiving workspaces and stopping…\n');
  const report = await sidecar.close();
  for (const unsaved of report.unsaved) {
    io.stderr(`aivory: ${unsavedWorkspaceLine(unsaved.conversation_id, unsaved.error)}\n`);
  }
  return report.unsaved.length > 0 ? EXIT_FAILED : EXIT_OK;
}

/** `docker build` when the base image can be pulled; otherwise the offline Debian build. */
async function buildImage(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      image: { type: 'string' },
      offline: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
  });
  const image = values.image ?? io.env.SANDBOX_IMAGE ?? DEFAULT_IMAGE;
  if (!values.offline && (await canPull('python:3.12-slim'))) {
    io.stderr(`Building ${image} with docker build (${DOCKERFILE})…\n`);
    return run('docker', ['build', '-f', DOCKERFILE, '-t', image, SANDBOX_DIR], io);
  }
  io.stderr(
    `The base image cannot be pulled; building ${image} offline from Debian packages (needs root and debootstrap, ~2–5 minutes)…\n`,
  );
  return run('bash', [BUILD_SCRIPT, '--image', image, ...(values.force ? ['--force'] : [])], io);
}

function canPull(image: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('docker', ['pull', image], { timeout: 120_000 }, (error) => resolve(error === null));
  });
}

function run(command: string, args: string[], io: CliIo): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: io.env });
    child.on('error', (error) => {
      io.stderr(`aivory: cannot run ${command}: ${error.message}\n`);
      resolve(EXIT_FAILED);
    });
    child.on('close', (code) => resolve(code === 0 ? EXIT_OK : EXIT_FAILED));
  });
}
