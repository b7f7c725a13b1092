/**
 * `aivory serve`'s server: HTTP on 127.0.0.1 only, the built renderer as static files, the
 * contract over `/ws`. The URL it returns carries the per-start token the WebSocket demands.
 *
 * `listenBrowserHost` binds the port and serves the page at once, before the app is open: the
 * browser loads and parses the renderer while the store, the services and the contract's schemas
 * load (the heavy modules are imported only then); the WebSocket and `/files` wait for them.
 * `startBrowserHost` is the same, resolved once the app is ready too.
 */
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { AivoryError } from '../../../shared/errors';
import { RENDERER_DIR } from '../../adapters/install-layout';
import type { AppContext } from '../../composition/app-context';
import type { ApiHost } from '../api-handlers';
import type { DiscoveryCandidate } from '../host-context';
import { dataFileRoots } from '../files/data-files';
import { createAccessToken } from './access-token';
import { isFilesRequest, serveDataFile } from './files-route';
import { serveArtifactFrame, serveStatic, setSecurityHeaders } from './static-files';
import { isArtifactFramePath } from '../../../shared/artifact-frame';
// A type only: the transport's module (and ws) load with the app, in openApiSide.
import type { WebSocketTransport } from './websocket-transport';

/** The address the browser host listens on: never a public interface. */
export const LOOPBACK_HOST = '127.0.0.1';
/** Where the build writes the renderer. */
export const DEFAULT_RENDERER_DIR = RENDERER_DIR;

/** How to start the browser host. */
export interface BrowserHostOptions {
  /**
   * The app, or how to open it: called once the port is bound; the page is served meanwhile and
   * the API once it is open.
   */
  app: AppContext | (() => Promise<AppContext>);
  env: Record<string, string | undefined>;
  /** 0 picks a free port. */
  port: number;
  rendererDir?: string;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
  discoveryCandidates?: readonly DiscoveryCandidate[];
}

/** A listening browser host whose API may still be getting ready. */
export interface ListeningBrowserHost {
  /** `http://127.0.0.1:PORT/?token=…`, the address to open. */
  url: string;
  port: number;
  token: string;
  /** The API once the app is open; rejects (and the WebSocket refuses) if opening it failed. */
  ready: Promise<ApiHost>;
  close(): Promise<void>;
}

/** A running browser host. */
export interface BrowserHost extends Omit<ListeningBrowserHost, 'ready'> {
  api: ApiHost;
}

/** What the API side needs once the app is open. */
interface ApiSide {
  api: ApiHost;
  roots: ReturnType<typeof dataFileRoots>;
  transport: WebSocketTransport;
}

/** Starts listening and resolves once the port is bound and the app is ready. */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const host = await listenBrowserHost(options);
  try {
    const api = await host.ready;
    return { url: host.url, port: host.port, token: host.token, api, close: host.close };
  } catch (error) {
    await host.close();
    throw error;
  }
}

/** Binds the port and serves the page; the API follows (`ready`). */
export async function listenBrowserHost(
  options: BrowserHostOptions,
): Promise<ListeningBrowserHost> {
  const token = options.token ?? createAccessToken();
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  const sockets = new Set<Socket>();
  let origins: string[] = [];
  let hosts: string[] = [];
  let apiSide: Promise<ApiSide> | null = null;
  const server = createServer((request, response) => {
    setSecurityHeaders(response, origins[0] ?? '');
    if (isArtifactFramePath(request.url ?? '/')) {
      serveArtifactFrame(request, response);
      return;
    }
    const answer = isFilesRequest(request.url)
      ? (apiSide ?? Promise.reject(new Error('not listening'))).then(({ roots }) =>
          serveDataFile(request, response, { token, allowedHosts: hosts, roots }),
        )
      : serveStatic(rendererDir, request, response);
    answer.catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new AivoryError(
              'config',
              `Port ${options.port} on ${LOOPBACK_HOST} is in use (another aivory serve?). Use --port N, or --port 0 for any free port.`,
            )
          : error.code === 'EACCES'
            ? new AivoryError(
                'config',
                `Port ${options.port} needs privileges. Use a port above 1023, or --port 0.`,
              )
            : error,
      ),
    );
    server.listen(options.port, LOOPBACK_HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  origins = [`http://${LOOPBACK_HOST}:${port}`, `http://localhost:${port}`];
  hosts = [`${LOOPBACK_HOST}:${port}`, `localhost:${port}`];
  const opening = openApiSide(options, token, origins, hosts);
  apiSide = opening;
  // A failure is reported through `ready`; requests waiting on it are refused.
  opening.catch(() => undefined);
  // A WebSocket that arrives early waits for the API (the socket stays paused meanwhile).
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    opening.then(
      ({ transport }) => transport.handleUpgrade(request, socket, head),
      () => socket.destroy(),
    );
  });
  return {
    url: `http://${LOOPBACK_HOST}:${port}/?token=${token}`,
    port,
    token,
    ready: opening.then(({ api }) => api),
    close: async () => {
      // The transport closes once it exists (at once when the API is ready).
      void opening.then(
        ({ transport }) => transport.close(),
        () => undefined,
      );
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The app, the contract's handlers and the WebSocket transport: loaded only now. */
async function openApiSide(
  options: BrowserHostOptions,
  token: string,
  origins: string[],
  hosts: string[],
): Promise<ApiSide> {
  const [app, { createApiHost }, { createWebSocketTransport }] = await Promise.all([
    typeof options.app === 'function' ? options.app() : options.app,
    import('../api-handlers'),
    import('./websocket-transport'),
  ]);
  const api = createApiHost(app, {
    env: options.env,
    policy: { allowedOrigins: origins },
    ...(options.discoveryCandidates ? { discoveryCandidates: options.discoveryCandidates } : {}),
  });
  const transport = createWebSocketTransport({
    token,
    allowedOrigins: origins,
    allowedHosts: hosts,
    dispatch: api.dispatch,
    events: api.events,
    logger: app.logger,
  });
  return { api, roots: dataFileRoots(app.dataDir, options.env), transport };
}
