/**
 * The Vite configurations of `npm run dev`, kept apart from the runner so a test can resolve them
 * and start the same dev server and watch builds (Electron itself cannot run on the build machines).
 */
import { join } from 'node:path';
import type { InlineConfig } from 'vite';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');
/** The dev server listens on loopback only; the Electron main proxies app:// to it. */
export const DEV_HOST = '127.0.0.1';
/** Vite's usual port; `strictPort`, so a busy port fails loudly instead of moving silently. */
export const DEV_PORT = 5173;

/** The renderer dev server (vite.config.ts plus host, port and the hot-update socket). */
export function rendererDevConfig(port: number = DEV_PORT): InlineConfig {
  return {
    configFile: join(ROOT, 'vite.config.ts'),
    mode: 'development',
    server: {
      host: DEV_HOST,
      port,
      strictPort: true,
      // The page's origin is app://aivory, so the client must be told where the socket is.
      hmr: { protocol: 'ws', host: DEV_HOST, ...(port === 0 ? {} : { port, clientPort: port }) },
    },
  };
}

/** Which Electron bundle a watch build produces (`vite.electron.config.ts --mode …`). */
export type ElectronBundle = 'main' | 'preload';

/** A watch build of one Electron bundle; `outDir` is for tests (default: out/main, out/preload). */
export function electronWatchConfig(bundle: ElectronBundle, outDir?: string): InlineConfig {
  return {
    configFile: join(ROOT, 'vite.electron.config.ts'),
    mode: bundle,
    logLevel: 'warn',
    build: { watch: {}, ...(outDir === undefined ? {} : { outDir }) },
  };
}
