/**
 * The renderer's only door to the main process: the IPC contract as `invoke` + `onEvent`. Two
 * implementations: Electron's preload (`window.aivory`) and a WebSocket client for `aivory serve`.
 * Nothing else in the renderer knows which one runs.
 */
import type {
  EventName,
  EventPayload,
  InvokeMethod,
  InvokeRequest,
  InvokeResponse,
  InvokeResult,
} from '../../shared/ipc-contract';

/** A failed call: the host's `{ code, message }`, safe to show. */
export class BridgeError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'BridgeError';
    this.code = code;
  }
}

/** The contract as the renderer calls it. */
export interface AivoryBridge {
  /** Which host runs the UI (the browser host offers downloads instead of "show in folder"). */
  readonly host: 'electron' | 'browser';
  /** Calls a method; rejects with a BridgeError when the host answers `{ ok: false }`. */
  invoke<M extends InvokeMethod>(method: M, request?: InvokeRequest<M>): Promise<InvokeResponse<M>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  onEvent<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** Reports connection changes (the WebSocket may drop; Electron's IPC never does). */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /**
   * The address of a data-directory file (an artifact or an attachment copy) for `<img>` and
   * download links: `/files?path=…&token=…` in the browser host, `app://aivory/files?path=…` on
   * the desktop. The host decides what it serves.
   */
  fileUrl(path: string, download: boolean): string;
}

/** `/files` on the page's own origin with the given query parameters. */
export function filesUrl(pageUrl: string, parameters: Readonly<Record<string, string>>): string {
  const url = new URL('/files', pageUrl);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.href;
}

/** The raw transport both bridges adapt: result envelopes, untyped events. */
export interface RawTransport {
  invoke(method: string, request: unknown): Promise<InvokeResult<InvokeMethod>>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

/** Unwraps a result envelope: the value, or a thrown BridgeError. */
export function unwrap<M extends InvokeMethod>(result: InvokeResult<M>): InvokeResponse<M> {
  if (result.ok) return result.value;
  throw new BridgeError(result.error.code, result.error.message);
}
