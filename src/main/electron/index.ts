/**
 * The Electron main process: the composition root of the desktop app. Serves the built renderer
 * on app://aivory (with the CSP), opens the shared AppContext (secrets through safeStorage, one
 * warm sandbox), registers the IPC API, denies permissions and cuts the renderer off the network.
 */
import { app, net, protocol, safeStorage, session } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EncryptedSecretStore } from '../adapters/secrets/encrypted-secret-store';
import { FileSecretStore } from '../adapters/secrets/file-secret-store';
import { resolveDataDir } from '../adapters/data-dir';
import { createApiHost } from '../host/api-handlers';
import type { AppContext } from '../services/app-context';
import { openAppContext } from '../services/app-context';
import { registerApiIpc } from './ipc/typed-ipc';
import {
  allowPermission,
  APP_ORIGIN,
  APP_SCHEME,
  appRequestFile,
  isAllowedRendererRequest,
  rendererCsp,
} from './security';
import { createMainWindow } from './window';

/** Built layout: out/main/index.js, out/preload/preload.cjs, out/renderer/. */
const RENDERER_ROOT = fileURLToPath(new URL('../renderer/', import.meta.url));
const PRELOAD_PATH = fileURLToPath(new URL('../preload/preload.cjs', import.meta.url));

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let context: AppContext | null = null;

async function start(): Promise<void> {
  await app.whenReady();
  protocol.handle(APP_SCHEME, async (request) => {
    const file = appRequestFile(request.url, RENDERER_ROOT);
    if (file === null) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', rendererCsp());
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
  const defaultSession = session.defaultSession;
  defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(allowPermission(permission)),
  );
  defaultSession.setPermissionCheckHandler((_contents, permission) => allowPermission(permission));
  defaultSession.webRequest.onBeforeRequest((details, callback) =>
    callback({ cancel: !isAllowedRendererRequest(details.url, details.resourceType) }),
  );

  const env = { ...process.env, AIVORY_HOME: resolveDataDir(process.env) };
  const secrets = new EncryptedSecretStore(
    new FileSecretStore(join(env.AIVORY_HOME, 'secrets.json')),
    safeStorage,
  );
  context = openAppContext({ env, secrets, warmPool: 1 });
  const host = createApiHost(context, { env, policy: { allowedOrigins: [APP_ORIGIN] } });
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
  void closing.close().finally(() => app.quit());
});

start().catch((error: unknown) => {
  console.error('Aivory failed to start:', error);
  app.exit(1);
});
