/**
 * Composes and starts the sidecar: Docker runtime, archive store, session manager, HTTP server.
 * Used by `aivory sandbox serve` and by the app's local Docker sandbox manager. Refuses to listen
 * beyond loopback without a key.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ArchiveStore } from './archive-store';
import { LocalArchiveStore } from './archive-store';
import type { SandboxConfig } from './config';
import { isLoopbackHost, resolveExecTimeoutSeconds } from './config';
import { DockerRuntime } from './docker-runtime';
import { S3ArchiveStore } from './s3-archive-store';
import { createSandboxServer } from './http-server';
import type { SessionManagerOptions, ShutdownReport } from './session-manager';
import { SessionManager } from './session-manager';

export interface SidecarLogger {
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
}

export interface RunningSidecar {
  /** e.g. http://127.0.0.1:48217 */
  url: string;
  manager: SessionManager;
  /**
   * Stops listening, saves every workspace and removes the containers; the report names the
   * workspaces that could not be saved (their containers are kept running with the files).
   */
  close(): Promise<ShutdownReport>;
}

export async function startSidecar(
  config: SandboxConfig,
  logger: SidecarLogger,
): Promise<RunningSidecar> {
  if (config.apiKey === null && !isLoopbackHost(config.host)) {
    throw new Error('Refusing to serve without SANDBOX_API_KEY on a non-loopback address.');
  }
  const manager = new SessionManager(sessionManagerOptions(config, logger));
  const health = await manager.health();
  for (const warning of health.warnings) logger.warn(warning);
  if (health.docker) await manager.start();
  const server = createSandboxServer({
    service: manager,
    apiKey: config.apiKey,
    maxUploadBytes: config.maxUploadBytes,
    logger,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  if (config.apiKey === null) {
    logger.warn(
      'AUTHENTICATION IS OFF (SANDBOX_ALLOW_NO_AUTH=1): anyone on this machine can run code in the sandbox.',
    );
  }
  return {
    url: `http://${host}:${address.port}`,
    manager,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      return manager.shutdown();
    },
  };
}

/**
 * The S3-compatible bucket when one is configured, else the local archive directory. The S3 store
 * streams uploads in parts; its size limit (which also sets the part size) is the workspace size
 * plus slack for compression (which can grow incompressible data slightly) and tar headers.
 */
export function archiveStoreFor(config: SandboxConfig): ArchiveStore {
  if (config.s3 === undefined) return new LocalArchiveStore(config.archiveDir);
  return new S3ArchiveStore({
    ...config.s3,
    maxArchiveBytes: Math.ceil(config.workspaceSizeBytes * 1.01) + 16 * 1024 * 1024,
  });
}

/**
 * The SessionManager options a configuration means. Containers are named after the archive
 * directory, so two sidecars with their own data (the desktop app's and a test's) never clean up
 * each other's containers.
 */
export function sessionManagerOptions(
  config: SandboxConfig,
  logger: SidecarLogger,
): SessionManagerOptions {
  return {
    runtime: new DockerRuntime(config.dockerSocket, config.runtime),
    archives: archiveStoreFor(config),
    limits: {
      image: config.image,
      memoryBytes: config.memoryBytes,
      cpus: config.cpus,
      pidsLimit: config.pidsLimit,
      workspaceBytes: config.workspaceSizeBytes,
      tmpBytes: config.tmpSizeBytes,
      readOnlyRootfs: config.readOnlyRootfs,
    },
    maxSessions: config.maxSessions,
    idleSeconds: config.idleSeconds,
    maxOutputBytes: config.maxOutputBytes,
    warmPool: config.warmPool,
    retentionDays: config.archiveRetentionDays,
    resolveTimeoutSeconds: (requested) => resolveExecTimeoutSeconds(requested, config),
    logger,
    namePrefix: containerNamePrefix(config.archiveDir),
  };
}

/** The prefix of a sidecar's container names: a hash of its archive directory. */
export function containerNamePrefix(archiveDir: string): string {
  return `aivory-${createHash('sha256').update(archiveDir).digest('hex').slice(0, 10)}`;
}
