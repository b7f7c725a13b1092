/**
 * `npm run dev`: the renderer from Vite's dev server with hot reload, both Electron bundles
 * rebuilt on change (out/main, out/preload) and the app restarted after each rebuild. The main
 * process serves app://aivory from the dev server (AIVORY_DEV_SERVER_URL, honoured only when the
 * app is not packaged), so the page keeps its app:// origin and IPC checks stay as in production.
 *
 * Needs the Electron binary, so it cannot run on the build machines; its configurations are
 * tested in test/unit/electron/dev-configs.test.ts.
 */
import { build, createServer } from 'vite';
import type { ElectronBundle } from './electron-dev/dev-configs';
import {
  DEV_HOST,
  DEV_PORT,
  electronWatchConfig,
  rendererDevConfig,
} from './electron-dev/dev-configs';
import { electronProcess } from './electron-dev/electron-process';

/** What `build` returns in watch mode (vite's own type, without importing rolldown directly). */
type RolldownWatcher = Extract<Awaited<ReturnType<typeof build>>, { close(): Promise<void> }>;

/** Rebuilds of main and preload often finish together: restart once for both. */
const RESTART_DEBOUNCE_MS = 150;

/** Starts a watch build; calls `onBuilt` after every successful build. */
async function watchBundle(bundle: ElectronBundle, onBuilt: () => void): Promise<RolldownWatcher> {
  const watcher = (await build(electronWatchConfig(bundle))) as RolldownWatcher;
  watcher.on('event', (event) => {
    if (event.code === 'END') onBuilt();
    if (event.code === 'ERROR') console.error(`[dev] ${bundle} build failed:`, event.error.message);
    if (event.code === 'BUNDLE_END' || event.code === 'ERROR') void event.result.close();
  });
  return watcher;
}

async function main(): Promise<void> {
  const server = await createServer(rendererDevConfig(DEV_PORT));
  await server.listen();
  const url = `http://${DEV_HOST}:${DEV_PORT}`;
  console.log(`[dev] renderer dev server at ${url}`);

  const built = new Set<ElectronBundle>();
  let timer: NodeJS.Timeout | undefined;
  const watchers: RolldownWatcher[] = [];
  const shutdown = async (): Promise<void> => {
    clearTimeout(timer);
    await app.stop();
    await Promise.all(watchers.map((watcher) => watcher.close()));
    await server.close();
    process.exit(0);
  };
  const app = electronProcess(url, () => void shutdown());
  const scheduleRestart = (bundle: ElectronBundle): void => {
    built.add(bundle);
    if (built.size < 2) return;
    clearTimeout(timer);
    timer = setTimeout(() => void app.restart(), RESTART_DEBOUNCE_MS);
  };
  watchers.push(await watchBundle('main', () => scheduleRestart('main')));
  watchers.push(await watchBundle('preload', () => scheduleRestart('preload')));
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error('[dev] failed:', error);
  process.exit(1);
});
