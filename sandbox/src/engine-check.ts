/**
 * The cheap start-up check of a local sandbox (`@aivory/sandbox/engine-check`): is the engine
 * there, does it take the runtime setting, is the runner image present. Plain HTTP/1.0 GETs over
 * the engine's socket, so deciding that python_execute is available does not load dockerode (and
 * ssh2, protobufjs, …), which costs more than the rest of `aivory tools` together. The sidecar,
 * started on first use, loads it and makes the full runtime choice. Also re-exports the
 * configuration, which the check needs first.
 *
 * Only `runsc` can be refused by an engine (`chooseRuntime` accepts `auto` and `runc` on any
 * engine), so for the other settings the check is a ping and the image question: `/version` and
 * `/info` are the engine's slowest answers (tens to hundreds of milliseconds on a busy dockerd),
 * which made the engine check most of `aivory tools`' start-up.
 *
 * The requests are written on a `node:net` socket, not sent with `node:http`: its client (the
 * module, the first request's agent, parser and header checks) cost `aivory tools` ~5 ms of its
 * start, for two GETs on a local socket (issue 24). HTTP/1.0 with `Connection: close` asks for the
 * simplest answer: no chunked encoding (Docker and Podman answer with Go's net/http, which then
 * sends none; a chunked answer is refused, not misread), the body up to its Content-Length or the
 * end of the connection. Only the status, the `Api-Version` header and the body are read.
 */
import type { Socket } from 'node:net';
import type { DockerInfo, EngineVersion, PodmanInfo, RuntimeChoice } from './engine-policy';
import { chooseRuntime, engineInfoFrom, isPodman } from './engine-policy';
import type { RuntimeSetting } from './engine-policy';

export type { SandboxConfig } from './config';
export { ConfigError, loadSandboxConfig } from './config';

/** `node:net` without its ES module facade (under vitest and tsx these sources are ES modules). */
const { createConnection } = process.getBuiltinModule('node:net');

/** A hung engine socket must not hang the start: past this the engine counts as unreachable. */
export const ENGINE_REQUEST_TIMEOUT_MS = 10_000;
/** `/info` is a few KiB, Podman's `/libpod/info` tens; this bounds a surprise. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

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

/** GET `path` on the engine's socket; rejects when the whole answer is not in within `timeoutMs`. */
function get(
  socketPath: string,
  path: string,
  timeoutMs = ENGINE_REQUEST_TIMEOUT_MS,
): Promise<EngineAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = createConnection({ path: socketPath });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: { answer: EngineAnswer } | { error: Error }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.answer);
    };
    const timer = setTimeout(
      () => finish({ error: new Error(`no answer to ${path} within ${timeoutMs} ms`) }),
      timeoutMs,
    );
    socket.on('connect', () => {
      socket.write(`GET ${path} HTTP/1.0\r\nHost: docker\r\nConnection: close\r\n\r\n`);
    });
    /** Finishes with the answer once it is whole, or with why it is not one. */
    const read = (ended: boolean): void => {
      try {
        const answer = readAnswer(Buffer.concat(chunks), path, ended);
        if (answer !== null) finish({ answer });
      } catch (error) {
        finish({ error: error instanceof Error ? error : new Error(String(error)) });
      }
    };
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        finish({ error: new Error(`the engine's answer to ${path} is too large`) });
        return;
      }
      chunks.push(chunk);
      // Done once the head and Content-Length bytes of body are in (the engine then closes).
      read(false);
    });
    socket.on('end', () => read(true));
    socket.on('error', (error) => finish({ error }));
  });
}

/**
 * The answer in `raw` (an HTTP/1.x status line, headers, body): null while more must come (`ended`
 * false); throws when it is not one, or when it ended short.
 */
export function readAnswer(raw: Buffer, path: string, ended: boolean): EngineAnswer | null {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd === -1) {
    if (ended) throw new Error(`the answer to ${path} is not HTTP`);
    return null;
  }
  const [statusLine = '', ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine)?.[1];
  if (status === undefined) throw new Error(`the answer to ${path} is not HTTP`);
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  if (headers.get('transfer-encoding') !== undefined) {
    throw new Error(`the answer to ${path} has a transfer encoding, which HTTP/1.0 does not`);
  }
  const body = raw.subarray(headEnd + 4);
  const lengthHeader = headers.get('content-length');
  const length = lengthHeader === undefined ? null : Number(lengthHeader);
  if (length !== null && !(Number.isSafeInteger(length) && length >= 0)) {
    throw new Error(`the answer to ${path} has a bad Content-Length`);
  }
  if (length === null ? !ended : body.length < length) {
    if (ended) throw new Error(`the answer to ${path} was cut short`);
    return null;
  }
  return {
    status: Number(status),
    body: body.subarray(0, length ?? body.length).toString(),
    apiVersion: headers.get('api-version'),
  };
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
