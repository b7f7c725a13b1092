/**
 * A small contract client over `ws` for tests: connects with a chosen Origin and token, sends
 * request frames, collects results and events.
 */
import WebSocket from 'ws';
import type { HostFrame } from '../../../src/shared/ipc/ws-frames';

export interface TestSocket {
  socket: WebSocket;
  frames: HostFrame[];
  request(method: string, payload?: unknown): Promise<HostFrame & { type: 'result' }>;
  /** Resolves with the first event frame that satisfies `predicate` (already received or later). */
  waitForEvent(predicate: (frame: HostFrame & { type: 'event' }) => boolean): Promise<unknown>;
  close(): void;
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
export function connectTestSocket(
  url: string,
  headers: { origin?: string; host?: string },
): Promise<TestSocket> {
  const socket = new WebSocket(url, {
    ...(headers.origin ? { origin: headers.origin } : {}),
    ...(headers.host ? { headers: { host: headers.host } } : {}),
  });
  const frames: HostFrame[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as HostFrame);
    for (const listener of [...listeners]) listener();
  });
  let nextId = 1;
  const until = <T>(find: () => T | undefined): Promise<T> =>
    new Promise((resolve) => {
      const check = (): void => {
        const found = find();
        if (found === undefined) return;
        listeners.delete(check);
        resolve(found);
      };
      listeners.add(check);
      check();
    });
  const client: TestSocket = {
    socket,
    frames,
    request(method, payload) {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, payload }));
      return until(() =>
        frames.find(
          (frame): frame is HostFrame & { type: 'result' } =>
            frame.type === 'result' && frame.id === id,
        ),
      );
    },
    waitForEvent(predicate) {
      return until(() =>
        frames.find(
          (frame): frame is HostFrame & { type: 'event' } =>
            frame.type === 'event' && predicate(frame),
        ),
      );
    },
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}
