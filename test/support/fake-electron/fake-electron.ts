/**
 * A stand-in for the `electron` module, so the bundled Electron main (out/main/index.cjs) runs
 * under plain Node: the Electron binary cannot be installed on the build machines. It records
 * what the main process registers (the app:// handler, the IPC handler, the request filter) and,
 * once the IPC API is up, plays one scripted session against it as the app window would, prints
 * `FAKE_ELECTRON_REPORT <json>` and quits the app the way Electron does (`will-quit`).
 *
 * Transpiled to plain JavaScript by test/support/fake-electron/load.ts; it may import only Node
 * built-ins. Environment: FAKE_ELECTRON_BACKEND (Linux safeStorage backend, default
 * `gnome_libsecret`), FAKE_ELECTRON_ENCRYPTION=unavailable (no keychain at all).
 */
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => unknown;
type InvokeHandler = (event: unknown, method: unknown, payload: unknown) => unknown;
type ProtocolHandler = (request: { url: string }) => Promise<Response>;
type RequestFilter = (
  details: { url: string; resourceType: string },
  callback: (response: { cancel: boolean }) => void,
) => void;

const recorded: {
  protocolHandler: ProtocolHandler | null;
  requestFilter: RequestFilter | null;
  privilegedSchemes: unknown[];
} = { protocolHandler: null, requestFilter: null, privilegedSchemes: [] };

const appEvents = new EventEmitter();
let quitting = false;

/** The part of Electron's `app` the main process uses. */
interface FakeApp {
  isPackaged: boolean;
  whenReady(): Promise<void>;
  on(name: string, listener: Listener): FakeApp;
  quit(): void;
  exit(code?: number): void;
}

/** `app`: ready at once; `quit` emits `will-quit` and exits unless a listener prevents it. */
export const app: FakeApp = {
  isPackaged: false,
  whenReady: (): Promise<void> => Promise.resolve(),
  on(name: string, listener: Listener): FakeApp {
    appEvents.on(name, listener);
    return app;
  },
  quit(): void {
    let prevented = false;
    appEvents.emit('will-quit', { preventDefault: () => (prevented = true) });
    if (!prevented && !quitting) {
      quitting = true;
      setImmediate(() => process.exit(0));
    }
  },
  exit(code = 0): void {
    process.exit(code);
  },
};

/** `protocol`: records the privileged schemes and the one handler. */
export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    recorded.privilegedSchemes.push(...schemes);
  },
  handle(_scheme: string, handler: ProtocolHandler): void {
    recorded.protocolHandler = handler;
  },
};

/** `net`: not used by the bundle any more (files are read from disk); kept for completeness. */
export const net = { fetch: (url: string): Promise<Response> => fetch(url) };

/** `session.defaultSession`: permission handlers are accepted, the request filter recorded. */
export const session = {
  defaultSession: {
    setPermissionRequestHandler: (): void => undefined,
    setPermissionCheckHandler: (): void => undefined,
    webRequest: {
      onBeforeRequest(filter: RequestFilter): void {
        recorded.requestFilter = filter;
      },
    },
  },
};

/** `safeStorage`: a reversible stand-in cipher with a configurable availability and backend. */
export const safeStorage = {
  isEncryptionAvailable: (): boolean => process.env.FAKE_ELECTRON_ENCRYPTION !== 'unavailable',
  getSelectedStorageBackend: (): string => process.env.FAKE_ELECTRON_BACKEND ?? 'gnome_libsecret',
  encryptString: (text: string): Buffer =>
    Buffer.from(`fake-keychain:${Buffer.from(text).toString('hex')}`),
  decryptString(encrypted: Buffer): string {
    const text = encrypted.toString();
    if (!text.startsWith('fake-keychain:')) throw new Error('not ours');
    return Buffer.from(text.slice('fake-keychain:'.length), 'hex').toString();
  },
};

export const shell = {
  openExternal: (): Promise<void> => Promise.resolve(),
  openPath: (): Promise<string> => Promise.resolve(''),
  showItemInFolder: (): void => undefined,
};

const mainFrame = { url: 'app://aivory/index.html' };
const webContents = Object.assign(new EventEmitter(), {
  mainFrame,
  sent: [] as unknown[][],
  webRtcPolicy: null as string | null,
  setWindowOpenHandler: (): void => undefined,
  setWebRTCIPHandlingPolicy(policy: string): void {
    webContents.webRtcPolicy = policy;
  },
  send(...args: unknown[]): void {
    webContents.sent.push(args);
  },
});

/** `BrowserWindow`: one window whose page is the app's main frame. */
export class BrowserWindow extends EventEmitter {
  readonly webContents = webContents;
  constructor(readonly options: unknown) {
    super();
  }
  loadURL(): Promise<void> {
    return Promise.resolve();
  }
  isDestroyed(): boolean {
    return false;
  }
  show(): void {}
  static getFocusedWindow(): BrowserWindow | null {
    return null;
  }
}

/** `ipcMain`: once the invoke handler is registered, the scripted session runs against it. */
export const ipcMain = {
  handle(_channel: string, handler: InvokeHandler): void {
    setImmediate(() => void runSession(handler));
  },
  removeHandler: (): void => undefined,
};

export const dialog = {
  showMessageBox: (): Promise<{ response: number }> => Promise.resolve({ response: 0 }),
  showOpenDialog: (): Promise<{ canceled: boolean; filePaths: string[] }> =>
    Promise.resolve({ canceled: false, filePaths: ['/fake/chosen folder'] }),
};

/** What the app window does: a few calls through IPC, a few app:// requests; then it quits. */
async function runSession(invoke: InvokeHandler): Promise<void> {
  const event = { sender: webContents, senderFrame: mainFrame };
  const call = (method: string, payload?: unknown): Promise<unknown> =>
    Promise.resolve(invoke(event, method, payload));
  const report = {
    status: await call('app.status'),
    saved: await call('models.save', {
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'bundle-model',
      apiKey: 'sk-bundle-secret-1234',
    }),
    conversations: await call('conversations.list'),
    secretStorage: await call('secrets.status'),
    pickedFolder: await call('mcpRoots.pickFolder'),
    pages: await requestPages(['app://aivory/index.html', 'app://aivory/../../etc/passwd']),
    filter: filterVerdicts(),
    privilegedSchemes: recorded.privilegedSchemes,
    webRtcPolicy: webContents.webRtcPolicy,
  };
  process.stdout.write(`FAKE_ELECTRON_REPORT ${JSON.stringify(report)}\n`);
  app.quit();
}

async function requestPages(urls: string[]): Promise<unknown[]> {
  const handler = recorded.protocolHandler;
  if (handler === null) return [];
  return Promise.all(
    urls.map(async (url) => {
      const response = await handler({ url });
      const text = await response.text();
      return {
        url,
        status: response.status,
        contentType: response.headers.get('content-type'),
        csp: response.headers.get('content-security-policy'),
        hasRoot: text.includes('id="root"'),
      };
    }),
  );
}

function filterVerdicts(): Record<string, boolean> {
  const verdicts: Record<string, boolean> = {};
  const filter = recorded.requestFilter;
  if (filter === null) return verdicts;
  for (const url of ['app://aivory/index.html', 'https://evil.example/x', 'file:///etc/passwd']) {
    filter({ url, resourceType: 'xhr' }, (response) => (verdicts[url] = !response.cancel));
  }
  return verdicts;
}

export default {
  app,
  protocol,
  net,
  session,
  safeStorage,
  shell,
  BrowserWindow,
  ipcMain,
  dialog,
};
