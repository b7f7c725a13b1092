/**
 * Web servers for the fetch lab, run inside a network namespace (see netns-lab.ts):
 *   node --import tsx fetch-lab-server.ts '<json config>'
 * role "public": the hosts the guard must reach — pages, redirects, bombs, drips, images, PDF, and
 * the prompt-injection page of the taint suites (injection-page.ts).
 * role "canary": listens on a refused address and records every TCP connection it gets.
 * Every event is one JSON line on stdout; "ping N" on stdin is answered with `pong-N` (a barrier:
 * see canaryConnections in fetch-lab.ts). The process exits when its stdin closes (the test
 * process died) or after `lifetimeMs`, so it can never outlive the test run for long.
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildTinyPdf } from './fetch-pdf';
import { buildPng, buildPngBomb, HOSTILE_SVG, TINY_GIF, TINY_JPEG } from './fetch-images';
import { INJECTION_PAGE } from './injection-page';

interface Bind {
  address: string;
  port: number;
  tls?: boolean;
}
interface Config {
  role: 'public' | 'canary';
  binds: Bind[];
  keyPath?: string;
  certPath?: string;
  lifetimeMs?: number;
}

const config: Config = JSON.parse(process.argv[2] ?? '{}');
const emit = (event: string, fields: Record<string, unknown> = {}): void => {
  process.stdout.write(`${JSON.stringify({ event, ...fields })}\n`);
};
process.stdin.on('end', () => process.exit(0));
// A barrier for the test: the line "ping N" on stdin is answered with the event `pong-N`. Input is
// read in order with the connections the kernel had already queued for this process, so every
// connection made before the ping was sent is reported before its pong (canaryConnections).
let input = '';
process.stdin.on('data', (chunk: Buffer) => {
  input += chunk.toString();
  const lines = input.split('\n');
  input = lines.pop() ?? '';
  for (const line of lines) {
    const ping = /^ping (\d+)$/.exec(line.trim());
    if (ping) emit(`pong-${ping[1]}`);
  }
});
setTimeout(() => process.exit(0), config.lifetimeMs ?? 10 * 60_000).unref();

const MB = 1024 * 1024;
let bombs: { gzip: Buffer; brotli: Buffer; nested: Buffer } | null = null;
function getBombs() {
  bombs ??= {
    gzip: gzipSync(Buffer.alloc(60 * MB)),
    brotli: brotliCompressSync(Buffer.alloc(60 * MB), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
    }),
    nested: gzipSync(gzipSync(Buffer.alloc(60 * MB))),
  };
  return bombs;
}

const ARTICLE = (
  host: string,
) => `<!doctype html><html><head><title>Lab News: ${host}</title></head><body>
<nav><a href="/">Home</a></nav><article><h1>The lab story</h1>
<p>Served by ${host}. This paragraph links to <a href="/plain">the plain page</a> and has enough words to be an article.
${'The lab network exists only inside a namespace. '.repeat(10)}</p></article><footer>footer</footer></body></html>`;

function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

/** Writes `chunk` every `intervalMs` until the client goes away or `maxMs` passes. */
function drip(response: ServerResponse, chunk: Buffer, intervalMs: number, maxMs: number): void {
  const timer = setInterval(() => response.write(chunk), intervalMs);
  const stop = (): void => {
    clearInterval(timer);
    response.destroy();
  };
  response.on('close', stop);
  setTimeout(stop, maxMs).unref();
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://lab');
  const socket = request.socket;
  const servername =
    'servername' in socket && typeof socket.servername === 'string' ? socket.servername : null;
  emit('request', {
    host: request.headers.host,
    path: url.pathname + url.search,
    local: socket.localAddress,
    servername,
  });
  const png = buildPng(8, 6);
  switch (url.pathname) {
    case '/article':
      return send(response, 200, 'text/html; charset=utf-8', ARTICLE(request.headers.host ?? '?'));
    case '/injection':
      return send(response, 200, 'text/html; charset=utf-8', INJECTION_PAGE);
    case '/plain':
      return send(response, 200, 'text/plain; charset=utf-8', 'Plain text from the lab.');
    case '/json':
      return send(response, 200, 'application/json', '{"lab":true,"items":[1,2]}');
    case '/doc.pdf':
      return send(response, 200, 'application/pdf', buildTinyPdf('Lab PDF text', 'Lab PDF'));
    case '/binary':
      return send(response, 200, 'application/octet-stream', Buffer.from([0, 1, 2, 3]));
    case '/whoami':
      return send(
        response,
        200,
        'application/json',
        JSON.stringify({
          host: request.headers.host,
          servername,
          local: socket.localAddress,
          headers: request.headers,
        }),
      );
    case '/redirect': {
      const status = Number(url.searchParams.get('status') ?? 302);
      response.writeHead(status, { location: url.searchParams.get('to') ?? '/' });
      return void response.end();
    }
    case '/loop':
      response.writeHead(302, { location: '/loop' });
      return void response.end();
    case '/gzip-bomb':
      return send(response, 200, 'text/html', getBombs().gzip, { 'content-encoding': 'gzip' });
    case '/br-bomb':
      return send(response, 200, 'text/html', getBombs().brotli, { 'content-encoding': 'br' });
    case '/nested-gzip-bomb':
      return send(response, 200, 'text/html', getBombs().nested, {
        'content-encoding': 'gzip, gzip',
      });
    case '/huge':
      response.writeHead(200, { 'content-type': 'text/html' });
      return drip(response, Buffer.alloc(256 * 1024, 0x61), 1, 30_000);
    case '/huge-declared':
      response.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000000000' });
      return drip(response, Buffer.from('a'), 500, 30_000);
    case '/drip':
      response.writeHead(200, { 'content-type': 'text/plain' });
      return drip(response, Buffer.from('.'), 200, 60_000);
    case '/slow-headers':
      setTimeout(() => response.destroy(), 30_000).unref();
      return;
    case '/big-headers':
      return send(response, 200, 'text/plain', 'ok', { 'x-big': 'b'.repeat(64 * 1024) });
    case '/image.png':
      return send(response, 200, 'image/png', png);
    case '/image.jpg':
      return send(response, 200, 'image/jpeg', TINY_JPEG);
    case '/image.gif':
      return send(response, 200, 'image/gif', TINY_GIF);
    case '/image.svg':
      return send(response, 200, 'image/svg+xml', HOSTILE_SVG);
    case '/png-as-jpeg.jpg':
      return send(response, 200, 'image/jpeg', png);
    case '/png-as-octet':
      return send(response, 200, 'application/octet-stream', png);
    case '/png-as-text':
      return send(response, 200, 'text/plain', png);
    case '/html-as-png.png':
      return send(
        response,
        200,
        'image/png',
        '<!doctype html><html><body>not an image</body></html>',
      );
    case '/pixel-bomb.png':
      return send(response, 200, 'image/png', buildPngBomb(50_000, 50_000));
    case '/too-big.png':
      return send(response, 200, 'image/png', Buffer.concat([png, Buffer.alloc(21 * MB)]));
    default:
      return send(response, 404, 'text/plain', 'not found');
  }
}

async function main(): Promise<void> {
  const listening = config.binds.map(
    (bind) =>
      new Promise<void>((resolve, reject) => {
        if (config.role === 'canary') {
          const server = createTcpServer((socket) => {
            emit('canary-connection', {
              local: socket.localAddress,
              port: bind.port,
              remote: socket.remoteAddress,
            });
            socket.end(
              'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n\r\nCANARY-SECRET',
            );
          });
          server
            .once('error', reject)
            .listen({ host: bind.address, port: bind.port, ipv6Only: false }, resolve);
          return;
        }
        const server = bind.tls
          ? createHttpsServer(
              {
                key: readFileSync(config.keyPath ?? ''),
                cert: readFileSync(config.certPath ?? ''),
              },
              handle,
            )
          : createHttpServer(handle);
        server.once('error', reject).listen({ host: bind.address, port: bind.port }, resolve);
      }),
  );
  await Promise.all(listening);
  emit('ready', { binds: config.binds.length });
}

main().catch((error: unknown) => {
  emit('failed', { error: String(error) });
  process.exit(1);
});
