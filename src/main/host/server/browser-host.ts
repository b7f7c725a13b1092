/**
 * `aivory serve`'s server: HTTP on 127.0.0.1 only, the built renderer as static files, the
 * contract over `/ws`. The URL it returns carries the per-start token the WebSocket demands.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { RENDERER_DIR } from '../../adapters/install-layout';
import type { AppContext } from '../../services/app-context';
import type { ApiHost } from '../api-handlers';
import { createApiHost } from '../api-handlers';
import type { DiscoveryCandidate } from '../host-context';
import { dataFileRoots } from '../files/data-files';
import { createAccessToken } from './access-token';
import { isFilesRequest, serveDataFile } from './files-route';
import { serveStatic, setSecurityHeaders } from './static-files';
import { createWebSocketTransport } from './websocket-transport';

/** The address the browser host listens on: never a public interface. */
export const LOOPBACK_HOST = '127.0.0.1';
/** Where the build writes the renderer. */
export const DEFAULT_RENDERER_DIR = RENDERER_DIR;

/** How to start the browser host. */
export interface BrowserHostOptions {
  app: AppContext;
  env: Record<string, string | undefined>;
  /** 0 picks a free port. */
  port: number;
  rendererDir?: string;
  /** Fixed token (tests); a random one otherwise. */
  token?: string;
  discoveryCandidates?: readonly DiscoveryCandidate[];
}

/** A running browser host. */
export interface BrowserHost {
  /** `http://127.0.0.1:PORT/?token=…`, the address to open. */
  url: string;
  port: number;
  token: string;
  api: ApiHost;
  close(): Promise<void>;
}

/** Starts listening; resolves once the port is bound. */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? createAccessToken();
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  const sockets = new Set<Socket>();
  let origins: string[] = [];
  let hosts: string[] = [];
  const roots = dataFileRoots(options.app.dataDir, options.env);
  const server = createServer((request, response) => {
    setSecurityHeaders(response, origins[0] ?? '');
    const answer = isFilesRequest(request.url)
      ? serveDataFile(request, response, { token, allowedHosts: hosts, roots })
      : serveStatic(rendererDir, request, response);
    answer.catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK_HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  origins = [`http://${LOOPBACK_HOST}:${port}`, `http://localhost:${port}`];
  hosts = [`${LOOPBACK_HOST}:${port}`, `localhost:${port}`];
  const api = createApiHost(options.app, {
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
    logger: options.app.logger,
  });
  server.on('upgrade', (request, socket, head) => transport.handleUpgrade(request, socket, head));
  return {
    url: `http://${LOOPBACK_HOST}:${port}/?token=${token}`,
    port,
    token,
    api,
    close: async () => {
      transport.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
