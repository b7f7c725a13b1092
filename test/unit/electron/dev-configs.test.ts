/**
 * `npm run dev` cannot run here (no Electron binary), so its parts are run instead: the renderer
 * dev server starts from its configuration and serves the app with hot reload, and a watch build
 * of the main bundle produces the bundle with its migrations.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build, createServer } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  DEV_HOST,
  electronWatchConfig,
  rendererDevConfig,
  ROOT,
} from '../../../scripts/electron-dev/dev-configs';

type Watcher = Extract<Awaited<ReturnType<typeof build>>, { close(): Promise<void> }>;

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, DEV_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run dev', () => {
  it('is wired in package.json to the dev runner', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.dev).toBe('node --import tsx scripts/electron-dev.ts');
    expect(existsSync(join(ROOT, 'scripts', 'electron-dev.ts'))).toBe(true);
  });

  it('the renderer dev server serves the app with hot reload on loopback', async () => {
    const port = await freePort();
    const server = await createServer({ ...rendererDevConfig(port), logLevel: 'silent' });
    try {
      await server.listen();
      expect(server.config.server.host).toBe(DEV_HOST);
      const base = `http://${DEV_HOST}:${port}`;
      const page = await (await fetch(`${base}/`)).text();
      expect(page).toContain('/@vite/client');
      expect(page).toContain('/@react-refresh');
      const entry = await fetch(`${base}/main.tsx`);
      expect(entry.status).toBe(200);
      expect(entry.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a watch build of the main bundle writes it with the migrations beside it', async () => {
    const outDir = join(ROOT, 'out', `.dev-check-${process.pid}`);
    const watcher = (await build(electronWatchConfig('main', outDir))) as Watcher;
    try {
      await new Promise<void>((resolve, reject) => {
        // Closing a bundle runs the plugins' closeBundle hooks (the migrations copy): wait for it,
        // not only for the watcher's END, which can come first.
        let closing: Promise<void> = Promise.resolve();
        watcher.on('event', (event) => {
          if (event.code === 'BUNDLE_END' || event.code === 'ERROR')
            closing = event.result?.close() ?? Promise.resolve();
          if (event.code === 'END') closing.then(resolve, reject);
          if (event.code === 'ERROR') reject(event.error);
        });
      });
      expect(existsSync(join(outDir, 'index.js'))).toBe(true);
      expect(readdirSync(join(outDir, 'migrations')).length).toBeGreaterThan(0);
    } finally {
      await watcher.close();
      rmSync(outDir, { recursive: true, force: true });
    }
  }, 60_000);
});
