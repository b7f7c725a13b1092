import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserHost } from '../../../src/main/host/server/browser-host';
import { startBrowserHost } from '../../../src/main/host/server/browser-host';
import { MAX_FRAME_BYTES } from '../../../src/main/host/server/websocket-transport';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import {
  MAX_ATTACHMENTS_TOTAL_BYTES,
  MAX_REQUEST_FRAME_BYTES,
} from '../../../src/shared/ipc/chat-extras-methods';
import { makeDataDir, PNG_BYTES } from '../../support/host/data-files-fixture';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw request (no client-side normalisation of the path). */
function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('aivory serve: GET /files', () => {
  let data: ReturnType<typeof makeDataDir>;
  let app: AppContext;
  let host: BrowserHost;

  beforeEach(async () => {
    data = makeDataDir();
    const env = { AIVORY_HOME: data.home, AIVORY_LOCAL_SANDBOX: '0' };
    app = openAppContext({ env });
    host = await startBrowserHost({ app, env, port: 0, rendererDir: join(data.home, 'none') });
  });
  afterEach(async () => {
    await host.close();
    await app.close();
    rmSync(data.home, { recursive: true, force: true });
    rmSync(data.outside, { recursive: true, force: true });
  });

  const fileUrl = (path: string, extra = ''): string =>
    `/files?path=${encodeURIComponent(path)}&token=${host.token}${extra}`;
  const artifact = (name: string): string => join(data.home, 'artifacts', 'conv_1', name);

  it('serves a PNG artifact inline with its type, nosniff and a sandboxing CSP', async () => {
    const response = await send(host.port, fileUrl(artifact('plot.png')));
    expect(response.status).toBe(200);
    expect(response.body.equals(PNG_BYTES)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-length': String(PNG_BYTES.length),
    });
    const download = await send(host.port, fileUrl(artifact('plot.png'), '&download=1'));
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="plot.png"/);
    const head = await send(host.port, fileUrl(artifact('plot.png')), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('serves uploads; SVG, HTML and a fake PNG only as attachments', async () => {
    const csv = await send(host.port, fileUrl(join(data.home, 'uploads', 'conv_1', 'data.csv')));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment;/);
    for (const name of ['drawing.svg', 'page.html', 'fake.png']) {
      const response = await send(host.port, fileUrl(artifact(name)));
      expect(response.status, name).toBe(200);
      expect(response.headers['content-disposition'], name).toMatch(/^attachment;/);
      expect(response.headers['x-content-type-options'], name).toBe('nosniff');
    }
  });

  it('refuses traversal, symlinks out, paths elsewhere and missing files the same way', async () => {
    const refused = [
      `${data.home}/artifacts/../secrets.json`,
      `${data.home}/artifacts/conv_1/%2e%2e/%2e%2e/secrets.json`,
      artifact('link-out.png'),
      join(data.home, 'uploads', 'conv_1', 'dir-out', 'elsewhere.txt'),
      join(data.outside, 'link-in.png'),
      join(data.home, 'secrets.json'),
      '/etc/passwd',
      'artifacts/conv_1/plot.png',
      artifact('missing.png'),
      join(data.home, 'artifacts'),
    ];
    for (const path of refused) {
      const response = await send(host.port, fileUrl(path));
      expect(response.status, path).toBe(404);
      expect(response.body.toString(), path).not.toContain('sk-secret');
    }
    const raw = `/files?path=${data.home}/artifacts/conv_1/../../secrets.json&token=${host.token}`;
    expect((await send(host.port, raw)).status).toBe(404);
    expect((await send(host.port, `/files?token=${host.token}`)).status).toBe(404);
  });

  it('needs the token, a loopback Host, GET or HEAD, and no cross-site fetch', async () => {
    const path = encodeURIComponent(artifact('plot.png'));
    expect((await send(host.port, `/files?path=${path}`)).status).toBe(401);
    expect((await send(host.port, `/files?path=${path}&token=wrong`)).status).toBe(401);
    const url = fileUrl(artifact('plot.png'));
    expect((await send(host.port, url, { headers: { host: 'evil.example' } })).status).toBe(403);
    expect(
      (await send(host.port, url, { headers: { 'sec-fetch-site': 'cross-site' } })).status,
    ).toBe(403);
    expect(
      (await send(host.port, url, { headers: { 'sec-fetch-site': 'same-origin' } })).status,
    ).toBe(200);
    expect((await send(host.port, url, { method: 'POST' })).status).toBe(405);
  });

  it('the WebSocket frame limit fits a chat.send with the largest attachments', () => {
    expect(MAX_FRAME_BYTES).toBe(MAX_REQUEST_FRAME_BYTES);
    expect(MAX_FRAME_BYTES).toBeGreaterThan((MAX_ATTACHMENTS_TOTAL_BYTES * 4) / 3 + 400_000);
  });
});
