/**
 * Makes loopback ports of the test process reachable on the same loopback ports inside a lab
 * namespace, without a route or address in the host's own network: a child in the namespace
 * (loopback-bridge-child.ts) listens on 127.0.0.1:PORT there and hands every connection over a
 * Unix socket (Unix sockets live in the file system, not in a network namespace) to this
 * process, which connects it to 127.0.0.1:PORT here.
 *
 * So a program run in the lab's client namespace (the CLI, `aivory serve`) reaches the scripted
 * LLM server and the MCP server the test started, at the very URLs the test knows, while its
 * only other way out is the lab's public-looking hosts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NetnsLab } from './netns-lab';
import { REPO_ROOT } from './netns-lab';

export interface LoopbackBridge {
  /** Stops the Unix-socket side (the namespace side ends with the lab). */
  close(): Promise<void>;
}

/** Pipes `a` and `b` into each other; an error on one side destroys the other. */
export function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
}

/** Bridges each of `ports` (loopback here) into `namespace` of `lab`; resolves once listening. */
export async function bridgeLoopbackPorts(
  lab: NetnsLab,
  namespace: string,
  ports: number[],
): Promise<LoopbackBridge> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-bridge-'));
  const servers: Server[] = [];
  const open = new Set<Socket>();
  const close = async (): Promise<void> => {
    for (const socket of open) socket.destroy();
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(() => resolve(null)))),
    );
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    const links = await Promise.all(
      ports.map(async (port) => {
        const socketPath = join(directory, `port-${port}.sock`);
        const server = createServer((socket) => {
          open.add(socket);
          socket.on('close', () => open.delete(socket));
          splice(socket, connect(port, '127.0.0.1'));
        });
        servers.push(server);
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject).listen(socketPath, resolve);
        });
        return { port, socketPath };
      }),
    );
    const child = lab.spawnNode(
      namespace,
      'loopback-bridge',
      join(REPO_ROOT, 'test/support/loopback-bridge-child.ts'),
      [JSON.stringify({ links })],
    );
    await child.waitFor('ready');
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}
