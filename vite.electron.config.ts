import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vite';

/** The SQLite adapter reads its migrations next to the module: copy them beside the main bundle. */
function copyMigrations(): Plugin {
  const source = resolve(import.meta.dirname, 'src/main/adapters/sqlite/migrations');
  let outDir = '';
  return {
    name: 'aivory-copy-migrations',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const target = join(outDir, 'migrations');
      mkdirSync(target, { recursive: true });
      for (const file of readdirSync(source).filter((name) => name.endsWith('.sql'))) {
        copyFileSync(join(source, file), join(target, file));
      }
    },
  };
}

/**
 * The Electron shell's two bundles (`npm run build:electron`):
 * - `--mode main`: src/main/electron/index.ts → out/main/index.js (ESM, Node dependencies left
 *   external: electron-builder ships node_modules, native modules unpacked), migrations copied.
 * - `--mode preload`: src/main/electron/preload.ts → out/preload/preload.cjs, one CommonJS file
 *   (a sandboxed preload can only `require('electron')`), everything else bundled in.
 */
export default defineConfig(({ mode }) => {
  if (mode === 'preload') {
    return {
      build: {
        outDir: 'out/preload',
        emptyOutDir: true,
        target: 'chrome140',
        minify: false,
        lib: {
          entry: resolve(import.meta.dirname, 'src/main/electron/preload.ts'),
          formats: ['cjs'],
          fileName: () => 'preload.cjs',
        },
        rollupOptions: { external: ['electron'] },
      },
    };
  }
  return {
    plugins: [copyMigrations()],
    build: {
      outDir: 'out/main',
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      ssr: resolve(import.meta.dirname, 'src/main/electron/index.ts'),
      rollupOptions: {
        external: ['electron'],
        output: { format: 'es', entryFileNames: 'index.js' },
      },
    },
  };
});
