/**
 * The object the preload exposes as `window.aivory`, built over a narrow IPC port so it is tested
 * without Electron. It offers exactly two functions: `invoke` for the contract's methods (any other
 * name is refused before IPC) and `onEvent`. The raw ipcRenderer never reaches the page.
 */
import type { InvokeMethod, InvokeResult } from '../shared/ipc-contract';
import { isInvokeMethod } from '../shared/ipc-contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc/electron-channels';

/** The part of ipcRenderer the preload uses. */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
}

/** `window.aivory` (see src/renderer/bridge/electron-bridge.ts for its consumer). */
export interface PreloadApi {
  invoke(method: string, request: unknown): Promise<InvokeResult<InvokeMethod>>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

/** Builds `window.aivory` over the given ipcRenderer. */
export function createPreloadApi(ipc: PreloadIpc): PreloadApi {
  return {
    invoke(method, request) {
      if (!isInvokeMethod(method)) {
        return Promise.resolve({
          ok: false,
          error: { code: 'unknown-method', message: 'Unknown method.' },
        });
      }
      return ipc.invoke(INVOKE_CHANNEL, method, request) as Promise<InvokeResult<InvokeMethod>>;
    },
    onEvent(listener) {
      const handler = (_event: unknown, name: unknown, payload: unknown): void => {
        if (typeof name === 'string') listener(name, payload);
      };
      ipc.on(EVENT_CHANNEL, handler);
      return () => ipc.removeListener(EVENT_CHANNEL, handler);
    },
  };
}
