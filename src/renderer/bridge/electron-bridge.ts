/**
 * The contract over Electron IPC: adapts the preload's `window.aivory` (the only module that
 * touches it). The preload validates method names; the main process validates everything else.
 */
import type {
  EventName,
  EventPayload,
  InvokeMethod,
  InvokeResult,
} from '../../shared/ipc-contract';
import type { AivoryBridge } from './bridge';
import { filesUrl, unwrap } from './bridge';

/** What the preload exposes as `window.aivory` (see src/preload/index.ts). */
export interface PreloadApi {
  invoke(method: string, request: unknown): Promise<InvokeResult<InvokeMethod>>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    aivory?: PreloadApi;
  }
}

/** The preload's API when running inside the Electron window, else null. */
export function preloadApi(): PreloadApi | null {
  return window.aivory ?? null;
}

/** Wraps the preload API as a bridge. */
export function createElectronBridge(api: PreloadApi): AivoryBridge {
  return {
    host: 'electron',
    async invoke(method, request) {
      return unwrap((await api.invoke(method, request)) as InvokeResult<typeof method>);
    },
    onEvent<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void) {
      return api.onEvent((eventName, payload) => {
        if (eventName === name) listener(payload as EventPayload<E>);
      });
    },
    onConnectionChange() {
      return () => undefined;
    },
    fileUrl(path, download) {
      return filesUrl(window.location.href, { path, ...(download ? { download: '1' } : {}) });
    },
  };
}
