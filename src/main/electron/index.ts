/**
 * The Electron main process: the composition root of the desktop app. Serves the built renderer
 * on app://aivory (with the CSP; from the Vite dev server under `npm run dev`), opens the shared
 * AppContext (secrets through safeStorage, one warm sandbox), warns when the keychain is weak,
 * registers the IPC API, denies permissions and cuts the renderer off the network.
 */
import { app, BrowserWindow, dialog, protocol, safeStorage, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { resolveDataDir } from '../adapters/data-dir';
import { createApiHost } from '../host/api-handlers';
import { installCrashGuard } from '../host/crash-guard';
import type { AppContext } from '../composition/app-context';
import { openAppContext } from '../composition/app-context';
import { STARTUP_FAILURE_TITLE, startupFailure } from '../services/startup-failure';
import { dataFileRoots } from '../host/files/data-files';
import { isArtifactFramePath } from '../../shared/artifact-frame';
import { proxyToDevServer, serveAppFile } from './app-protocol';
import { appFilesResponse, isAppFilesUrl } from './data-file-protocol';
import { createFolderPicker } from './folder-picker';
import { registerApiIpc } from './ipc/typed-ipc';
import {
  allowPermission,
  APP_ORIGIN,
  APP_SCHEME,
  devServerOrigin,
  isAllowedRendererRequest,
} from './security';
import { createDesktopSecretStore, keychainStatus } from './secret-storage';
import { createMainWindow } from './window';

/** Built layout: out/main/index.cjs, out/preload/index.cjs, out/renderer/. */
const RENDERER_ROOT = fileURLToPath(new URL('../renderer/', import.meta.url));
const PRELOAD_PATH = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let context: AppContext | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  const env = { ...process.env, AIVORY_HOME: resolveDataDir(process.env) };
  const dataDir = env.AIVORY_HOME;
  const devServer = devServerOrigin(process.env, app.isPackaged);
  protocol.handle(APP_SCHEME, async (request) => {
    if (isAppFilesUrl(request.url))
      return appFilesResponse(request.url, dataFileRoots(dataDir, env));
    // The artifact frame has its own CSP, also in development (serveAppFile answers it).
    return devServer === null || isArtifactFramePath(request.url)
      ? serveAppFile(request.url, RENDERER_ROOT)
      : proxyToDevServer(request.url, devServer);
  });
  const defaultSession = session.defaultSession;
  defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(allowPermission(permission)),
  );
  defaultSession.setPermissionCheckHandler((_contents, permission) => allowPermission(permission));
  defaultSession.webRequest.onBeforeRequest((details, callback) =>
    callback({
      cancel: !isAllowedRendererRequest(details.url, details.resourceType, devServer),
    }),
  );

  try {
    context = openAppContext({
      env,
      secrets: createDesktopSecretStore(safeStorage, dataDir),
      warmPool: 1,
      scheduleBackups: true,
    });
  } catch (error) {
    // The same words as the CLI's (a read-only folder, a full disk, a locked or damaged
    // database), in a box: there is no window yet and no log to point to.
    const failure = startupFailure(error, dataDir);
    console.error(`Aivory failed to start: ${failure.message}`);
    dialog.showErrorBox(STARTUP_FAILURE_TITLE, failure.message);
    app.exit(1);
    return;
  }
  const keychain = keychainStatus(safeStorage, process.platform);
  if (keychain.warning !== null) {
    context.logger.warn(keychain.warning, {
      protection: keychain.protection,
      backend: keychain.backend,
    });
    console.warn(`Aivory: ${keychain.warning}`);
  }
  const host = createApiHost(context, {
    env,
    policy: { allowedOrigins: [APP_ORIGIN] },
    secretStorage: { protection: keychain.protection, backend: keychain.backend },
    desktop: {
      openPath: (path) => shell.openPath(path),
      showItemInFolder: (path) => shell.showItemInFolder(path),
      pickFolder: createFolderPicker((options) => {
        const parent = BrowserWindow.getFocusedWindow();
        return parent === null
          ? dialog.showOpenDialog(options)
          : dialog.showOpenDialog(parent, options);
      }),
    },
  });
  // One tool's stray error must not close the app; a burst of them quits it cleanly (the
  // will-quit handler closes the context and archives sandbox workspaces).
  installCrashGuard({
    logger: context.logger,
    notice: (text) => console.error(text.trimEnd()),
    onFatal: () => app.quit(),
  });
  const window = await createMainWindow(PRELOAD_PATH);
  const unregister = registerApiIpc(window, host);
  window.on('closed', unregister);
}

app.on('window-all-closed', () => app.quit());
app.on('will-quit', (event) => {
  if (context === null) return;
  event.preventDefault();
  const closing = context;
  context = null;
  // Workspaces that could not be saved keep their containers; the user is told before the app
  // goes (the same lines the CLI prints; the next start saves them).
  void closing
    .close()
    .then(async (warnings) => {
      if (warnings.length === 0) return;
      await dialog.showMessageBox({
        type: 'warning',
        title: 'Aivory',
        message: 'Some sandbox files could not be saved',
        detail: warnings.join('\n\n'),
      });
    })
    .catch((error: unknown) => console.error('Aivory did not close cleanly:', error))
    .finally(() => app.quit());
});

start().catch((error: unknown) => {
  console.error('Aivory failed to start:', error);
  app.exit(1);
});
