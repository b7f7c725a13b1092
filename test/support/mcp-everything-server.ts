/**
 * Starts the real `@modelcontextprotocol/server-everything` (a devDependency) as a child process
 * on a free loopback port, in `streamableHttp` or legacy `sse` mode, and stops it again. The stdio
 * mode needs no helper: the adapter spawns `EVERYTHING_SCRIPT` itself.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const EVERYTHING_SCRIPT = resolve(
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

export interface EverythingServer {
  /** The MCP URL: `/mcp` (streamableHttp) or `/sse` (sse). */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the server printed (stdout and stderr). */
  output: () => string;
  /** The MCP session ids the server created, in order (streamableHttp: it prints each). */
  sessionIds: () => string[];
  /** Kills the server (SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the server binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function startOnce(
  mode: 'streamableHttp' | 'sse',
  fixedPort?: number,
): Promise<EverythingServer | null> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_SCRIPT, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ready = new Promise<boolean>((done) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (new RegExp(`(listening on|running on) port ${port}`).test(output)) done(true);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => done(false));
  });
  const timeout = new Promise<boolean>((done) => setTimeout(() => done(false), 20_000).unref());
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  if (!(await Promise.race([ready, timeout]))) {
    await stop();
    if (/EADDRINUSE|already in use/.test(output)) return null;
    throw new Error(`server-everything (${mode}) did not start:\n${output}`);
  }
  const path = mode === 'sse' ? '/sse' : '/mcp';
  const sessionIds = () =>
    [...output.matchAll(/Session initialized with ID: ([\w-]+)/g)].map((match) => match[1] ?? '');
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    child,
    output: () => output,
    sessionIds,
    stop,
  };
}

/**
 * Starts server-everything in `mode`, retrying on a port taken in the meantime; `port` starts it
 * on that port (a server restarted where the app knows it), failing when the port is taken.
 */
export async function startEverythingServer(
  mode: 'streamableHttp' | 'sse',
  port?: number,
): Promise<EverythingServer> {
  if (port !== undefined) {
    const server = await startOnce(mode, port);
    if (server === null) throw new Error(`server-everything: port ${port} is taken`);
    return server;
  }
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const server = await startOnce(mode);
    if (server !== null) return server;
  }
  throw new Error('server-everything: no free port after 3 attempts');
}
