/**
 * The cheap start-up check of a local sandbox (`@aivory/sandbox/engine-check`): is the engine
 * there, does it take the runtime setting, is the runner image present. Plain HTTP requests over
 * the engine's socket with `node:http`, so deciding that python_execute is available does not load
 * dockerode (and ssh2, protobufjs, …), which costs more than the rest of `aivory tools` together.
 * The sidecar, started on first use, loads it and makes the full runtime choice. Also re-exports
 * the configuration, which the check needs first.
 *
 * Only `runsc` can be refused by an engine (`chooseRuntime` accepts `auto` and `runc` on any
 * engine), so for the other settings the check is a ping and the image question: `/version` and
 * `/info` are the engine's slowest answers (tens to hundreds of milliseconds on a busy dockerd),
 * which made the engine check most of `aivory tools`' start-up.
 */
import type { RequestOptions } from 'node:http';
import type { DockerInfo, EngineVersion, PodmanInfo, RuntimeChoice } from './engine-policy';
import { chooseRuntime, engineInfoFrom, isPodman } from './engine-policy';
import type { RuntimeSetting } from './engine-policy';

export type { SandboxConfig } from './config';
export { ConfigError, loadSandboxConfig } from './config';

/**
 * Not `import … from 'node:http'`: that builds the ESM facade, which reads every export, and the
 * lazy `WebSocket` getter among them loads undici, a tenth of `aivory tools`' start-up.
 */
const { request } = process.getBuiltinModule('node:http');

/** A hung engine socket must not hang the start: past this the engine counts as unreachable. */
export const ENGINE_REQUEST_TIMEOUT_MS = 10_000;
/** `/info` is a few KiB, Podman's `/libpod/info` tens; this bounds a surprise. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The answer to `GET /_ping`: an engine (Docker and Podman name their API version), or why not —
 * no such socket, refused, no answer in time, or a server there that is not an engine.
 */
export type EnginePing =
  { reachable: true; apiVersion: string } | { reachable: false; reason: string };

export type EngineCheck =
  | { ok: true }
  | { ok: false; problem: 'unreachable'; reason: string }
  | { ok: false; problem: 'runtime'; error: string }
  | { ok: false; problem: 'image' };

interface EngineAnswer {
  status: number;
  body: string;
  /** Docker and Podman send their API version on every answer; anything else does not. */
  apiVersion: string | undefined;
}

/** GET `path` on the engine's socket; rejects when it does not answer within `timeoutMs`. */
function get(
  socketPath: string,
  path: string,
  timeoutMs = ENGINE_REQUEST_TIMEOUT_MS,
): Promise<EngineAnswer> {
  return new Promise((resolve, reject) => {
    // One connection per request, closed after it (no keep-alive pool left behind). No TLS
    // here, so no server name: left unset, Node works one out from the host with `net.isIP`,
    // whose first IPv6 test compiles a large regular expression (a few milliseconds of every
    // `aivory tools` with a local sandbox; issue 24).
    const options: RequestOptions & { servername: string } = {
      socketPath,
      path,
      method: 'GET',
      headers: { host: 'docker' },
      servername: '',
      agent: false,
      timeout: timeoutMs,
    };
    const outgoing = request(options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          response.destroy(new Error(`the engine's answer to ${path} is too large`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          apiVersion: response.headers['api-version']?.toString(),
        }),
      );
      response.on('error', reject);
    });
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error(`no answer to ${path} within ${timeoutMs} ms`)),
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function getJson<T>(socketPath: string, path: string): Promise<T> {
  const answer = await get(socketPath, path);
  if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status}`);
  return JSON.parse(answer.body) as T;
}

/** Why a request to the engine's socket failed, in a few words. */
function failureReason(error: unknown, socketPath: string): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return `no socket at ${socketPath}`;
  if (code === 'ECONNREFUSED') return `nothing listens on ${socketPath}`;
  if (code === 'EACCES' || code === 'EPERM') return `no permission to use ${socketPath}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * `GET /_ping` on the engine's socket (a unix socket, or a Windows named pipe): whether an engine
 * answers there, within `timeoutMs`. What the start-up asks first; dockerode is never loaded.
 */
export async function pingEngine(
  socketPath: string,
  timeoutMs = ENGINE_REQUEST_TIMEOUT_MS,
): Promise<EnginePing> {
  let answer: EngineAnswer;
  try {
    answer = await get(socketPath, '/_ping', timeoutMs);
  } catch (error) {
    return { reachable: false, reason: failureReason(error, socketPath) };
  }
  // A server on the socket that is not an engine does not name an API version.
  if (answer.status !== 200) {
    return {
      reachable: false,
      reason: `the server at ${socketPath} answered HTTP ${answer.status}`,
    };
  }
  if (answer.apiVersion === undefined) {
    return { reachable: false, reason: `the server at ${socketPath} is not a container engine` };
  }
  return { reachable: true, apiVersion: answer.apiVersion };
}

/**
 * The questions `DockerRuntime.ping`, `runtimeChoice` (for `runsc` only: see above) and
 * `imagePresent` answer with dockerode, judged in that order. They are asked at once: a busy
 * engine answers each in tens of milliseconds, and the start waits for the slowest only.
 */
export async function checkEngine(
  socketPath: string,
  setting: RuntimeSetting,
  image: string,
): Promise<EngineCheck> {
  const [ping, refused, inspected] = await Promise.all([
    pingEngine(socketPath),
    setting === 'runsc' ? runtimeRefusal(socketPath, setting) : null,
    get(socketPath, `/images/${encodeURI(image)}/json`).catch(() => null),
  ]);
  if (!ping.reachable) return { ok: false, problem: 'unreachable', reason: ping.reason };
  if (refused !== null) return { ok: false, problem: 'runtime', error: refused };
  if (inspected?.status !== 200) return { ok: false, problem: 'image' };
  return { ok: true };
}

/** Why the engine cannot honour `setting`, in `chooseRuntime`'s words, or null. */
async function runtimeRefusal(socketPath: string, setting: RuntimeSetting): Promise<string | null> {
  let choice: RuntimeChoice;
  try {
    const [version, info] = await Promise.all([
      getJson<EngineVersion>(socketPath, '/version'),
      getJson<DockerInfo>(socketPath, '/info'),
    ]);
    // Podman's libpod routes need a version prefix (unversioned is 404); any version matches.
    const podman = isPodman(version)
      ? await getJson<PodmanInfo>(socketPath, '/v4.0.0/libpod/info')
      : null;
    choice = chooseRuntime(setting, engineInfoFrom(version, info, podman));
  } catch {
    choice = { ok: false, error: 'The container engine is not reachable.' };
  }
  return choice.ok ? null : choice.error;
}
