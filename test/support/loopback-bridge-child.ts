/**
 * The namespace half of the loopback bridge (loopback-bridge.ts), run inside a lab namespace:
 *   node --import tsx loopback-bridge-child.ts '{"links":[{"port":P,"socketPath":"…"}]}'
 * Listens on 127.0.0.1:P of its namespace for each link and passes every connection, byte for
 * byte, to the link's Unix socket (which the test process serves). Emits `{"event":"ready"}` once
 * listening. Exits when its stdin closes (the test process died).
 */
import { connect, createServer } from 'node:net';
import { splice } from './loopback-bridge';

interface Link {
  port: number;
  socketPath: string;
}

const { links }: { links: Link[] } = JSON.parse(process.argv[2] ?? '{"links":[]}');
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

async function main(): Promise<void> {
  await Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve, reject) => {
          const server = createServer((socket) => splice(socket, connect(link.socketPath)));
          server.once('error', reject).listen({ host: '127.0.0.1', port: link.port }, resolve);
        }),
    ),
  );
  process.stdout.write(
    `${JSON.stringify({ event: 'ready', ports: links.map((link) => link.port) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ event: 'failed', error: String(error) })}\n`);
  process.exit(1);
});
