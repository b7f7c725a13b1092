/** Picks the bridge for the host the renderer runs in. */
import type { AivoryBridge } from './bridge';
import { createElectronBridge, preloadApi } from './electron-bridge';
import { createWebSocketBridge, takeToken } from './websocket-bridge';

/** Electron's preload when present, otherwise the `aivory serve` WebSocket. */
export function createBridge(): AivoryBridge {
  const api = preloadApi();
  return api ? createElectronBridge(api) : createWebSocketBridge(takeToken());
}
