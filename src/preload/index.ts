/**
 * The preload (bundled to CommonJS, runs sandboxed): exposes `window.aivory` — `invoke` for the
 * contract's methods and `onEvent` — and nothing else of ipcRenderer.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './preload-api';

contextBridge.exposeInMainWorld('aivory', createPreloadApi(ipcRenderer));
