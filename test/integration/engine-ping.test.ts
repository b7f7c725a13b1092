/**
 * The engine ping (`GET /_ping` over the engine's socket, no dockerode) and what `aivory tools`
 * makes of it: the real dockerd answers; a socket nobody serves, a server that never answers and a
 * server that is not an engine are "not reachable" with the reason; `aivory tools` offers
 * python_execute with the engine running, hides it with the socket's path when it is dead, and
 * never loads dockerode to decide (nor child_process, zlib or worker_threads at all). Sockets and servers here are the test's own; no fake Docker.
 */
import { spawn } from 'node:child_process';
import { linkSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pingEngine } from '../../sandbox/src/engine-check';
import {
  DOCKER_SOCKET,
  requireDockerAndImage,
  RUNNER_IMAGE,
} from '../../sandbox/test/support/docker-fixture';
import { AIVORY_BIN, cliEnv, collect, makeDataDir } from '../support/run-cli';

/** Preloaded into the CLI: prints every module URL it loads to stderr when it exits. */
const RECORD_LOADS = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(loaded) + '\\n'));
`)}`;

let dir = '';
const closers: (() => Promise<void>)[] = [];
beforeAll(() => {
  requireDockerAndImage();
  dir = mkdtempSync(join(tmpdir(), 'aivory-engine-ping-'));
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function listen(server: Server | ReturnType<typeof createNetServer>, path: string) {
  await new Promise<void>((resolve) => server.listen(path, resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
}

describe('pingEngine', () => {
  it('answers for the running dockerd, with its API version', async () => {
    const ping = await pingEngine(DOCKER_SOCKET);
    expect(ping).toMatchObject({ reachable: true });
    if (ping.reachable) expect(ping.apiVersion).toMatch(/^\d+\.\d+$/);
  });

  it('answers for an engine-like server the test serves', async () => {
    const socket = join(dir, 'engine-like.sock');
    await listen(
      createServer((request, response) => {
        if (request.url === '/_ping') response.writeHead(200, { 'api-version': '1.47' }).end('OK');
        else response.writeHead(404).end();
      }),
      socket,
    );
    expect(await pingEngine(socket)).toEqual({ reachable: true, apiVersion: '1.47' });
  });

  it('a socket nobody serves is not reachable, and says so', async () => {
    const absent = join(dir, 'absent.sock');
    expect(await pingEngine(absent)).toEqual({
      reachable: false,
      reason: `no socket at ${absent}`,
    });
    // A socket file whose server is gone, as a crashed engine leaves it: closing a server removes
    // its path, so a second link to the socket is what stays behind.
    const live = join(dir, 'live.sock');
    const dead = join(dir, 'dead.sock');
    const server = createNetServer();
    await new Promise<void>((resolve) => server.listen(live, resolve));
    linkSync(live, dead);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await pingEngine(dead)).toEqual({
      reachable: false,
      reason: `nothing listens on ${dead}`,
    });
  });

  it('a server that never answers is not reachable past the timeout', async () => {
    const socket = join(dir, 'hung.sock');
    const held: Socket[] = [];
    const server = createNetServer((connection) => held.push(connection));
    await listen(server, socket);
    closers.push(async () => {
      for (const connection of held) connection.destroy();
    });
    expect(await pingEngine(socket, 300)).toEqual({
      reachable: false,
      reason: 'no answer to /_ping within 300 ms',
    });
  });

  it('a server that is not an engine is not reachable', async () => {
    const socket = join(dir, 'web.sock');
    await listen(
      createServer((request, response) => response.writeHead(200).end('hello')),
      socket,
    );
    expect(await pingEngine(socket)).toEqual({
      reachable: false,
      reason: `the server at ${socket} is not a container engine`,
    });
  });
});

describe('aivory tools and the engine', () => {
  async function tools(extra: Record<string, string>, args = ['tools']) {
    const env = cliEnv(makeDataDir(), { SANDBOX_IMAGE: RUNNER_IMAGE, ...extra });
    delete env.AIVORY_LOCAL_SANDBOX;
    const child = spawn(process.execPath, ['--import', RECORD_LOADS, AIVORY_BIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const result = await collect(child);
    const marker = /^LOADED (.*)$/m.exec(result.stderr);
    if (!marker?.[1]) throw new Error(`no module list on stderr: ${result.stderr}`);
    const loaded = JSON.parse(marker[1]) as string[];
    return { ...result, loaded, stderr: result.stderr.replace(/^LOADED .*\n/m, '') };
  }

  it('offers python_execute with the engine running, without loading dockerode', async () => {
    const result = await tools({ SANDBOX_DOCKER_SOCKET: DOCKER_SOCKET });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^python_execute\tavailable\tRun Python in a persistent sandbox/m,
    );
    // The recorder sees the engine check itself, so an absent dockerode means it was not loaded.
    expect(result.loaded.some((url) => url.includes('engine-check'))).toBe(true);
    expect(result.loaded.filter((url) => /dockerode|docker-modem|ssh2/.test(url))).toEqual([]);
    // Nor the built-ins only a build, a browser, an encoded body, a PDF or a random key needs
    // (the sidecar's key is made when it starts; node:crypto costs a start ~7 ms).
    const unneeded = ['node:child_process', 'node:zlib', 'node:worker_threads', 'node:crypto'];
    expect(result.loaded.filter((url) => unneeded.includes(url))).toEqual([]);
    // What opening the app loads is one chunk (app-start, electron.vite.config.ts), so the start
    // requires a handful of files from out/main, not the ~50 it once did.
    const chunks = result.loaded.filter((url) => url.includes('/out/main/'));
    expect(chunks.filter((url) => /\/app-start-[\w-]+\.cjs$/.test(url))).toHaveLength(1);
    expect(chunks.length).toBeLessThanOrEqual(10);
    // Nor the chat service or the MCP services' turn tools: a listing of built-ins needs neither.
    expect(
      result.loaded.filter((url) => /\/(chat-service|mcp-turn-tools)-[\w-]+\.cjs$/.test(url)),
    ).toEqual([]);
  });

  it('aivory --help loads no more than the CLI entry: not the app, not the store', async () => {
    const result = await tools({}, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('aivory');
    const chunks = result.loaded.filter((url) => url.includes('/out/main/'));
    expect(
      chunks.map((url) => url.replace(/.*\/out\/main\//, '').replace(/-[\w-]{8}\.cjs$/, '')),
    ).toEqual(['cli.cjs', 'rolldown-runtime']);
    expect(result.loaded.filter((url) => /better-sqlite3|node:crypto/.test(url))).toEqual([]);
  });

  it('hides python_execute with the dead socket named', async () => {
    const absent = join(dir, 'no-engine.sock');
    const result = await tools({ SANDBOX_DOCKER_SOCKET: absent });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `python_execute\thidden\t请先配置沙盒: Docker is not reachable at ${absent} (install Docker and start it, or Podman's socket service, or set a sandbox address)\n`,
    );
    expect(result.loaded.filter((url) => url.includes('dockerode'))).toEqual([]);
  });
});
