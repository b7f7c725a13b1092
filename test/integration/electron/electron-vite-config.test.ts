/**
 * `npm run dev` (electron-vite dev) and `npm start` (electron-vite preview) need the Electron
 * binary, which cannot be installed here; their configuration is checked instead: the one
 * electron-vite config builds the main process (the app and the CLI), a CommonJS preload and the
 * renderer, and the renderer's dev server serves the app with hot reload on loopback.
 */
import { readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfigFromFile } from 'electron-vite';
import { createServer } from 'vite';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const HOST = '127.0.0.1';

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function loadConfig() {
  const loaded = await loadConfigFromFile(
    { command: 'serve', mode: 'development' },
    join(ROOT, 'electron.vite.config.ts'),
    ROOT,
    'silent',
  );
  return loaded.config;
}

describe('electron-vite: one config for main, preload and renderer', () => {
  it('is wired in package.json: build, dev, start, prepare', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      bin: Record<string, string>;
    };
    expect(manifest.scripts).toMatchObject({
      build: 'electron-vite build',
      dev: 'electron-vite dev',
      start: 'electron-vite preview',
      prepare: 'node bin/ensure-build.js',
    });
    expect(manifest.bin.aivory).toBe('bin/aivory.js');
  });

  it('builds the app and the CLI from main, a CommonJS preload from src/preload', async () => {
    const config = await loadConfig();
    const mainInput = config.main?.build?.rollupOptions?.input as Record<string, string>;
    expect(Object.keys(mainInput).sort()).toEqual(['cli', 'index']);
    expect(mainInput.index).toBe(join(ROOT, 'src/main/electron/index.ts'));
    expect(mainInput.cli).toBe(join(ROOT, 'src/main/cli/entry.ts'));
    const preload = config.preload?.build;
    expect(preload?.rollupOptions?.input).toEqual({ index: join(ROOT, 'src/preload/index.ts') });
    expect(preload?.rollupOptions?.output).toMatchObject({ format: 'cjs' });
    expect(config.renderer?.root).toBe(join(ROOT, 'src/renderer'));
  });

  it('the renderer dev server serves the app with hot reload on loopback', async () => {
    const config = await loadConfig();
    const port = await freePort();
    const server = await createServer({
      ...config.renderer,
      build: {},
      configFile: false,
      logLevel: 'silent',
      server: { host: HOST, port, strictPort: true },
    });
    try {
      await server.listen();
      const base = `http://${HOST}:${port}`;
      const page = await (await fetch(`${base}/`)).text();
      expect(page).toContain('/@vite/client');
      expect(page).toContain('/@react-refresh');
      const entry = await fetch(`${base}/main.tsx`);
      expect(entry.status).toBe(200);
      expect(entry.headers.get('content-type')).toMatch(/javascript/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
