import { describe, expect, it } from 'vitest';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../src/shared/ipc/electron-channels';
import { electronSender } from '../../../src/main/electron/ipc/sender-validation';
import { fakeIpc } from '../../support/fake-ipc';
import { createPreloadApi } from '../../../src/preload/preload-api';
import {
  allowPermission,
  APP_ORIGIN,
  appRequestFile,
  externalOpenUrl,
  isAllowedRendererRequest,
  isAppUrl,
  mainWindowWebPreferences,
  rendererCsp,
  WEBRTC_IP_HANDLING_POLICY,
} from '../../../src/main/electron/security';
import { senderRefusal } from '../../../src/main/host/sender';

const POLICY = { allowedOrigins: [APP_ORIGIN] };

describe('Electron shell: window and navigation', () => {
  it('the window is isolated, sandboxed, without Node, with web security', () => {
    expect(mainWindowWebPreferences('/app/preload.cjs')).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('WebRTC has no route out of the window (the CSP does not govern it)', () => {
    // The window applies it (test/integration/electron-bundle.test.ts runs the bundle).
    expect(WEBRTC_IP_HANDLING_POLICY).toBe('disable_non_proxied_udp');
  });

  it('the CSP allows only the app itself, and connections only to its data files', () => {
    const csp = rendererCsp();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('connect-src app://aivory/files;');
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('navigation stays inside app://aivory, checked by parsing, not by prefix', () => {
    expect(isAppUrl('app://aivory/index.html#/chat')).toBe(true);
    for (const url of [
      'app://aivory.evil.example/index.html',
      'app://evil/index.html',
      'https://aivory/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });

  it('only http(s) and mailto links without credentials open in the system browser', () => {
    expect(externalOpenUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(externalOpenUrl('mailto:me@example.com')).toBe('mailto:me@example.com');
    for (const url of [
      'file:///etc/passwd',
      'smb://host/share',
      'javascript:alert(1)',
      'ms-msdt:/id',
      'https://user:pass@example.com/',
      'app://aivory/index.html',
    ]) {
      expect(externalOpenUrl(url), url).toBeNull();
    }
  });

  it('permissions are denied; the renderer may only reach the app, data/blob and clicked images', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      expect(allowPermission(permission)).toBe(false);
    }
    expect(isAllowedRendererRequest('app://aivory/assets/index.js', 'script')).toBe(true);
    expect(isAllowedRendererRequest('data:image/png;base64,AA', 'image')).toBe(true);
    expect(isAllowedRendererRequest('https://img.example/a.png', 'image')).toBe(true);
    expect(isAllowedRendererRequest('https://evil.example/x', 'xhr')).toBe(false);
    expect(isAllowedRendererRequest('http://127.0.0.1:11434/v1/models', 'xhr')).toBe(false);
    expect(isAllowedRendererRequest('app://other/x', 'script')).toBe(false);
    expect(isAllowedRendererRequest('file:///etc/passwd', 'other')).toBe(false);
  });

  it('app:// requests map inside the renderer root only', () => {
    expect(appRequestFile('app://aivory/', '/r')).toBe('/r/index.html');
    expect(appRequestFile('app://aivory/assets/a.js', '/r')).toBe('/r/assets/a.js');
    // The URL parser already resolves a literal `..` against the root.
    expect(appRequestFile('app://aivory/../index.html', '/r')).toBe('/r/index.html');
    for (const url of ['app://aivory/%2e%2e/secret', 'app://aivory/a/../../../secret']) {
      const file = appRequestFile(url, '/r');
      expect(file === null || file.startsWith('/r/'), url).toBe(true);
    }
    for (const url of [
      'app://aivory/assets/..%2f..%2fsecret',
      'app://aivory/a%00b',
      'app://aivory/a%5c..%5csecret',
      'app://other/index.html',
    ]) {
      expect(appRequestFile(url, '/r'), url).toBeNull();
    }
  });
});

describe('Electron shell: IPC senders', () => {
  const app = { frameUrl: 'app://aivory/index.html', isMainFrame: true, fromAppWindow: true };

  it("the app window's main frame is accepted", () => {
    expect(senderRefusal(electronSender(app), POLICY)).toBeNull();
  });

  it('sub-frames, other windows, foreign or vanished frames are refused', () => {
    const foreign = [
      { ...app, isMainFrame: false },
      { ...app, fromAppWindow: false },
      { ...app, frameUrl: 'https://evil.example/' },
      { ...app, frameUrl: 'app://evil/index.html' },
      { ...app, frameUrl: 'file:///tmp/x.html' },
      { ...app, frameUrl: null },
    ];
    for (const facts of foreign) {
      expect(senderRefusal(electronSender(facts), POLICY), JSON.stringify(facts)).not.toBeNull();
    }
  });
});

describe('Electron shell: the preload API', () => {
  it('invokes only contract methods, on the one invoke channel', async () => {
    const ipc = fakeIpc();
    const api = createPreloadApi(ipc);
    expect(await api.invoke('conversations.list', {})).toEqual({ ok: true, value: 'answer' });
    expect(ipc.invoked).toEqual([[INVOKE_CHANNEL, 'conversations.list', {}]]);
    for (const name of ['fs.readFile', '__proto__', 'mcp:stdio-transport:create']) {
      expect(await api.invoke(name, {})).toMatchObject({
        ok: false,
        error: { code: 'unknown-method' },
      });
    }
    expect(ipc.invoked).toHaveLength(1);
  });

  it('forwards events without the IPC event object, and unsubscribes', () => {
    const ipc = fakeIpc();
    const api = createPreloadApi(ipc);
    const received: unknown[][] = [];
    const off = api.onEvent((name, payload) => received.push([name, payload]));
    ipc.emit(EVENT_CHANNEL, 'turn.event', { turnId: 't' });
    off();
    ipc.emit(EVENT_CHANNEL, 'turn.event', { turnId: 'u' });
    expect(received).toEqual([['turn.event', { turnId: 't' }]]);
  });
});
