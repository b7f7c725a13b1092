/**
 * The sidecar's only door to Docker (dockerode). Containers come from `container-template.ts`;
 * commands run through `docker exec` with their output demultiplexed and bounded. Files move as
 * streams through exec (`tar`, `cat`), because putArchive/getArchive fail on a read-only root and
 * on tmpfs mounts (measured here; moby#22020).
 */
import { PassThrough } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import Docker from 'dockerode';
import { demultiplex } from './exec-demux';
import type { ContainerLimits } from './container-template';
import {
  MANAGED_LABEL,
  sessionContainerOptions,
  SANDBOX_USER,
  WORKSPACE,
} from './container-template';

/** Output kept from a helper command (kill, stat, mkdir): they print little; this bounds a surprise. */
const MAX_COLLECTED_BYTES = 4 * 1024 * 1024;

export interface ManagedContainer {
  id: string;
  name: string;
  role: string;
  conversationId: string | null;
  running: boolean;
}

export interface AttachedProcess {
  /** Writes to the process's stdin. */
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /** Resolves with the exit code once the process ended and its streams closed. */
  exited: Promise<number | null>;
}

export interface CollectedOutput {
  exitCode: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

export class DockerRuntime {
  private readonly docker: Docker;

  constructor(socketPath: string) {
    this.docker = new Docker({ socketPath });
  }

  /** True when the daemon answers. */
  async ping(): Promise<boolean> {
    try {
      await this.docker.ping();
      return true;
    } catch {
      return false;
    }
  }

  /** The daemon's runc version (`docker version` components), or null if unknown. */
  async runcVersion(): Promise<string | null> {
    try {
      const version = await this.docker.version();
      const runc = version.Components?.find((component) => component.Name === 'runc');
      return runc?.Version ?? null;
    } catch {
      return null;
    }
  }

  async imagePresent(image: string): Promise<boolean> {
    try {
      await this.docker.getImage(image).inspect();
      return true;
    } catch {
      return false;
    }
  }

  /** Creates and starts a container from the fixed template; returns its id. */
  async startContainer(
    limits: ContainerLimits,
    options: { name: string; role: 'session' | 'keepalive'; conversationId?: string },
  ): Promise<string> {
    const createOptions = sessionContainerOptions(limits, options);
    if (options.conversationId) {
      createOptions.Labels = {
        ...createOptions.Labels,
        'org.aivory.conversation': options.conversationId,
      };
    }
    const container = await this.docker.createContainer(createOptions);
    try {
      await container.start();
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw error;
    }
    return container.id;
  }

  async removeContainer(id: string): Promise<void> {
    try {
      await this.docker.getContainer(id).remove({ force: true });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async containerRunning(id: string): Promise<boolean> {
    try {
      const info = await this.docker.getContainer(id).inspect();
      return info.State.Running;
    } catch {
      return false;
    }
  }

  async startExistingContainer(id: string): Promise<void> {
    await this.docker.getContainer(id).start();
  }

  /** Our containers (by label), including ones a previous sidecar left behind. */
  async listManaged(): Promise<ManagedContainer[]> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: { label: [`${MANAGED_LABEL}=1`] },
    });
    return containers.map((container) => ({
      id: container.Id,
      name: (container.Names[0] ?? '').replace(/^\//, ''),
      role: container.Labels['org.aivory.role'] ?? 'session',
      conversationId: container.Labels['org.aivory.conversation'] ?? null,
      running: container.State === 'running',
    }));
  }

  /**
   * Starts `command` in the container with stdin attached and stdout/stderr as separate streams.
   * The process keeps running until it exits or is killed; ending our end does not stop it.
   */
  async attach(
    containerId: string,
    command: string[],
    options: { user?: string } = {},
  ): Promise<AttachedProcess> {
    const exec = await this.docker.getContainer(containerId).exec({
      Cmd: command,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: options.user ?? SANDBOX_USER,
      WorkingDir: WORKSPACE,
    });
    const stream = await exec.start({ hijack: true, stdin: true });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    this.docker.modem.demuxStream(stream, stdout, stderr);
    const exited = new Promise<number | null>((resolve) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        stdout.end();
        stderr.end();
        exec
          .inspect()
          .then((info) => resolve(info.ExitCode ?? null))
          .catch(() => resolve(null));
      };
      stream.on('end', finish);
      stream.on('close', finish);
      stream.on('error', finish);
    });
    // Ending the hijacked stream half-closes it: the process sees EOF on stdin while its
    // output keeps arriving.
    return { stdin: stream, stdout, stderr, exited };
  }

  /**
   * Like `attach`, for commands that move a lot of data (`tar` for archive and restore): output
   * is split by `demultiplex` (no copies, backpressure), and stdout holds up to `chunkBytes`.
   */
  async attachBulk(
    containerId: string,
    command: string[],
    options: { user?: string; chunkBytes?: number } = {},
  ): Promise<AttachedProcess> {
    const exec = await this.docker.getContainer(containerId).exec({
      Cmd: command,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      User: options.user ?? SANDBOX_USER,
      WorkingDir: WORKSPACE,
    });
    const stream = await exec.start({ hijack: true, stdin: true });
    const stdout = new PassThrough({ highWaterMark: options.chunkBytes ?? 1024 * 1024 });
    const stderr = new PassThrough();
    demultiplex(stream, stdout, stderr);
    const exited = new Promise<number | null>((resolve) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        stdout.end();
        stderr.end();
        exec
          .inspect()
          .then((info) => resolve(info.ExitCode ?? null))
          .catch(() => resolve(null));
      };
      stream.on('end', finish);
      stream.on('close', finish);
      stream.on('error', finish);
    });
    return { stdin: stream, stdout, stderr, exited };
  }

  /** Runs a short command, optionally feeding `input` to stdin; collects bounded output. */
  async run(
    containerId: string,
    command: string[],
    options: { input?: Readable; user?: string } = {},
  ): Promise<CollectedOutput> {
    const process = await this.attach(containerId, command, options);
    const stdout = collect(process.stdout);
    const stderr = collect(process.stderr);
    if (options.input) options.input.pipe(process.stdin);
    else process.stdin.end();
    const exitCode = await process.exited;
    return { exitCode, stdout: await stdout, stderr: await stderr };
  }
}

function collect(stream: Readable): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (size >= MAX_COLLECTED_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode === 404
  );
}
