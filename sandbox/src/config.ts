/**
 * The sidecar's configuration, read once from the environment at start-up.
 *
 * Every variable is validated here so that a typo fails loudly before any container is created,
 * with a message naming the variable. The API key is the only secret: it never appears in an
 * error message, whatever is wrong with it.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { isIP } from 'node:net';
import type { RuntimeSetting } from './engine-policy';
import { RUNTIME_SETTINGS } from './engine-policy';

/** Validated sidecar settings. Sizes are in bytes, durations in the unit their name says. */
export interface SandboxConfig {
  /** Bearer key every request must present; null only when no-auth was allowed (loopback). */
  apiKey: string | null;
  /** True when SANDBOX_ALLOW_NO_AUTH=1 and no key was given: auth is off, loopback only. */
  authDisabled: boolean;
  host: string;
  /** 0 asks the OS for a free port (the desktop app's private sidecar). */
  port: number;
  image: string;
  memoryBytes: number;
  cpus: number;
  pidsLimit: number;
  maxSessions: number;
  workspaceSizeBytes: number;
  tmpSizeBytes: number;
  readOnlyRootfs: boolean;
  execTimeoutCapMs: number;
  defaultTimeoutSeconds: number;
  idleSeconds: number;
  maxUploadBytes: number;
  /** Per stream (stdout and stderr each). */
  maxOutputBytes: number;
  archiveDir: string;
  archiveRetentionDays: number;
  /** Pre-started containers waiting for a new session; 0 disables the pool. */
  warmPool: number;
  /** Unix socket of the engine: Docker's, or Podman's Docker-compatible one. */
  dockerSocket: string;
  /** SANDBOX_RUNTIME: runc, runsc (gVisor) or auto (runsc when Docker lists it). */
  runtime: RuntimeSetting;
  /** Set when SANDBOX_ARCHIVE_S3_ENDPOINT and _BUCKET are: archives go to that bucket. */
  s3?: S3ArchiveConfig;
}

/** An S3-compatible bucket for archives (AWS Signature V4, through the AWS SDK). */
export interface S3ArchiveConfig {
  /** http(s) URL without a trailing slash, e.g. `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  /** A secret: never shown in an error message. */
  secretAccessKey: string;
  /**
   * Temporary credentials' session token (SANDBOX_ARCHIVE_S3_SESSION_TOKEN; sent as
   * x-amz-security-token). A secret too. Absent for long-term keys.
   */
  sessionToken?: string;
  /**
   * Path-style URLs (`<endpoint>/<bucket>/<key>`, every S3-compatible server accepts them; the
   * default) or, when false, virtual-hosted ones (`<bucket>.<endpoint host>/<key>`, as AWS prefers).
   */
  forcePathStyle: boolean;
  /** Without leading or trailing slashes. */
  prefix: string;
}

/** The configuration is unusable; `problems` has one line per bad variable. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid sandbox configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** The seed's range for one call's timeout (执行超时 10–600 s). */
export const EXEC_TIMEOUT_MIN_SECONDS = 10;
export const EXEC_TIMEOUT_MAX_SECONDS = 600;

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/**
 * A short key is guessable by anyone who can reach the port; the seed's own example key
 * (`aivory-personal-sandbox`) is 23 characters.
 */
const API_KEY_MIN_LENGTH = 16;
/** Visible ASCII only: a header value cannot carry spaces or control characters intact. */
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;
/** Loose Docker reference check; mainly refuses whitespace and a leading `-` (option injection). */
const IMAGE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/;
const SIZE_PATTERN = /^(\d+(?:\.\d+)?)\s*([bkmgt]?)(?:i?b)?$/i;
const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: KIB, m: MIB, g: GIB, t: 1024 * GIB };

/** Collects problems so that one start-up attempt reports every bad variable at once. */
class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Record<string, string | undefined>) {}

  /** The trimmed value, or undefined when unset or empty (compose files often write `X=`). */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  fail(name: string, expectation: string, value?: string): void {
    const shown = value === undefined ? '' : ` (got ${JSON.stringify(value.slice(0, 64))})`;
    this.problems.push(`${name} must be ${expectation}${shown}`);
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  flag(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const lowered = value.toLowerCase();
    if (lowered === '1' || lowered === 'true') return true;
    if (lowered === '0' || lowered === 'false') return false;
    this.fail(name, '1 or 0', value);
    return fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      this.fail(name, `an integer from ${min} to ${max}`, value);
      return fallback;
    }
    return parsed;
  }

  decimal(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      this.fail(name, `a number from ${min} to ${max}`, value);
      return fallback;
    }
    return parsed;
  }

  size(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = parseSize(value);
    if (parsed === null || parsed < min || parsed > max) {
      this.fail(name, `a size from ${formatSize(min)} to ${formatSize(max)} (e.g. 512m)`, value);
      return fallback;
    }
    return parsed;
  }
}

/**
 * Parses a Docker-style size (`2g`, `512m`, `64k`, `1.5g`, `1024`, `40MiB`) into bytes, with
 * binary units as Docker uses them. Returns null for anything else.
 */
export function parseSize(value: string): number | null {
  const match = SIZE_PATTERN.exec(value.trim());
  if (match === null) return null;
  const [, amount = '', unit = ''] = match;
  const multiplier = SIZE_UNITS[unit.toLowerCase()];
  if (multiplier === undefined) return null;
  const bytes = Math.floor(Number(amount) * multiplier);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

function formatSize(bytes: number): string {
  if (bytes >= GIB && bytes % GIB === 0) return `${bytes / GIB}g`;
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB}m`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB}k`;
  return `${bytes}`;
}

/** Loopback literals only: a name other than `localhost` could resolve anywhere. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * The engine socket: SANDBOX_DOCKER_SOCKET when set, else DOCKER_HOST (unix:// only), else the
 * first that exists of Docker's socket, rootless Podman's ($XDG_RUNTIME_DIR/podman/podman.sock)
 * and rootful Podman's (/run/podman/podman.sock); Docker's path when none does.
 */
function readEngineSocket(
  reader: EnvReader,
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean,
): string {
  const explicit = reader.raw('SANDBOX_DOCKER_SOCKET');
  if (explicit !== undefined) {
    return explicit.startsWith('unix://') ? explicit.slice('unix://'.length) : explicit;
  }
  const dockerHost = reader.raw('DOCKER_HOST');
  if (dockerHost !== undefined) {
    if (dockerHost.startsWith('unix://') && dockerHost.length > 'unix://'.length) {
      return dockerHost.slice('unix://'.length);
    }
    reader.fail(
      'DOCKER_HOST',
      'a unix:// socket for the sandbox (or set SANDBOX_DOCKER_SOCKET to one)',
      dockerHost,
    );
  }
  const runtimeDir = env.XDG_RUNTIME_DIR?.trim();
  const candidates = [
    '/var/run/docker.sock',
    ...(runtimeDir && isAbsolute(runtimeDir) ? [join(runtimeDir, 'podman', 'podman.sock')] : []),
    '/run/podman/podman.sock',
  ];
  return candidates.find((path) => exists(path)) ?? '/var/run/docker.sock';
}

function defaultArchiveDir(env: Record<string, string | undefined>): string {
  const dataHome = env.XDG_DATA_HOME?.trim();
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  if (dataHome !== undefined && dataHome !== '' && isAbsolute(dataHome)) {
    return join(dataHome, 'aivory-sandbox', 'archives');
  }
  const home = env.HOME?.trim() || homedir();
  return join(home, '.local', 'share', 'aivory-sandbox', 'archives');
}

const S3_BUCKET_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/;
const S3_REGION_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const S3_PREFIX_PATTERN = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
/** Any of these set means the operator wants the S3 store: a partial setup is an error. */
const S3_TRIGGERS = [
  'SANDBOX_ARCHIVE_S3_ENDPOINT',
  'SANDBOX_ARCHIVE_S3_BUCKET',
  'SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID',
  'SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY',
] as const;

/** The S3 archive store's settings, or undefined when none of its variables is set. */
function readS3Config(reader: EnvReader): S3ArchiveConfig | undefined {
  if (S3_TRIGGERS.every((name) => reader.raw(name) === undefined)) return undefined;
  const missing = S3_TRIGGERS.filter((name) => reader.raw(name) === undefined);
  for (const name of missing) {
    reader.problems.push(
      `${name} is required when any of ${S3_TRIGGERS.join(', ')} is set (the S3 archive store)`,
    );
  }

  const endpointText = reader.raw('SANDBOX_ARCHIVE_S3_ENDPOINT') ?? '';
  let endpoint = endpointText.replace(/\/+$/, '');
  if (endpointText !== '') {
    let url: URL | null;
    try {
      url = new URL(endpointText);
    } catch {
      url = null;
    }
    if (
      url === null ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.username !== '' ||
      url.password !== '' ||
      url.search !== '' ||
      url.hash !== ''
    ) {
      // Credentials in the URL would be shown here, so the value is not echoed.
      reader.fail(
        'SANDBOX_ARCHIVE_S3_ENDPOINT',
        'an http:// or https:// URL without credentials, query or fragment (e.g. http://127.0.0.1:9000)',
      );
    } else {
      endpoint = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    }
  }

  const bucket = reader.raw('SANDBOX_ARCHIVE_S3_BUCKET') ?? '';
  if (bucket !== '' && !S3_BUCKET_PATTERN.test(bucket)) {
    reader.fail('SANDBOX_ARCHIVE_S3_BUCKET', 'a bucket name (letters, digits, . _ -)', bucket);
  }
  const region = reader.string('SANDBOX_ARCHIVE_S3_REGION', 'us-east-1');
  if (!S3_REGION_PATTERN.test(region)) {
    reader.fail('SANDBOX_ARCHIVE_S3_REGION', 'a region name such as us-east-1', region);
  }
  const accessKeyId = reader.raw('SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID') ?? '';
  if (accessKeyId !== '' && !API_KEY_PATTERN.test(accessKeyId)) {
    reader.fail('SANDBOX_ARCHIVE_S3_ACCESS_KEY_ID', 'visible ASCII characters without spaces');
  }
  const secretAccessKey = reader.raw('SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY') ?? '';
  // The value itself is never shown: only what is wrong with it.
  if (secretAccessKey !== '' && !API_KEY_PATTERN.test(secretAccessKey)) {
    reader.problems.push(
      'SANDBOX_ARCHIVE_S3_SECRET_ACCESS_KEY must contain only visible ASCII characters, no spaces',
    );
  }
  // Deliberately not AWS_SESSION_TOKEN: the key pair is not read from AWS_* either, and an
  // ambient token from another AWS setup must not pair with these keys.
  const sessionToken = reader.raw('SANDBOX_ARCHIVE_S3_SESSION_TOKEN');
  if (sessionToken !== undefined && !API_KEY_PATTERN.test(sessionToken)) {
    reader.problems.push(
      'SANDBOX_ARCHIVE_S3_SESSION_TOKEN must contain only visible ASCII characters, no spaces',
    );
  }
  const forcePathStyle = reader.flag('SANDBOX_ARCHIVE_S3_FORCE_PATH_STYLE', true);
  const prefix = reader
    .string('SANDBOX_ARCHIVE_S3_PREFIX', 'aivory-sandbox')
    .replace(/^\/+|\/+$/g, '');
  if (
    prefix !== '' &&
    (!S3_PREFIX_PATTERN.test(prefix) || prefix.split('/').some((part) => /^\.+$/.test(part)))
  ) {
    reader.fail(
      'SANDBOX_ARCHIVE_S3_PREFIX',
      'a key prefix of letters, digits, . _ - separated by / (no . or .. parts)',
      prefix,
    );
  }
  return {
    endpoint,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    ...(sessionToken === undefined ? {} : { sessionToken }),
    forcePathStyle,
    prefix,
  };
}

function readApiKey(reader: EnvReader): { apiKey: string | null; allowNoAuth: boolean } {
  const allowNoAuth = reader.flag('SANDBOX_ALLOW_NO_AUTH', false);
  const apiKey = reader.raw('SANDBOX_API_KEY') ?? null;
  if (apiKey === null) {
    if (!allowNoAuth) {
      reader.problems.push(
        'SANDBOX_API_KEY is required (every request must carry it as a Bearer token); ' +
          'for local development only, SANDBOX_ALLOW_NO_AUTH=1 runs without a key on loopback',
      );
    }
    return { apiKey, allowNoAuth };
  }
  // The value itself is never shown: only what is wrong with it.
  if (!API_KEY_PATTERN.test(apiKey)) {
    reader.problems.push('SANDBOX_API_KEY must contain only visible ASCII characters, no spaces');
  } else if (apiKey.length < API_KEY_MIN_LENGTH) {
    reader.problems.push(`SANDBOX_API_KEY must be at least ${API_KEY_MIN_LENGTH} characters long`);
  }
  return { apiKey, allowNoAuth };
}

/**
 * Reads and validates every SANDBOX_* variable, applying the seed's defaults. Throws one
 * ConfigError listing every problem. Without a key the service refuses to start unless
 * SANDBOX_ALLOW_NO_AUTH=1, and then only on a loopback host.
 */
export function loadSandboxConfig(
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean = existsSync,
): SandboxConfig {
  const reader = new EnvReader(env);
  const { apiKey, allowNoAuth } = readApiKey(reader);

  const host = reader.string('SANDBOX_HOST', '127.0.0.1');
  if (/\s/.test(host)) reader.fail('SANDBOX_HOST', 'a host name or IP address', host);
  if (apiKey === null && allowNoAuth && !isLoopbackHost(host)) {
    reader.fail('SANDBOX_HOST', 'a loopback address when running without SANDBOX_API_KEY', host);
  }

  const image = reader.string('SANDBOX_IMAGE', 'aivory-runner:latest');
  if (!IMAGE_PATTERN.test(image)) reader.fail('SANDBOX_IMAGE', 'a Docker image reference', image);

  const maxSessions = reader.integer('SANDBOX_MAX_SESSIONS', 8, 1, 1000);
  const archiveDir = reader.raw('SANDBOX_ARCHIVE_DIR') ?? defaultArchiveDir(env);
  if (!isAbsolute(archiveDir)) {
    reader.fail('SANDBOX_ARCHIVE_DIR', 'an absolute path', archiveDir);
  }
  const dockerSocket = readEngineSocket(reader, env, exists);
  const runtimeValue = reader.string('SANDBOX_RUNTIME', 'auto').toLowerCase();
  const runtime = RUNTIME_SETTINGS.find((setting) => setting === runtimeValue) ?? 'auto';
  if (runtime !== runtimeValue) reader.fail('SANDBOX_RUNTIME', 'runc, runsc or auto', runtimeValue);
  const s3 = readS3Config(reader);

  const config: SandboxConfig = {
    apiKey,
    authDisabled: apiKey === null,
    host,
    port: reader.integer('SANDBOX_PORT', 48217, 0, 65535),
    image,
    // Docker refuses --memory below 6m.
    memoryBytes: reader.size('SANDBOX_MEMORY', 2 * GIB, 6 * MIB, 1024 * GIB),
    cpus: reader.decimal('SANDBOX_CPUS', 1, 0.01, 1024),
    // The worker, the init process and a few helpers need a handful of pids.
    pidsLimit: reader.integer('SANDBOX_PIDS_LIMIT', 256, 8, 4_194_304),
    maxSessions,
    workspaceSizeBytes: reader.size('SANDBOX_WORKSPACE_SIZE', 512 * MIB, MIB, 1024 * GIB),
    tmpSizeBytes: reader.size('SANDBOX_TMP_SIZE', 64 * MIB, MIB, 64 * GIB),
    readOnlyRootfs: reader.flag('SANDBOX_READ_ONLY_ROOTFS', true),
    execTimeoutCapMs: reader.integer('SANDBOX_EXEC_TIMEOUT_CAP_MS', 600_000, 1_000, 3_600_000),
    defaultTimeoutSeconds: reader.decimal(
      'SANDBOX_DEFAULT_TIMEOUT_S',
      120,
      EXEC_TIMEOUT_MIN_SECONDS,
      EXEC_TIMEOUT_MAX_SECONDS,
    ),
    // The seed's range for 闲置回收: 60–86400 s.
    idleSeconds: reader.integer('SANDBOX_IDLE_SECONDS', 1800, 60, 86_400),
    maxUploadBytes: reader.size('SANDBOX_MAX_UPLOAD_BYTES', 40 * MIB, 1, 4 * GIB),
    maxOutputBytes: reader.size('SANDBOX_MAX_OUTPUT_BYTES', 65_536, KIB, 64 * MIB),
    archiveDir,
    archiveRetentionDays: reader.integer('SANDBOX_ARCHIVE_RETENTION_DAYS', 30, 1, 36_500),
    warmPool: reader.integer('SANDBOX_WARM_POOL', 1, 0, 64),
    dockerSocket,
    runtime,
  };
  if (s3 !== undefined) config.s3 = s3;

  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return config;
}

/**
 * The timeout one exec gets, in seconds: the request's value or the configured default,
 * clamped to the seed's [10, 600] and then to SANDBOX_EXEC_TIMEOUT_CAP_MS (the cap wins, so a
 * deployment can promise a shorter maximum than the seed's range).
 */
export function resolveExecTimeoutSeconds(
  requested: number | undefined,
  config: Pick<SandboxConfig, 'defaultTimeoutSeconds' | 'execTimeoutCapMs'>,
): number {
  const wanted =
    requested !== undefined && Number.isFinite(requested)
      ? requested
      : config.defaultTimeoutSeconds;
  const inRange = Math.min(Math.max(wanted, EXEC_TIMEOUT_MIN_SECONDS), EXEC_TIMEOUT_MAX_SECONDS);
  return Math.min(inRange, config.execTimeoutCapMs / 1000);
}
