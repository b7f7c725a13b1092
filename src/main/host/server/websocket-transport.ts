/**
 * The contract over a WebSocket at `/ws`. The upgrade is refused (before any frame) unless the
 * Host is the loopback address the server listens on, the Origin is the app's own, and the
 * `token` query parameter matches (constant time). Each socket then forwards hub events and
 * answers request frames through the dispatcher with its sender descriptor filled in.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { WebSocketServer } from 'ws';
import type { HostFrame } from '../../../shared/ipc/ws-frames';
import { requestFrameSchema } from '../../../shared/ipc/ws-frames';
import { MAX_REQUEST_FRAME_BYTES } from '../../../shared/ipc/chat-extras-methods';
import type { Logger } from '../../core/ports';
import type { Dispatch } from '../dispatcher';
import { failure } from '../dispatcher';
import type { EventHub } from '../event-hub';
import type { SenderDescriptor } from '../sender';
import { tokenMatches } from './access-token';

/**
 * Largest frame a browser may send: a `chat.send` with its attached files in base64 (the
 * contract caps them; only an authenticated socket gets this far).
 */
export const MAX_FRAME_BYTES = MAX_REQUEST_FRAME_BYTES;
/** A socket whose unsent backlog exceeds this is a stalled client: it is closed. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** The checks and the API one WebSocket transport serves. */
export interface WebSocketTransportOptions {
  token: string;
  /** The origins allowed to connect, e.g. `http://127.0.0.1:5217`. */
  allowedOrigins: readonly string[];
  /** The Host header values allowed (DNS-rebinding guard), e.g. `127.0.0.1:5217`. */
  allowedHosts: readonly string[];
  dispatch: Dispatch;
  events: EventHub;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** The WebSocket side of the browser host. */
export interface WebSocketTransport {
  /** Handles an HTTP upgrade: accepts `/ws` with a valid token and origin, refuses the rest. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

/** Builds the transport; attach `handleUpgrade` to the HTTP server's `upgrade` event. */
export function createWebSocketTransport(options: WebSocketTransportOptions): WebSocketTransport {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  server.on('connection', (socket: WebSocket, request: IncomingMessage) =>
    serveSocket(socket, senderOf(request), options),
  );
  return {
    handleUpgrade(request, socket, head) {
      const refusal = upgradeRefusal(request, options);
      if (refusal !== null) {
        options.logger.warn('websocket upgrade refused', { reason: refusal.reason });
        socket.end(`HTTP/1.1 ${refusal.status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      server.handleUpgrade(request, socket, head, (client) =>
        server.emit('connection', client, request),
      );
    },
    close() {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}

/** Why an upgrade is refused (status line and log reason), or null to accept it. */
export function upgradeRefusal(
  request: IncomingMessage,
  options: Pick<WebSocketTransportOptions, 'token' | 'allowedOrigins' | 'allowedHosts'>,
): { status: string; reason: string } | null {
  const url = new URL(request.url ?? '/', 'http://host');
  if (url.pathname !== '/ws') return { status: '404 Not Found', reason: 'path' };
  if (!options.allowedHosts.includes(request.headers.host ?? '')) {
    return { status: '403 Forbidden', reason: 'host' };
  }
  const origin = request.headers.origin;
  if (origin === undefined || !options.allowedOrigins.includes(origin)) {
    return { status: '403 Forbidden', reason: 'origin' };
  }
  if (!tokenMatches(options.token, url.searchParams.get('token'))) {
    return { status: '401 Unauthorized', reason: 'token' };
  }
  return null;
}

function senderOf(request: IncomingMessage): SenderDescriptor {
  return {
    transport: 'websocket',
    origin: request.headers.origin ?? null,
    mainFrame: true,
    authenticated: true,
  };
}

function serveSocket(
  socket: WebSocket,
  sender: SenderDescriptor,
  options: WebSocketTransportOptions,
): void {
  const send = (frame: HostFrame): void => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      options.logger.warn('websocket client stalled; closing it', {});
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(frame));
  };
  const unsubscribe = options.events.subscribe((event) =>
    send({ type: 'event', name: event.name, payload: event.payload }),
  );
  socket.on('close', unsubscribe);
  socket.on('error', () => socket.terminate());
  socket.on('message', (data, isBinary) => {
    const frame = readFrame(isBinary ? null : data.toString());
    if (frame === null) {
      send({ type: 'result', id: -1, result: failure('invalid-input', 'Unreadable frame.') });
      return;
    }
    options.dispatch(frame.method, frame.payload, sender).then(
      (result) => send({ type: 'result', id: frame.id, result }),
      (error: unknown) => {
        options.logger.error('dispatch failed', { error: String(error) });
        send({ type: 'result', id: frame.id, result: failure('internal', 'Internal error.') });
      },
    );
  });
}

function readFrame(text: string | null): { id: number; method: string; payload?: unknown } | null {
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = requestFrameSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
