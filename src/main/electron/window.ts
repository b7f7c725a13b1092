/**
 * The main window: the hardened web preferences from security.ts, the app:// entry, navigation
 * locked to the app, new windows denied (http/https/mailto links go to the system browser),
 * webviews refused; a dead or hung renderer reloaded (`crash-recovery.ts`).
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { BrowserWindow, shell } from 'electron';
import { installCrashRecovery } from './crash-recovery';
import {
  APP_ENTRY_URL,
  externalOpenUrl,
  isAppUrl,
  mainWindowWebPreferences,
  WEBRTC_IP_HANDLING_POLICY,
} from './security';

/** The options of the one app window. */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Aivory',
    backgroundColor: '#f7f7f5',
    webPreferences: mainWindowWebPreferences(preloadPath),
  };
}

/** Opens a vetted link in the system browser; anything else is dropped. */
function openExternally(url: string): void {
  const target = externalOpenUrl(url);
  if (target !== null) void shell.openExternal(target);
}

/** Creates the window with every navigation guard in place, then loads the app. */
export async function createMainWindow(preloadPath: string): Promise<BrowserWindow> {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  const contents = window.webContents;
  contents.setWebRTCIPHandlingPolicy(WEBRTC_IP_HANDLING_POLICY);
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    openExternally(url);
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // A renderer that dies (a file too large for the viewer, out of memory) or hangs would leave a
  // blank or frozen window: reload it into the app, which says so and reopens the conversation.
  installCrashRecovery(contents, APP_ENTRY_URL, (message) => console.error(message));
  window.once('ready-to-show', () => window.show());
  await window.loadURL(APP_ENTRY_URL);
  return window;
}
