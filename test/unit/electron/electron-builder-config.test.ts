/**
 * electron-builder.yml, checked offline: loaded and validated by electron-builder's own code
 * (app-builder-lib, which ships with the pinned electron-builder: the same `getConfig` and
 * `validateConfiguration` its CLI runs before packaging), then held to what the app needs:
 * the targets, native modules unpacked from asar and rebuilt for Electron, the bundles, the
 * migrations and the renderer inside the app. `npm run dist` itself needs the network.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

interface PackageJson {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

function readPackage(directory: string): PackageJson {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageJson;
}

/** The installed packages the app ships: "dependencies" and everything they pull in. */
function productionPackages(): string[] {
  const seen = new Set<string>();
  const pending = Object.keys(readPackage(ROOT).dependencies ?? {});
  while (pending.length > 0) {
    const name = pending.pop() as string;
    const directory = join(ROOT, 'node_modules', name);
    if (seen.has(name) || !existsSync(join(directory, 'package.json'))) continue;
    seen.add(name);
    const manifest = readPackage(directory);
    pending.push(
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    );
  }
  return [...seen].sort();
}

/** A package is native when it has a node-gyp build file or a compiled `.node` binary. */
function isNative(directory: string): boolean {
  if (existsSync(join(directory, 'binding.gyp'))) return true;
  const stack = [directory];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules')
        stack.push(join(current, entry.name));
      else if (entry.name.endsWith('.node')) return true;
    }
  }
  return false;
}

/** What electron-builder's file set keeps: the last matching pattern decides (`!` excludes). */
function included(patterns: readonly string[], path: string): boolean {
  let keep = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (matchesGlob(path, negated ? pattern.slice(1) : pattern)) keep = !negated;
  }
  return keep;
}

/**
 * The patterns of a file set as electron-builder normalises it (`getConfig` turns `files` into
 * `[{ filter: [...] }]`); sets copied from elsewhere (`from`/`to`) are not the app's own files.
 */
function patternsOf(value: Configuration['files'] | Configuration['asarUnpack']): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((entry): string[] => {
    if (typeof entry === 'string') return [entry];
    if (entry.from !== undefined || entry.to !== undefined) return [];
    const filter = entry.filter ?? [];
    return Array.isArray(filter) ? filter : [filter];
  });
}

describe('electron-builder.yml', () => {
  let config: Configuration;
  beforeAll(async () => {
    config = await getConfig(ROOT, null, null);
  });

  it("passes electron-builder's own schema validation (which does catch mistakes)", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const broken = { ...config, linux: { ...config.linux, targett: 'deb' } } as Configuration;
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(
      /configuration\.linux/,
    );
  });

  it('names the app and builds AppImage + deb, dmg and nsis', () => {
    expect(config.appId).toBe('app.aivory.personal');
    expect(config.productName).toBe('Aivory Personal');
    // The same name when run unpackaged (`npm start`, `npm run dev`): Electron derives the
    // keychain entry safeStorage uses from it, so keys saved in one still open in the other.
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      productName?: string;
    };
    expect(manifest.productName).toBe(config.productName);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('unpacks every native module the app ships from asar and rebuilds them for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(true);
    const unpack = patternsOf(config.asarUnpack);
    const native = productionPackages().filter((name) =>
      isNative(join(ROOT, 'node_modules', name)),
    );
    expect(native).toContain('better-sqlite3');
    for (const name of native) {
      // The whole package: its loader (bindings, node-gyp-build) looks for the binary beside it.
      for (const file of ['package.json', 'build/Release/binding.node']) {
        expect(included(unpack, `node_modules/${name}/${file}`), `${name}/${file}`).toBe(true);
      }
    }
    expect(included(unpack, 'node_modules/better-sqlite3/lib/database.js')).toBe(true);
    expect(included(unpack, 'node_modules/zod/index.js')).toBe(false);
  });

  it('ships the bundles (migrations inside the main bundle) and the renderer', () => {
    const files = patternsOf(config.files);
    for (const path of [
      'package.json',
      'out/main/index.cjs',
      'out/main/cli.cjs',
      'out/main/app-context-abc.cjs',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
    ]) {
      expect(included(files, path), path).toBe(true);
    }
    expect(included(files, 'out/main/index.cjs.map')).toBe(false);
    expect(included(files, 'src/main/electron/index.ts')).toBe(false);
    // electron-builder adds the production dependencies, then applies the same patterns to them.
    const shipped = ['**/node_modules/**', ...files];
    expect(included(shipped, 'node_modules/better-sqlite3/lib/index.js')).toBe(true);
    expect(included(shipped, 'node_modules/tsx/dist/cli.mjs')).toBe(false);
    expect(included(shipped, 'node_modules/@esbuild/linux-x64/bin/esbuild')).toBe(false);
    expect(included(shipped, 'node_modules/@aivory/sandbox/src/index.ts')).toBe(false);
  });

  it('locks the binary with fuses: no run-as-node, no NODE_OPTIONS, app only from asar', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
    });
  });

  it('npm run dist builds everything, then packages; the entry is the bundled main', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson & {
      main: string;
    };
    expect(manifest.main).toBe('out/main/index.cjs');
    expect(manifest.scripts?.dist).toBe('electron-vite build && electron-builder');
  });
});
