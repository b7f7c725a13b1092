/**
 * The Electron shell's security decisions as pure functions and constants, so they are unit
 * tested under plain Node (the Electron binary cannot run on the build machines): the window's
 * web preferences, the renderer CSP, which navigations and requests are allowed, which links may
 * open in the system browser, and how `app://aivory/…` maps onto the built renderer.
 */
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { checkHttpUrl, isLoopbackHost } from '../../shared/http-url';

/** The renderer is served from this privileged custom scheme, never from `file://`. */
export const APP_SCHEME = 'app';
/** The host of every app URL. */
export const APP_HOST = 'aivory';
/** The origin the IPC sender policy accepts. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the window loads. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * The renderer's Content-Security-Policy: nothing but the app's own scripts and styles; images
 * from the app, data/blob URLs and https (a remote image is only requested after a click); no
 * network connections (everything goes through IPC) but reads of the app's own data files
 * (`app://aivory/files`, for the artifact viewer); frames of the app only (the artifact viewer's
 * sandboxed frame); no objects, forms or base.
 *
 * With `devServer` (`npm run dev` only, never in a packaged app) Vite's needs are added:
 * its inline React-refresh preamble and injected styles, and the hot-update WebSocket.
 */
export function rendererCsp(devServer: string | null = null): string {
  const dev = devServer !== null;
  const socket = dev ? devServer.replace(/^http/, 'ws') : '';
  return [
    "default-src 'none'",
    dev ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    // Production: only the data files (`app://aivory/files?…`, the artifact viewer reads them).
    dev ? `connect-src 'self' ${socket}` : `connect-src ${APP_ORIGIN}/files`,
    "base-uri 'none'",
    "form-action 'none'",
    // The artifact viewer's sandboxed frame (shared/artifact-frame.ts) only.
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The Vite dev server's origin for `npm run dev` (electron-vite sets `ELECTRON_RENDERER_URL`) when the app is not
 * packaged and the URL is plain http on a loopback address; null otherwise (a packaged app never
 * loads anything but its own files, whatever the environment says).
 */
export function devServerOrigin(
  env: Record<string, string | undefined>,
  isPackaged: boolean,
): string | null {
  const raw = env.ELECTRON_RENDERER_URL?.trim();
  if (isPackaged || !raw) return null;
  const verdict = checkHttpUrl(raw);
  if (!verdict.ok || verdict.url.protocol !== 'http:') return null;
  return isLoopbackHost(verdict.hostname) ? verdict.url.origin : null;
}

/**
 * The main window's `webPreferences`: context isolation, the OS sandbox, no Node anywhere, web
 * security on, no webviews or insecure content. `preload` is the bundled CommonJS preload.
 */
export function mainWindowWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  } as const;
}

/**
 * The window's WebRTC policy (`webContents.setWebRTCIPHandlingPolicy`). The Content Security
 * Policy does not govern WebRTC: an HTML artifact running in its isolated frame could otherwise
 * send UDP (STUN to a server of its choosing) and carry data out. Without a proxy, this leaves it
 * no route at all; the app itself uses no WebRTC.
 */
export const WEBRTC_IP_HANDLING_POLICY = 'disable_non_proxied_udp';

/** True for a URL inside the app (same scheme and host); parsed, never prefix-matched. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * The URL to hand to the system browser for a link the user clicked, or null when it must not be
 * opened: only http, https and mailto, and never with credentials in it.
 */
export function externalOpenUrl(url: string): string | null {
  const verdict = checkHttpUrl(url, { otherSchemes: ['mailto:'] });
  return verdict.ok ? verdict.url.href : null;
}

/**
 * The renderer's network kill switch: requests it may make (the app's own files, data and blob
 * URLs, devtools; https only for images the user asked to load; in development the dev server's
 * hot-update WebSocket). Everything else is cancelled.
 */
export function isAllowedRendererRequest(
  url: string,
  resourceType: string,
  devServer: string | null = null,
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const protocol = parsed.protocol;
  if (protocol === 'https:') return resourceType === 'image';
  if (devServer !== null && protocol === 'ws:') {
    return parsed.host === new URL(devServer).host;
  }
  return (
    ['app:', 'data:', 'blob:', 'devtools:'].includes(protocol) &&
    (protocol !== 'app:' || isAppUrl(url))
  );
}

/** Every permission request (camera, microphone, notifications, …) is refused. */
export function allowPermission(_permission: string): boolean {
  return false;
}

/**
 * The file under `rendererRoot` that an `app://aivory/…` request names, or null when the request
 * is for another host or tries to leave the root. `/` is `index.html`.
 */
export function appRequestFile(url: string, rendererRoot: string): string | null {
  if (!isAppUrl(url)) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const target = normalize(join(rendererRoot, pathname === '/' ? 'index.html' : pathname));
  const inside = relative(rendererRoot, target);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || inside.startsWith(sep))
    return null;
  return target;
}
