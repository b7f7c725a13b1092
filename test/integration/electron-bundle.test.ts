/**
 * The bundled Electron main (`npm run build` → out/main/index.cjs and its chunks) really starts:
 * the build (made current first, as `aivory` does) is copied alone into a private directory — no
 * sources, no migration files beside it — then run under plain Node with a fake `electron` module
 * (the Electron binary cannot be installed here). The store must open and apply the migrations
 * inside the bundle, keys must be encrypted through safeStorage, the renderer must be served on
 * app://, and every package the build loads at runtime must be a production dependency
 * (electron-builder packages only those).
 */
import { builtinModules } from 'node:module';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../../bin/ensure-build.js';
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import type { PreloadApi } from '../../src/preload/preload-api';
import { INVOKE_CHANNEL } from '../../src/shared/ipc/electron-channels';
import { runBundleWithFakeElectron } from '../support/fake-electron/load';
import { fakeIpc } from '../support/fake-ipc';

const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};

/** out/.bundle-check-PID/{main (a copy), renderer → out/renderer}: private to this run. */
const BUILD_ROOT = join(ROOT, 'out', `.bundle-check-${process.pid}`);
const BUNDLE = join(BUILD_ROOT, 'main', 'index.cjs');
const homes: string[] = [];

/** Copies the built main process (entries and chunks, nothing else) into BUILD_ROOT. */
function copyMainBundle(): void {
  ensureBuild(() => undefined);
  mkdirSync(join(BUILD_ROOT, 'main'), { recursive: true });
  for (const name of mainFiles()) {
    copyFileSync(join(ROOT, 'out', 'main', name), join(BUILD_ROOT, 'main', name));
  }
  symlinkSync(join(ROOT, 'out', 'renderer'), join(BUILD_ROOT, 'renderer'), 'dir');
}

/** The JavaScript files of out/main (CommonJS: see electron.vite.config.ts). */
function mainFiles(): string[] {
  return readdirSync(join(ROOT, 'out', 'main')).filter((name) => name.endsWith('.cjs'));
}

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'aivory-bundle-'));
  homes.push(home);
  return home;
}

/** Runs the bundle against a fresh data directory. */
async function runBundle(bundle: string, env: Record<string, string> = {}) {
  const home = newHome();
  const run = await runBundleWithFakeElectron(bundle, {
    AIVORY_HOME: home,
    AIVORY_LOCAL_SANDBOX: '0',
    ...env,
  });
  return { ...run, home };
}

/** Bare package names the bundle imports, requires or resolves at runtime. */
function runtimePackages(source: string): Set<string> {
  const patterns = [
    /^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g,
    // `createRequire(…).resolve('pkg')`, as the CommonJS output writes it:
    // `(0, node_module.createRequire)(require("url").pathToFileURL(__filename).href).resolve("pkg")`.
    /createRequire\)?\((?:[^()]|\([^()]*\))*\)\.resolve\(\s*["']([^"']+)["']\s*\)/g,
  ];
  const names = new Set<string>();
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      if (builtinModules.includes(specifier.split('/')[0] ?? '')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? ''));
    }
  }
  return names;
}

function schemaVersion(home: string): number {
  const database = new Database(join(home, 'aivory.db'), { readonly: true });
  try {
    return Number(database.pragma('user_version', { simple: true }));
  } finally {
    database.close();
  }
}

describe('the bundled Electron main', () => {
  beforeAll(() => {
    rmSync(BUILD_ROOT, { recursive: true, force: true });
    copyMainBundle();
  }, 120_000);
  afterAll(() => {
    rmSync(BUILD_ROOT, { recursive: true, force: true });
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('is what npm run build builds: JavaScript only, the migrations inside it', () => {
    expect(PACKAGE.scripts.build).toBe('electron-vite build');
    expect(readdirSync(join(ROOT, 'out', 'main')).filter((name) => !name.endsWith('.cjs'))).toEqual(
      [],
    );
    const code = mainFiles()
      .map((name) => readFileSync(join(BUILD_ROOT, 'main', name), 'utf8'))
      .join('\n');
    expect(code).toContain('CREATE TABLE conversations');
    expect(code).toContain('CREATE TABLE mcp_services');
  });

  it("the renderer's entry chunk leaves the heavy parts to lazy chunks: no zod, KaTeX, mermaid or highlight.js", () => {
    const assets = join(ROOT, 'out', 'renderer', 'assets');
    const html = readFileSync(join(ROOT, 'out', 'renderer', 'index.html'), 'utf8');
    const entry = /src="\.?\/?assets\/([^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const code = readFileSync(join(assets, entry ?? ''), 'utf8');
    // zod's error class, KaTeX's parse error, mermaid's API, highlight.js's language registry.
    for (const marker of ['ZodError', 'KaTeX parse error', 'mermaidAPI', 'registerLanguage(']) {
      expect(code.includes(marker), marker).toBe(false);
    }
  });

  it('loads at runtime only Node built-ins, electron and production dependencies (no tsx)', () => {
    const packages = new Set(
      mainFiles().flatMap((name) => [
        ...runtimePackages(readFileSync(join(BUILD_ROOT, 'main', name), 'utf8')),
      ]),
    );
    expect(packages).toContain('better-sqlite3');
    expect(packages).toContain('dockerode');
    expect(packages).toContain('@modelcontextprotocol/client');
    expect(packages).toContain('@modelcontextprotocol/sdk');
    expect(packages).toContain('unpdf');
    expect(packages).not.toContain('tsx');
    expect(packages).not.toContain('@aivory/sandbox');
    const undeclared = [...packages].filter(
      (name) => name !== 'electron' && PACKAGE.dependencies[name] === undefined,
    );
    expect(undeclared, 'imported by the bundle but not in "dependencies"').toEqual([]);
    for (const name of packages) {
      if (name === 'electron') continue;
      expect(existsSync(join(ROOT, 'node_modules', name, 'package.json')), name).toBe(true);
    }
  });

  it('starts under Node: the store opens, migrations apply, keys go through safeStorage', async () => {
    const run = await runBundle(BUNDLE);
    expect(run.stderr).not.toContain('failed to start');
    expect(run.code).toBe(0);
    const report = run.report as Record<string, unknown>;
    expect(report.status).toMatchObject({ ok: true, value: { needsSetup: true } });
    expect(report.saved).toMatchObject({ ok: true, value: { model: 'bundle-model' } });
    expect(report.conversations).toEqual({ ok: true, value: [] });
    expect(report.secretStorage).toEqual({
      ok: true,
      value: { protection: 'os-keychain', backend: 'gnome_libsecret' },
    });
    // The folder picker of MCP roots is Electron's dialog (the fake chooses a folder).
    expect(report.pickedFolder).toEqual({ ok: true, value: { path: '/fake/chosen folder' } });
    expect(schemaVersion(run.home)).toBe(MIGRATIONS.length);
    const secrets = readFileSync(join(run.home, 'secrets.json'), 'utf8');
    expect(secrets).toContain('os-encrypted:v1:');
    expect(secrets).not.toContain('sk-bundle-secret-1234');
    const log = join(run.home, 'logs', 'aivory.log');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toContain('keyring');
    expect(run.stderr).not.toContain('keyring');
  }, 120_000);

  it('serves the renderer on app:// with the CSP and keeps the request kill switch', async () => {
    const { report } = await runBundle(BUNDLE);
    const [page, escape] = (report?.pages ?? []) as Record<string, unknown>[];
    expect(page).toMatchObject({ status: 200, hasRoot: true });
    expect(String(page?.contentType)).toContain('text/html');
    expect(String(page?.csp)).toContain('connect-src app://aivory/files;');
    expect(escape).toMatchObject({ status: 404 });
    // A CSP does not govern WebRTC: the window leaves it no UDP route (an HTML artifact's frame).
    expect(report?.webRtcPolicy).toBe('disable_non_proxied_udp');
    expect(report?.filter).toEqual({
      'app://aivory/index.html': true,
      'https://evil.example/x': false,
      'file:///etc/passwd': false,
    });
  }, 120_000);

  it('warns about a basic_text keychain and refuses to save keys without one', async () => {
    const weak = await runBundle(BUNDLE, { FAKE_ELECTRON_BACKEND: 'basic_text' });
    expect(weak.code).toBe(0);
    expect(weak.stderr).toContain('No system keyring');
    expect(readFileSync(join(weak.home, 'logs', 'aivory.log'), 'utf8')).toContain(
      'No system keyring',
    );
    expect(weak.report?.secretStorage).toMatchObject({ value: { protection: 'basic-text' } });

    const none = await runBundle(BUNDLE, { FAKE_ELECTRON_ENCRYPTION: 'unavailable' });
    expect(none.code).toBe(0);
    expect(none.report?.saved).toMatchObject({ ok: false, error: { code: 'config' } });
    expect(none.report?.secretStorage).toMatchObject({ value: { protection: 'unavailable' } });
    expect(existsSync(join(none.home, 'secrets.json'))).toBe(false);
  }, 120_000);
});

describe('the bundled preload', () => {
  it('is one CommonJS file that exposes only window.aivory', async () => {
    ensureBuild(() => undefined);
    const source = readFileSync(join(ROOT, 'out', 'preload', 'index.cjs'), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
    const ipc = fakeIpc();
    const exposed = new Map<string, unknown>();
    const required: string[] = [];
    const electron = {
      contextBridge: {
        exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value),
      },
      ipcRenderer: ipc,
    };
    runInNewContext(source, {
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return electron;
      },
      module: { exports: {} },
      exports: {},
    });
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['aivory']);
    const api = exposed.get('aivory') as PreloadApi;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'onEvent']);
    await api.invoke('app.status', undefined);
    expect(ipc.invoked).toEqual([[INVOKE_CHANNEL, 'app.status', undefined]]);
  }, 120_000);
});
