/**
 * Shared plumbing for the sandbox benchmark: a preflight that names what is missing, an
 * in-process sidecar on loopback with its own key and archive directory, a tiny JSON client for
 * it, the raw `docker` CLI the baselines use, a wait for the warm pool, and a sweep that removes
 * every container a benchmark created (found by the container-name prefix it owns).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerNamePrefix } from '../sandbox/src/start-sidecar';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalArchiveStore } from '../sandbox/src/archive-store';
import { loadSandboxConfig } from '../sandbox/src/config';
import { DockerRuntime } from '../sandbox/src/docker-runtime';
import { keepaliveName } from '../sandbox/src/session-manager';
import { startSidecar } from '../sandbox/src/start-sidecar';
import type { RunningSidecar, SidecarLogger } from '../sandbox/src/start-sidecar';

export const RUNNER_IMAGE = process.env.SANDBOX_IMAGE ?? 'aivory-runner:latest';
export const DOCKER_SOCKET = process.env.SANDBOX_DOCKER_SOCKET ?? '/var/run/docker.sock';

/** A new worker says `ready` well within this after its process appears (measured: ~50 ms). */
const WORKER_SETTLE_MS = 300;
/** A cold container create + start + worker takes ~1 s here; this bounds a stuck pool. */
const WARM_POOL_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 25;

/** Throws a message naming the fix unless dockerd answers and the runner image exists. */
export async function requireDockerAndImage(runtime: DockerRuntime): Promise<void> {
  if (!(await runtime.ping())) {
    throw new Error(
      `Docker is not reachable at ${DOCKER_SOCKET}: start dockerd (or set SANDBOX_DOCKER_SOCKET).`,
    );
  }
  if (!(await runtime.imagePresent(RUNNER_IMAGE))) {
    throw new Error(
      `The runner image ${RUNNER_IMAGE} is missing: build it with bash sandbox/scripts/build-image.sh.`,
    );
  }
}

/** Collects the sidecar's warnings and errors, so a benchmark can report them as notes. */
export function recordingLogger(problems: string[]): SidecarLogger {
  const record = (level: string) => (message: string, fields?: object) => {
    problems.push(`${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  };
  return { info: () => undefined, warn: record('warn'), error: record('error') };
}

export interface BenchSidecar {
  /** The container-name prefix the sidecar's SessionManager uses. */
  prefix: string;
  archives: LocalArchiveStore;
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<JsonResponse>;
  /** Closes the sidecar, removes any container left with its prefix and its archive directory. */
  close(): Promise<void>;
}

export interface JsonResponse {
  status: number;
  json: Record<string, unknown>;
}

/**
 * Starts the real sidecar in-process on 127.0.0.1, port 0, with a generated key and a fresh
 * archive directory; `environment` adds SANDBOX_* settings (e.g. SANDBOX_WARM_POOL).
 */
export async function startBenchSidecar(
  environment: Record<string, string>,
  problems: string[],
): Promise<BenchSidecar> {
  const archiveDir = await mkdtemp(join(tmpdir(), 'aivory-bench-archives-'));
  const apiKey = randomBytes(24).toString('base64url');
  const config = loadSandboxConfig({
    SANDBOX_API_KEY: apiKey,
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_ARCHIVE_DIR: archiveDir,
    SANDBOX_IMAGE: RUNNER_IMAGE,
    SANDBOX_DOCKER_SOCKET: DOCKER_SOCKET,
    ...environment,
  });
  const prefix = containerNamePrefix(archiveDir);
  let sidecar: RunningSidecar;
  try {
    sidecar = await startSidecar(config, recordingLogger(problems));
  } catch (error) {
    await removeContainersWithPrefix(prefix);
    await rm(archiveDir, { recursive: true, force: true });
    throw error;
  }
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  return {
    prefix,
    archives: new LocalArchiveStore(archiveDir),
    call: async (method, path, body) => {
      const response = await fetch(`${sidecar.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const json = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      return { status: response.status, json };
    },
    close: async () => {
      try {
        await sidecar.close();
      } finally {
        const left = await removeContainersWithPrefix(prefix);
        if (left > 0) problems.push(`sidecar ${prefix}: ${left} container(s) outlived close()`);
        await rm(archiveDir, { recursive: true, force: true });
      }
    },
  };
}

/** Throws unless the response is `status` with a JSON body; returns the body. */
export function expectStatus(response: JsonResponse, status: number, what: string): JsonResponse {
  if (response.status !== status) {
    throw new Error(
      `${what}: expected HTTP ${status}, got ${response.status} ${JSON.stringify(response.json)}`,
    );
  }
  return response;
}

/** Throws unless an /exec answer is `print(6*7)`'s: status ok and stdout "42". */
export function expectFortyTwo(response: JsonResponse, what: string): void {
  expectStatus(response, 200, what);
  if (response.json.status !== 'ok' || response.json.stdout !== '42\n') {
    throw new Error(`${what}: unexpected result ${JSON.stringify(response.json)}`);
  }
}

/** The id of the container that holds `conversationId`, from the sidecar's session index. */
export async function sessionContainerId(
  archives: LocalArchiveStore,
  conversationId: string,
): Promise<string> {
  const index = await archives.readIndex();
  const entry = Object.entries(index).find(([, value]) => value.conversation === conversationId);
  if (!entry) throw new Error(`no container holds conversation ${conversationId}`);
  return entry[0];
}

/**
 * Runs the `docker` CLI and resolves with its stdout; throws on a non-zero exit, and says so
 * plainly when the CLI is not installed (the baselines need it).
 */
export function dockerCli(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // -H: the CLI talks to the daemon the sidecar uses, whatever DOCKER_HOST says.
    const child = spawn('docker', ['-H', `unix://${DOCKER_SOCKET}`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('The docker CLI is not installed; the baselines run `docker exec`.')
          : error,
      ),
    );
    child.once('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`docker ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/**
 * Waits until `count` running containers with `prefix`, other than `busy` ones, run the Python
 * worker, then a little longer for it to say `ready`: the SessionManager keeps its pool private,
 * so the worker process inside the container is the only outside sign that the pool is full.
 */
export async function waitForWarmPool(
  prefix: string,
  busy: ReadonlySet<string>,
  count = 1,
): Promise<void> {
  const deadline = Date.now() + WARM_POOL_TIMEOUT_MS;
  const runtime = new DockerRuntime(DOCKER_SOCKET);
  while (Date.now() < deadline) {
    const candidates = (await runtime.listManaged()).filter(
      (container) =>
        container.running && container.name.startsWith(prefix) && !busy.has(container.id),
    );
    let ready = 0;
    for (const container of candidates) if (await runsWorker(container.id)) ready += 1;
    if (ready >= count) {
      await sleep(WORKER_SETTLE_MS);
      return;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`the warm pool (containers ${prefix}-*) did not refill within 30 s`);
}

async function runsWorker(containerId: string): Promise<boolean> {
  try {
    // A warm container is ready once its worker and its restore extractor (tar -x) both run.
    const processes = await dockerCli(['top', containerId]);
    return processes.includes('worker.py') && processes.includes('tar -x');
  } catch {
    return false; // The container went away between the listing and the look.
  }
}

/** Removes every container whose name starts with `prefix`; returns how many there were. */
export async function removeContainersWithPrefix(prefix: string): Promise<number> {
  const runtime = new DockerRuntime(DOCKER_SOCKET);
  const leftovers = (await runtime.listManaged()).filter((container) =>
    container.name.startsWith(prefix),
  );
  for (const container of leftovers) await runtime.removeContainer(container.id);
  return leftovers.length;
}

/**
 * Every sidecar start ensures one image keepalive container per host (it stops `docker image
 * prune -a` from deleting the runner image) and leaves it running on purpose. The benchmark
 * leaves the host as it found it: the returned function removes the keepalive only if there was
 * none before the benchmark started.
 */
export async function keepaliveRestorer(): Promise<() => Promise<void>> {
  const runtime = new DockerRuntime(DOCKER_SOCKET);
  const name = keepaliveName(RUNNER_IMAGE);
  const find = async () =>
    (await runtime.listManaged()).find((container) => container.name === name);
  if (await find()) return () => Promise.resolve();
  return async () => {
    const created = await find();
    if (created) await runtime.removeContainer(created.id);
  };
}
