import {
  ARTIFACT_FRAME_CSP,
  ARTIFACT_FRAME_HTML,
  ARTIFACT_FRAME_NO_SCRIPTS_CSP,
  ARTIFACT_FRAME_PATH,
} from '../../../src/shared/artifact-frame';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserHost } from '../../../src/main/host/server/browser-host';
import { listenBrowserHost, startBrowserHost } from '../../../src/main/host/server/browser-host';
import { tokenMatches } from '../../../src/main/host/server/access-token';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import { connectTestSocket } from '../../support/host/ws-test-client';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET with a raw path (no client-side normalisation of `..`). */
function get(port: number, path: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

describe('aivory serve: the browser host', () => {
  let home: string;
  let rendererDir: string;
  let app: AppContext;
  let host: BrowserHost;
  let llm: ScriptedLlmServer;

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'aivory-serve-'));
    rendererDir = join(home, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Aivory</title>');
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(home, 'secret.txt'), 'do not serve');
    llm = await startScriptedLlmServer([{ content: 'Hello from the scripted model.' }]);
    const env = {
      AIVORY_HOME: home,
      AIVORY_LOCAL_SANDBOX: '0',
      AIVORY_BASE_URL: llm.baseUrl,
      AIVORY_MODEL: 'scripted-model',
    };
    app = openAppContext({ env });
    host = await startBrowserHost({ app, env, port: 0, rendererDir });
  });
  afterEach(async () => {
    await host.close();
    await app.close();
    await llm.close();
    rmSync(home, { recursive: true, force: true });
  });

  const origin = (): string => `http://127.0.0.1:${host.port}`;
  const wsUrl = (token: string): string => `ws://127.0.0.1:${host.port}/ws?token=${token}`;

  it('prints a loopback URL with a long random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(tokenMatches(host.token, host.token)).toBe(true);
    expect(tokenMatches(host.token, `${host.token}x`)).toBe(false);
    expect(tokenMatches(host.token, null)).toBe(false);
  });

  it('serves the renderer with a strict CSP and nothing outside it', async () => {
    const index = await get(host.port, '/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Aivory</title>');
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(host.port, '/assets/app.js')).headers['content-type']).toContain(
      'javascript',
    );
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const response = await get(host.port, path);
      expect(response.body, path).not.toContain('do not serve');
    }
  });

  it('serves the artifact frame with its own no-network CSP; the app may frame it', async () => {
    const index = await get(host.port, '/');
    expect(index.headers['content-security-policy']).toContain("frame-src 'self'");
    const frame = await get(host.port, ARTIFACT_FRAME_PATH);
    expect(frame.status).toBe(200);
    expect(frame.body).toBe(ARTIFACT_FRAME_HTML);
    expect(frame.headers['content-security-policy']).toBe(ARTIFACT_FRAME_CSP);
    expect(frame.headers['content-security-policy']).toContain("default-src 'none'");
    expect(frame.headers['content-security-policy']).toContain('sandbox allow-scripts');
    expect(frame.headers['content-security-policy']).not.toMatch(/connect-src|https?:|'self'/);
    expect(frame.headers['x-frame-options']).toBeUndefined();
    expect(frame.headers['x-content-type-options']).toBe('nosniff');
    expect(frame.headers['x-dns-prefetch-control']).toBe('off');
    // The scriptless variant a browser tab uses by default: only the frame's bootstrap runs.
    const scriptless = await get(host.port, `${ARTIFACT_FRAME_PATH}?scripts=none`);
    expect(scriptless.body).toBe(ARTIFACT_FRAME_HTML);
    expect(scriptless.headers['content-security-policy']).toBe(ARTIFACT_FRAME_NO_SCRIPTS_CSP);
  });

  it('refuses a wrong or missing token, a foreign origin, a foreign Host, and other paths', async () => {
    await expect(connectTestSocket(wsUrl('wrong'), { origin: origin() })).rejects.toThrow(
      'HTTP 401',
    );
    await expect(
      connectTestSocket(`ws://127.0.0.1:${host.port}/ws`, { origin: origin() }),
    ).rejects.toThrow('HTTP 401');
    await expect(
      connectTestSocket(wsUrl(host.token), { origin: 'http://evil.example' }),
    ).rejects.toThrow('HTTP 403');
    await expect(connectTestSocket(wsUrl(host.token), {})).rejects.toThrow('HTTP 403');
    await expect(
      connectTestSocket(wsUrl(host.token), {
        origin: `http://evil.example:${host.port}`,
        host: `evil.example:${host.port}`,
      }),
    ).rejects.toThrow('HTTP 403');
    await expect(
      connectTestSocket(`ws://127.0.0.1:${host.port}/other?token=${host.token}`, {
        origin: origin(),
      }),
    ).rejects.toThrow('HTTP 404');
  });

  it('answers requests and refuses unreadable frames', async () => {
    const client = await connectTestSocket(wsUrl(host.token), { origin: origin() });
    try {
      expect((await client.request('app.status')).result).toMatchObject({
        ok: true,
        value: { needsSetup: false, environmentModel: { model: 'scripted-model' } },
      });
      expect((await client.request('conversations.get', { id: 42 })).result).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
      client.socket.send('not json');
      await vi.waitFor(() =>
        expect(client.frames).toContainEqual({
          type: 'result',
          id: -1,
          result: { ok: false, error: { code: 'invalid-input', message: 'Unreadable frame.' } },
        }),
      );
    } finally {
      client.close();
    }
  });

  it('streams the turn events of chat.send to the socket', async () => {
    const client = await connectTestSocket(wsUrl(host.token), { origin: origin() });
    try {
      const sent = await client.request('chat.send', { text: 'Say hello' });
      expect(sent.result.ok).toBe(true);
      const end = await client.waitForEvent(
        (frame) =>
          frame.name === 'turn.event' &&
          (frame.payload as { event: { type: string } }).event.type === 'turn-end',
      );
      expect(end).toMatchObject({
        payload: { event: { stopReason: 'completed', answer: 'Hello from the scripted model.' } },
      });
      const types = client.frames
        .filter((frame) => frame.type === 'event')
        .map((frame) => (frame.payload as { event: { type: string } }).event.type);
      expect(types[0]).toBe('turn-start');
      expect(types).toContain('text-delta');
    } finally {
      client.close();
    }
  });
});

describe('aivory serve: the page before the app', () => {
  it('serves the page while the app opens; the WebSocket waits for it, then answers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'aivory-serve-early-'));
    const rendererDir = join(home, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Early</title>');
    const env = { AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0' };
    let open: (app: AppContext) => void = () => undefined;
    const opened = new Promise<AppContext>((resolve) => (open = resolve));
    let asked = 0;
    const host = await listenBrowserHost({
      app: () => {
        asked += 1;
        return opened;
      },
      env,
      port: 0,
      rendererDir,
    });
    const app = openAppContext({ env });
    try {
      expect((await get(host.port, '/')).body).toContain('<title>Early</title>');
      const origin = `http://127.0.0.1:${host.port}`;
      const connecting = connectTestSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
        origin,
      });
      let connected = false;
      void connecting.then(() => (connected = true));
      // The page answered twice over while the app stays unopened: the socket still waits.
      await get(host.port, '/');
      expect(connected).toBe(false);
      open(app);
      const client = await connecting;
      try {
        expect((await client.request('app.status')).result).toMatchObject({ ok: true });
      } finally {
        client.close();
      }
      expect(await host.ready).toBeDefined();
      expect(asked).toBe(1);
    } finally {
      await host.close();
      await app.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('an app that fails to open rejects ready and refuses the WebSocket; the page still loads', async () => {
    const home = mkdtempSync(join(tmpdir(), 'aivory-serve-fail-'));
    const rendererDir = join(home, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Early</title>');
    const host = await listenBrowserHost({
      app: () => Promise.reject(new Error('the database is locked')),
      env: { AIVORY_HOME: home },
      port: 0,
      rendererDir,
    });
    try {
      await expect(host.ready).rejects.toThrow('the database is locked');
      expect((await get(host.port, '/')).status).toBe(200);
      await expect(
        connectTestSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
          origin: `http://127.0.0.1:${host.port}`,
        }),
      ).rejects.toThrow();
    } finally {
      await host.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('a port in use says so, with what to do', async () => {
    const home = mkdtempSync(join(tmpdir(), 'aivory-serve-port-'));
    const first = await listenBrowserHost({
      app: () => new Promise<AppContext>(() => undefined),
      env: { AIVORY_HOME: home },
      port: 0,
      rendererDir: home,
    });
    let opened = false;
    try {
      await expect(
        listenBrowserHost({
          app: () => {
            opened = true;
            return new Promise<AppContext>(() => undefined);
          },
          env: { AIVORY_HOME: home },
          port: first.port,
          rendererDir: home,
        }),
      ).rejects.toThrow(
        `Port ${first.port} on 127.0.0.1 is in use (another aivory serve?). Use --port N, or --port 0 for any free port.`,
      );
      // Nothing was opened for a server that never listened.
      expect(opened).toBe(false);
    } finally {
      await first.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
