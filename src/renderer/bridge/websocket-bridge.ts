/**
 * The contract over `aivory serve`'s WebSocket. The page URL carries `?token=…` once: it is kept
 * in sessionStorage (this tab only) and removed from the address bar, then sent on every
 * (re)connect. Requests wait for the socket; a dropped socket fails pending calls and reconnects.
 */
import type {
  EventName,
  EventPayload,
  InvokeMethod,
  InvokeResult,
} from '../../shared/ipc-contract';
import { parseHostFrame } from '../../shared/ipc/host-frame-check';
import { MAX_REQUEST_ID } from '../../shared/ipc/limits';
import type { AivoryBridge } from './bridge';
import { BridgeError, filesUrl, unwrap } from './bridge';

const TOKEN_KEY = 'aivory.token';
/** Wait between reconnect attempts. */
const RECONNECT_DELAY_MS = 1000;

type Pending = (result: InvokeResult<InvokeMethod>) => void;

/** Reads the token from the URL (then hides it) or from this tab's session storage. */
export function takeToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    window.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  return window.sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** Connects to `/ws` of the page's own origin. */
export function createWebSocketBridge(token: string): AivoryBridge {
  const socketUrl = new URL('ws', window.location.href);
  socketUrl.protocol = socketUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  socketUrl.search = `?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const eventListeners = new Set<(name: string, payload: unknown) => void>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const waiting: ((socket: WebSocket) => void)[] = [];
  let nextId = 1;
  let current: WebSocket | null = null;

  function whenOpen(): Promise<WebSocket> {
    if (current !== null) return Promise.resolve(current);
    return new Promise((resolve) => waiting.push(resolve));
  }

  function connect(): void {
    const candidate = new WebSocket(socketUrl);
    candidate.addEventListener('open', () => {
      current = candidate;
      for (const listener of connectionListeners) listener(true);
      for (const resolve of waiting.splice(0)) resolve(candidate);
    });
    candidate.addEventListener('message', (message) => receive(message.data));
    candidate.addEventListener('close', () => {
      if (current === candidate) current = null;
      for (const [id, settle] of pending) {
        pending.delete(id);
        settle({ ok: false, error: { code: 'connection', message: 'Connection lost.' } });
      }
      for (const listener of connectionListeners) listener(false);
      window.setTimeout(connect, RECONNECT_DELAY_MS);
    });
  }
  connect();

  function receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const frame = parseHostFrame(json);
    if (frame === null) return;
    if (frame.type === 'event') {
      for (const listener of eventListeners) listener(frame.name, frame.payload);
      return;
    }
    const settle = pending.get(frame.id);
    pending.delete(frame.id);
    settle?.(frame.result as InvokeResult<InvokeMethod>);
  }

  return {
    host: 'browser',
    async invoke(method, request) {
      const open = await whenOpen();
      const id = nextId;
      nextId = nextId >= MAX_REQUEST_ID ? 1 : nextId + 1;
      const result = await new Promise<InvokeResult<InvokeMethod>>((resolve) => {
        pending.set(id, resolve);
        open.send(JSON.stringify({ id, method, payload: request }));
      });
      if (!result.ok && result.error.code === 'connection') {
        throw new BridgeError('connection', result.error.message);
      }
      return unwrap(result as InvokeResult<typeof method>);
    },
    onEvent<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void) {
      const wrapped = (eventName: string, payload: unknown): void => {
        if (eventName === name) listener(payload as EventPayload<E>);
      };
      eventListeners.add(wrapped);
      return () => eventListeners.delete(wrapped);
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    fileUrl(path, download) {
      return filesUrl(window.location.href, {
        path,
        token,
        ...(download ? { download: '1' } : {}),
      });
    },
  };
}
