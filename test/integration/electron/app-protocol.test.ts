import {
  ARTIFACT_FRAME_CSP,
  ARTIFACT_FRAME_HTML,
  ARTIFACT_FRAME_NO_SCRIPTS_CSP,
  ARTIFACT_FRAME_PATH,
} from '../../../src/shared/artifact-frame';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contentTypeOf,
  proxyToDevServer,
  serveAppFile,
} from '../../../src/main/electron/app-protocol';
import {
  devServerOrigin,
  isAllowedRendererRequest,
  rendererCsp,
} from '../../../src/main/electron/security';

describe('app:// answers from the built renderer', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'aivory-app-protocol-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<div id="root"></div>');
    writeFileSync(join(root, 'assets', 'index-abc.js'), 'export {};');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves files with their exact type, the CSP and nosniff', async () => {
    const page = await serveAppFile('app://aivory/', root);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<div id="root"></div>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(rendererCsp());
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await serveAppFile('app://aivory/assets/index-abc.js', root);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('answers the artifact frame with its own CSP, not the renderer CSP', async () => {
    const frame = await serveAppFile(`app://aivory${ARTIFACT_FRAME_PATH}?x=1`, root);
    expect(frame.status).toBe(200);
    expect(await frame.text()).toBe(ARTIFACT_FRAME_HTML);
    expect(frame.headers.get('content-security-policy')).toBe(ARTIFACT_FRAME_CSP);
    expect(frame.headers.get('x-dns-prefetch-control')).toBe('off');
    // The scriptless variant (the DOCX page): only the bootstrap may run.
    const scriptless = await serveAppFile(`app://aivory${ARTIFACT_FRAME_PATH}?scripts=none`, root);
    expect(scriptless.headers.get('content-security-policy')).toBe(ARTIFACT_FRAME_NO_SCRIPTS_CSP);
    expect((await serveAppFile(`app://other${ARTIFACT_FRAME_PATH}`, root)).status).toBe(404);
    // The renderer may frame only its own origin and read only its data files.
    expect(rendererCsp()).toContain("frame-src 'self'");
    expect(rendererCsp()).toContain('connect-src app://aivory/files;');
  });

  it('answers 404 for missing files, other hosts and paths leaving the root', async () => {
    for (const url of [
      'app://aivory/missing.js',
      'app://other/index.html',
      'app://aivory/..%2f..%2fetc%2fpasswd',
      'app://aivory/assets',
    ]) {
      const response = await serveAppFile(url, root);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-security-policy')).toBe(rendererCsp());
    }
  });

  it('knows the types a Vite build emits; anything else is opaque bytes', () => {
    expect(contentTypeOf('a/b.CSS')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('font.woff2')).toBe('font/woff2');
    expect(contentTypeOf('data.bin')).toBe('application/octet-stream');
  });
});

describe('npm run dev: the Vite dev server behind app://', () => {
  it('is honoured only unpackaged, on plain http loopback', () => {
    const env = (url: string) => ({ ELECTRON_RENDERER_URL: url });
    expect(devServerOrigin(env('http://127.0.0.1:5173/'), false)).toBe('http://127.0.0.1:5173');
    expect(devServerOrigin(env('http://localhost:5173'), false)).toBe('http://localhost:5173');
    expect(devServerOrigin(env('http://127.0.0.1:5173'), true)).toBeNull();
    expect(devServerOrigin(env('http://192.168.1.5:5173'), false)).toBeNull();
    expect(devServerOrigin(env('https://127.0.0.1:5173'), false)).toBeNull();
    expect(devServerOrigin(env('http://user@127.0.0.1:5173'), false)).toBeNull();
    expect(devServerOrigin(env('http://:secret@127.0.0.1:5173'), false)).toBeNull();
    expect(devServerOrigin(env('HTTP://[::1]:5173'), false)).toBe('http://[::1]:5173');
    expect(devServerOrigin(env('not a url'), false)).toBeNull();
    expect(devServerOrigin({}, false)).toBeNull();
  });

  it('relaxes the CSP and the kill switch for that server only', () => {
    const csp = rendererCsp('http://127.0.0.1:5173');
    expect(csp).toContain("script-src 'self' 'unsafe-inline'");
    expect(csp).toContain("connect-src 'self' ws://127.0.0.1:5173");
    expect(csp).toContain("object-src 'none'");
    const dev = 'http://127.0.0.1:5173';
    expect(isAllowedRendererRequest('ws://127.0.0.1:5173/?token=x', 'webSocket', dev)).toBe(true);
    expect(isAllowedRendererRequest('ws://127.0.0.1:9999/', 'webSocket', dev)).toBe(false);
    expect(isAllowedRendererRequest('ws://127.0.0.1:5173/', 'webSocket')).toBe(false);
    expect(isAllowedRendererRequest('http://127.0.0.1:5173/src/main.tsx', 'script', dev)).toBe(
      false,
    );
  });

  it('forwards the path and query, with the dev CSP and a decoded body', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(request.url ?? '');
      response.writeHead(200, {
        'content-type': 'text/javascript',
        'content-encoding': 'gzip',
        'content-security-policy': 'default-src *',
      });
      response.end(gzipSync('export const hot = true;'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const response = await proxyToDevServer('app://aivory/src/main.tsx?t=1', origin);
      expect(seen).toEqual(['/src/main.tsx?t=1']);
      expect(await response.text()).toBe('export const hot = true;');
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(response.headers.get('content-security-policy')).toBe(rendererCsp(origin));
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
