/**
 * The MCP adapter's stdio transport against a tiny test server (test/support/mcp-stdio-child.ts):
 * the child's environment, stderr lines, list_changed, a crash mid-call, closing kills the child,
 * and commands that cannot start.
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { McpError } from '../../src/main/core/ports';
import type { McpCallOptions, McpEndpoint, McpSession } from '../../src/main/core/ports';

const CHILD = resolve('test/support/mcp-stdio-child.ts');
const never = new AbortController().signal;
const sessions: McpSession[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

function childEndpoint(env: Record<string, string> = {}): McpEndpoint {
  return { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', CHILD], env };
}

async function open(
  stderr: string[] = [],
  env: Record<string, string> = {},
  base: Record<string, string | undefined> = process.env,
): Promise<McpSession> {
  const session = await createMcpConnector({ environment: base }).connect(childEndpoint(env), {
    signal: never,
    timeoutMs: 20_000,
    onStderr: (line) => stderr.push(line),
  });
  sessions.push(session);
  return session;
}

function call(overrides: Partial<McpCallOptions> = {}): McpCallOptions {
  return {
    signal: never,
    timeoutMs: 10_000,
    maxTotalTimeoutMs: 60_000,
    maxOutputChars: 10_000,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error('expected a failure');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('stdio services', () => {
  it('starts the child with a minimal environment plus the service variables (no app secrets)', async () => {
    const session = await open(
      [],
      { AIVORY_ENDPOINT_VAR: 'from-endpoint' },
      {
        ...process.env,
        LANG: 'de_DE.UTF-8',
        AIVORY_BASE_VAR: 'from-login-env',
        AIVORY_API_KEY: 'sk-must-not-leak',
      },
    );
    expect(session.serverName).toBe('stdio-child');
    expect(session.serverVersion).toBe('1.2.3');
    const result = await session.callTool('env', {}, call());
    expect(JSON.parse(result.text)).toEqual({
      endpoint: 'from-endpoint',
      base: null,
      secret: null,
      lang: 'de_DE.UTF-8',
    });
  });

  it('delivers stderr line by line, joining a line written in two parts', async () => {
    const stderr: string[] = [];
    await open(stderr);
    await expect.poll(() => stderr.includes('partial line finished')).toBe(true);
    expect(stderr).toContain('starting the test server');
    expect(stderr.some((line) => /^pid=\d+$/.test(line))).toBe(true);
  });

  it('passes tools/list_changed on to the listeners', async () => {
    const session = await open();
    let changes = 0;
    session.onToolsChanged(() => (changes += 1));
    await session.callTool('notify', {}, call());
    await expect.poll(() => changes).toBe(1);
    // prompts/ and resources/list_changed reach the library listeners, not the tools ones.
    let libraryChanges = 0;
    session.onLibraryChanged(() => (libraryChanges += 1));
    await session.callTool('notify-library', {}, call());
    await expect.poll(() => libraryChanges).toBe(2);
    expect(changes).toBe(1);
  });

  it('fails a call at once when the child exits mid-call, and fires onClose once', async () => {
    const session = await open();
    const reasons: string[] = [];
    session.onClose((reason) => reasons.push(reason));
    const started = Date.now();
    const error = await failure(session.callTool('crash', {}, call({ timeoutMs: 20_000 })));
    expect(error.kind).toBe('disconnected');
    expect(Date.now() - started).toBeLessThan(3000);
    await expect.poll(() => reasons).toEqual([expect.stringContaining('exited')]);
    const after = await failure(session.listTools(never));
    expect(after.kind).toBe('disconnected');
  });

  it.each(['0', '1'])(
    'ends the child on close() (lingering: %s), without firing onClose',
    async (linger) => {
      const stderr: string[] = [];
      const session = await open(stderr, { AIVORY_CHILD_LINGER: linger });
      await expect.poll(() => stderr.some((line) => line.startsWith('pid='))).toBe(true);
      const pid = Number(stderr.find((line) => line.startsWith('pid='))?.slice(4));
      const reasons: string[] = [];
      session.onClose((reason) => reasons.push(reason));
      const pending = failure(session.callTool('hang', {}, call()));
      expect(isAlive(pid)).toBe(true);
      await session.close();
      await session.close();
      expect((await pending).kind).toBe('disconnected');
      await expect.poll(() => isAlive(pid), { timeout: 8000 }).toBe(false);
      expect(reasons).toEqual([]);
    },
  );

  it('reports a command that does not exist as spawn', async () => {
    const error = await failure(
      createMcpConnector().connect(
        { transport: 'stdio', command: 'aivory-no-such-command-xyz', args: [], env: {} },
        { signal: never, timeoutMs: 5000 },
      ),
    );
    expect(error.kind).toBe('spawn');
    expect(error.message).toContain('command not found');
  });

  it('reports a missing working directory and an early exit as spawn', async () => {
    const missing = await failure(
      createMcpConnector().connect(
        { transport: 'stdio', command: process.execPath, args: [], env: {}, cwd: '/no/such/dir' },
        { signal: never, timeoutMs: 5000 },
      ),
    );
    expect(missing.kind).toBe('spawn');
    const stderr: string[] = [];
    const exited = await failure(
      createMcpConnector().connect(
        {
          transport: 'stdio',
          command: process.execPath,
          args: ['-e', 'console.error("cannot start: missing config"); process.exit(2)'],
          env: { TOKEN: 'secret-env-value' },
        },
        { signal: never, timeoutMs: 5000, onStderr: (line) => stderr.push(line) },
      ),
    );
    expect(exited.kind).toBe('spawn');
    expect(exited.message).toBe(
      `command "${process.execPath}" exited before completing the MCP handshake; its last error output: "cannot start: missing config"`,
    );
    expect(exited.message).not.toContain('secret-env-value');
    await expect.poll(() => stderr).toContain('cannot start: missing config');
  });
});
