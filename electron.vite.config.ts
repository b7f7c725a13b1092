import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

/** Module ids as rolldown gives a chunking function its graph. */
interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Every module `ids` import statically, all the way down (`ids` included). */
function staticClosure(graph: ModuleGraph, ids: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...ids];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

const APP_CONTEXT = resolve(root, 'src/main/composition/app-context.ts');
const CLI_ENTRY = resolve(root, 'src/main/cli/entry.ts');
let startChunks: { help: Set<string>; start: Set<string> } | null = null;

/**
 * The chunks every start of the CLI loads, one file each (Node spends about a quarter of a
 * millisecond on each file it requires; issue 24): `cli-start`, what `aivory --help` loads
 * besides cli.cjs (the CLI entry's static imports, all the way down), and `app-start`, what
 * opening the app context loads on top (app-context.ts's, less those). Every command but --help
 * needs both. Modules a command or a turn imports dynamically stay in chunks of their own.
 */
function startChunk(chunk: 'cli-start' | 'app-start') {
  return (id: string, graph: ModuleGraph): string | null => {
    if (startChunks === null) {
      const help = staticClosure(graph, [CLI_ENTRY]);
      const start = new Set([...staticClosure(graph, [APP_CONTEXT])].filter((m) => !help.has(m)));
      startChunks = { help, start };
    }
    return startChunks[chunk === 'cli-start' ? 'help' : 'start'].has(id) ? chunk : null;
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      target: 'node22',
      minify: false,
      externalizeDeps: { exclude: ['@aivory/sandbox', 'zod', 'ajv'] },
      rollupOptions: {
        input: {
          index: resolve(root, 'src/main/electron/index.ts'),
          cli: resolve(root, 'src/main/cli/entry.ts'),
        },
        output: {
          format: 'cjs',
          entryFileNames: '[name].cjs',
          chunkFileNames: '[name]-[hash].cjs',
          comments: { legal: true, annotation: false, jsdoc: false },
          codeSplitting: {
            // cli-start first: app-start would take in its dependencies otherwise.
            groups: [
              { name: startChunk('cli-start'), priority: 2 },
              { name: startChunk('app-start'), priority: 1 },
            ],
          },
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // electron-vite wants a Node target for preloads. Electron 45 embeds Node 24; node22 is the
      // floor main uses too (the CLI runs on Node >= 22.12), which Electron's Node meets.
      target: 'node22',
      minify: false,
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    base: './',
    plugins: [react()],
    resolve: { dedupe: ['katex'] },
    // pdf.js's packed CMaps, imported `?inline` by features/artifacts/pdf-cmaps.ts.
    assetsInclude: ['**/*.bcmap'],
    build: {
      outDir: resolve(root, 'out/renderer'),
      target: 'chrome140',
      // The CSP allows no inline scripts or styles: keep every asset a file.
      assetsInlineLimit: 0,
      // electron-vite leaves the renderer unminified; minified, the entry chunk is less than
      // half as large, which the browser host's first paint (aivory serve) feels most.
      minify: true,
      rollupOptions: { input: { index: resolve(root, 'src/renderer/index.html') } },
    },
  },
});
