/**
 * loadSandboxConfig: the seed's defaults, Docker-style sizes, range errors that name the
 * variable (and never the key), the no-auth rules, and exec timeout clamping.
 */
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  isLoopbackHost,
  loadSandboxConfig,
  parseSize,
  resolveExecTimeoutSeconds,
} from '../src/config';

const KEY = 'a-perfectly-fine-sandbox-key';

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadSandboxConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadSandboxConfig', () => {
  it('applies the seed defaults', () => {
    const config = loadSandboxConfig({ SANDBOX_API_KEY: KEY, HOME: '/home/tester' });
    expect(config).toEqual({
      apiKey: KEY,
      authDisabled: false,
      host: '127.0.0.1',
      port: 48217,
      image: 'aivory-runner:latest',
      memoryBytes: 2 * 1024 ** 3,
      cpus: 1,
      pidsLimit: 256,
      maxSessions: 8,
      workspaceSizeBytes: 512 * 1024 ** 2,
      tmpSizeBytes: 64 * 1024 ** 2,
      readOnlyRootfs: true,
      execTimeoutCapMs: 600_000,
      defaultTimeoutSeconds: 120,
      idleSeconds: 1800,
      maxUploadBytes: 40 * 1024 ** 2,
      maxOutputBytes: 65_536,
      archiveDir: '/home/tester/.local/share/aivory-sandbox/archives',
      archiveRetentionDays: 30,
      warmPool: 1,
      dockerSocket: '/var/run/docker.sock',
      runtime: 'auto',
    });
  });

  it('reads every variable', () => {
    const config = loadSandboxConfig({
      SANDBOX_API_KEY: KEY,
      SANDBOX_HOST: '0.0.0.0',
      SANDBOX_PORT: '9000',
      SANDBOX_IMAGE: 'registry.example.com/aivory/runner@sha256:abc123',
      SANDBOX_MEMORY: '1.5g',
      SANDBOX_CPUS: '0.5',
      SANDBOX_PIDS_LIMIT: '128',
      SANDBOX_MAX_SESSIONS: '3',
      SANDBOX_WORKSPACE_SIZE: '1g',
      SANDBOX_TMP_SIZE: '16m',
      SANDBOX_READ_ONLY_ROOTFS: '0',
      SANDBOX_EXEC_TIMEOUT_CAP_MS: '300000',
      SANDBOX_DEFAULT_TIMEOUT_S: '60',
      SANDBOX_IDLE_SECONDS: '60',
      SANDBOX_MAX_UPLOAD_BYTES: '1048576',
      SANDBOX_MAX_OUTPUT_BYTES: '128k',
      SANDBOX_ARCHIVE_DIR: '/srv/archives',
      SANDBOX_ARCHIVE_RETENTION_DAYS: '7',
      SANDBOX_WARM_POOL: '0',
      SANDBOX_DOCKER_SOCKET: 'unix:///run/user/1000/docker.sock',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      image: 'registry.example.com/aivory/runner@sha256:abc123',
      memoryBytes: 1.5 * 1024 ** 3,
      cpus: 0.5,
      pidsLimit: 128,
      maxSessions: 3,
      workspaceSizeBytes: 1024 ** 3,
      tmpSizeBytes: 16 * 1024 ** 2,
      readOnlyRootfs: false,
      execTimeoutCapMs: 300_000,
      defaultTimeoutSeconds: 60,
      idleSeconds: 60,
      maxUploadBytes: 1_048_576,
      maxOutputBytes: 128 * 1024,
      archiveDir: '/srv/archives',
      archiveRetentionDays: 7,
      warmPool: 0,
      dockerSocket: '/run/user/1000/docker.sock',
    });
  });

  it('puts archives under XDG_DATA_HOME when it is absolute, ignoring a relative one', () => {
    const base = { SANDBOX_API_KEY: KEY, HOME: '/home/tester' };
    expect(loadSandboxConfig({ ...base, XDG_DATA_HOME: '/data' }).archiveDir).toBe(
      '/data/aivory-sandbox/archives',
    );
    expect(loadSandboxConfig({ ...base, XDG_DATA_HOME: 'relative/dir' }).archiveDir).toBe(
      '/home/tester/.local/share/aivory-sandbox/archives',
    );
  });

  it('treats empty values as unset', () => {
    const config = loadSandboxConfig({
      SANDBOX_API_KEY: KEY,
      SANDBOX_PORT: '',
      SANDBOX_MEMORY: ' ',
    });
    expect(config.port).toBe(48217);
    expect(config.memoryBytes).toBe(2 * 1024 ** 3);
  });

  it('accepts port 0 (any free port, for the app’s private sidecar)', () => {
    expect(loadSandboxConfig({ SANDBOX_API_KEY: KEY, SANDBOX_PORT: '0' }).port).toBe(0);
  });

  it.each([
    ['SANDBOX_PORT', '65536'],
    ['SANDBOX_PORT', 'http'],
    ['SANDBOX_PORT', '80.5'],
    ['SANDBOX_MEMORY', '2x'],
    ['SANDBOX_MEMORY', '1m'],
    ['SANDBOX_MEMORY', '-1g'],
    ['SANDBOX_CPUS', '0'],
    ['SANDBOX_CPUS', '-1'],
    ['SANDBOX_CPUS', 'one'],
    ['SANDBOX_PIDS_LIMIT', '0'],
    ['SANDBOX_MAX_SESSIONS', '0'],
    ['SANDBOX_WORKSPACE_SIZE', '10k'],
    ['SANDBOX_TMP_SIZE', 'big'],
    ['SANDBOX_READ_ONLY_ROOTFS', 'yes please'],
    ['SANDBOX_EXEC_TIMEOUT_CAP_MS', '999'],
    ['SANDBOX_DEFAULT_TIMEOUT_S', '5'],
    ['SANDBOX_DEFAULT_TIMEOUT_S', '601'],
    ['SANDBOX_IDLE_SECONDS', '59'],
    ['SANDBOX_IDLE_SECONDS', '86401'],
    ['SANDBOX_MAX_UPLOAD_BYTES', '0'],
    ['SANDBOX_MAX_OUTPUT_BYTES', '10'],
    ['SANDBOX_ARCHIVE_DIR', 'relative/archives'],
    ['SANDBOX_ARCHIVE_RETENTION_DAYS', '0'],
    ['SANDBOX_WARM_POOL', '-1'],
    ['SANDBOX_IMAGE', '--privileged'],
    ['SANDBOX_IMAGE', 'has space'],
  ])('rejects %s=%j with a message naming the variable', (name, value) => {
    const problems = problemsOf({ SANDBOX_API_KEY: KEY, [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
    expect(problems[0]).toContain(JSON.stringify(value));
  });

  it('reports every bad variable at once', () => {
    const problems = problemsOf({
      SANDBOX_PORT: 'x',
      SANDBOX_CPUS: '0',
      SANDBOX_IDLE_SECONDS: '1',
    });
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'SANDBOX_API_KEY',
      'SANDBOX_PORT',
      'SANDBOX_CPUS',
      'SANDBOX_IDLE_SECONDS',
    ]);
  });

  it('the ConfigError message lists the problems', () => {
    expect(() => loadSandboxConfig({ SANDBOX_API_KEY: KEY, SANDBOX_PORT: 'x' })).toThrow(
      /Invalid sandbox configuration:\n- SANDBOX_PORT must be an integer from 0 to 65535/,
    );
  });

  describe('API key and no-auth rules', () => {
    it('requires a key by default', () => {
      const problems = problemsOf({});
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^SANDBOX_API_KEY is required/);
      expect(problems[0]).toContain('SANDBOX_ALLOW_NO_AUTH=1');
    });

    it('allows no key with SANDBOX_ALLOW_NO_AUTH=1 on loopback', () => {
      const config = loadSandboxConfig({ SANDBOX_ALLOW_NO_AUTH: '1' });
      expect(config.apiKey).toBeNull();
      expect(config.authDisabled).toBe(true);
      expect(config.host).toBe('127.0.0.1');
      for (const host of ['localhost', '::1', '127.0.0.2']) {
        expect(loadSandboxConfig({ SANDBOX_ALLOW_NO_AUTH: '1', SANDBOX_HOST: host }).host).toBe(
          host,
        );
      }
    });

    it.each(['0.0.0.0', '192.168.1.10', '::', 'sandbox.example.com'])(
      'refuses no-auth on the non-loopback host %s',
      (host) => {
        const problems = problemsOf({ SANDBOX_ALLOW_NO_AUTH: '1', SANDBOX_HOST: host });
        expect(problems).toEqual([
          expect.stringContaining('SANDBOX_HOST must be a loopback address'),
        ]);
      },
    );

    it('SANDBOX_ALLOW_NO_AUTH=0 still requires a key', () => {
      expect(problemsOf({ SANDBOX_ALLOW_NO_AUTH: '0' })[0]).toMatch(/^SANDBOX_API_KEY is required/);
    });

    it('keeps auth on when a key is given even if no-auth is allowed, on any host', () => {
      const config = loadSandboxConfig({
        SANDBOX_API_KEY: KEY,
        SANDBOX_ALLOW_NO_AUTH: '1',
        SANDBOX_HOST: '0.0.0.0',
      });
      expect(config.apiKey).toBe(KEY);
      expect(config.authDisabled).toBe(false);
    });

    it.each([
      ['too short', 'short-key-123'],
      ['containing a space', 'a key with spaces in it'],
      ['containing a control character', 'key\u0001with-control-chars'],
    ])('rejects a key %s without ever showing it', (_label, key) => {
      const problems = problemsOf({ SANDBOX_API_KEY: key });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('SANDBOX_API_KEY');
      let message = '';
      try {
        loadSandboxConfig({ SANDBOX_API_KEY: key });
      } catch (error) {
        message = error instanceof Error ? error.message : '';
      }
      expect(message).toContain('SANDBOX_API_KEY');
      expect(message).not.toContain(key);
      expect(message).not.toContain(key.slice(0, 6));
    });

    it('accepts the seed’s example key', () => {
      expect(loadSandboxConfig({ SANDBOX_API_KEY: 'aivory-personal-sandbox' }).apiKey).toBe(
        'aivory-personal-sandbox',
      );
    });
  });
});

describe('parseSize', () => {
  it.each([
    ['2g', 2 * 1024 ** 3],
    ['2G', 2 * 1024 ** 3],
    ['512m', 512 * 1024 ** 2],
    ['512MB', 512 * 1024 ** 2],
    ['40MiB', 40 * 1024 ** 2],
    ['64k', 64 * 1024],
    ['1.5g', 1.5 * 1024 ** 3],
    ['1024', 1024],
    ['1024b', 1024],
    ['1t', 1024 ** 4],
  ])('%s → %i bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['', 'g', '-1m', '1 gigabyte', '1.2.3m', '0x10', '1e3'])('%j is not a size', (text) => {
    expect(parseSize(text)).toBeNull();
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['10.0.0.1', false],
    ['127.example.com', false],
    ['::ffff:8.8.8.8', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('resolveExecTimeoutSeconds', () => {
  const config = { defaultTimeoutSeconds: 120, execTimeoutCapMs: 600_000 };

  it('uses the default when nothing (or nothing usable) was requested', () => {
    expect(resolveExecTimeoutSeconds(undefined, config)).toBe(120);
    expect(resolveExecTimeoutSeconds(Number.NaN, config)).toBe(120);
    expect(resolveExecTimeoutSeconds(undefined, { ...config, defaultTimeoutSeconds: 45 })).toBe(45);
  });

  it('keeps a request inside [10, 600]', () => {
    expect(resolveExecTimeoutSeconds(30, config)).toBe(30);
    expect(resolveExecTimeoutSeconds(10, config)).toBe(10);
    expect(resolveExecTimeoutSeconds(600, config)).toBe(600);
  });

  it('clamps to [10, 600]', () => {
    expect(resolveExecTimeoutSeconds(1, config)).toBe(10);
    expect(resolveExecTimeoutSeconds(-5, config)).toBe(10);
    expect(resolveExecTimeoutSeconds(601, config)).toBe(600);
    expect(resolveExecTimeoutSeconds(Number.POSITIVE_INFINITY, config)).toBe(120);
  });

  it('then clamps to SANDBOX_EXEC_TIMEOUT_CAP_MS', () => {
    const capped = { defaultTimeoutSeconds: 120, execTimeoutCapMs: 90_000 };
    expect(resolveExecTimeoutSeconds(undefined, capped)).toBe(90);
    expect(resolveExecTimeoutSeconds(300, capped)).toBe(90);
    expect(resolveExecTimeoutSeconds(30, capped)).toBe(30);
    // A cap below the seed's minimum wins: the deployment promised a shorter maximum.
    expect(
      resolveExecTimeoutSeconds(60, { defaultTimeoutSeconds: 120, execTimeoutCapMs: 5_000 }),
    ).toBe(5);
    // A cap above 600 s does not lift the seed's maximum.
    expect(
      resolveExecTimeoutSeconds(900, { defaultTimeoutSeconds: 120, execTimeoutCapMs: 3_600_000 }),
    ).toBe(600);
  });
});
