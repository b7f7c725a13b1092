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
/** Per chunking pass (a watch rebuild brings a new graph): what --help and the app's open load. */
const startModules = new WeakMap<ModuleGraph, { help: Set<string>; open: Set<string> }>();

/**
 * The `codeSplitting` group that names `chunk`. `app-start` is what opening the app context
 * loads (app-context.ts's static imports, all the way down) less what `aivory --help` loads
 * (entry.ts's, which stay in cli.cjs); the `cli-start` group, of higher priority, only keeps
 * those out of app-start, which would take in its members' dependencies otherwise.
 */
function startChunk(chunk: 'cli-start' | 'app-start') {
  return (id: string, graph: ModuleGraph): string | null => {
    let modules = startModules.get(graph);
    if (modules === undefined) {
      const help = staticClosure(graph, [CLI_ENTRY]);
      const open = new Set([...staticClosure(graph, [APP_CONTEXT])].filter((m) => !help.has(m)));
      modules = { help, open };
      startModules.set(graph, modules);
    }
    return modules[chunk === 'cli-start' ? 'help' : 'open'].has(id) ? chunk : null;
  };
}

/**
 * The one build (`npm run build` = `electron-vite build`; also run by `prepare` on install and by
 * `bin/aivory.js` when the sources are newer than the build). It keeps electron-vite's default name:
 * electron-vite 6 refuses a config named `vite.config.*` ("config file cannot be named
 * vite.config.ts"), since that name means a plain Vite config, which this file is not.
 * - main → out/main: `index.cjs` (the Electron main process) and `cli.cjs` (the `aivory` command
 *   and `aivory serve`), sharing chunks. CommonJS, though the sources are ES modules: Node loads
 *   a start's chunks through `require` a fifth faster than through its ES module loader
 *   (`aivory tools` 121 → 95 ms, issue 24), and nothing needs ESM at runtime: no top-level
 *   `await`, `import.meta.url` becomes the file's URL, and every package required has a CommonJS
 *   build (`electron-bundle.test.ts` runs the Electron main this way). What opening the app
 *   context loads is one chunk, `app-start` (`startChunk`): Node spends about a quarter of a
 *   millisecond on each file it requires, and a start required ~45. Dependencies stay
 *   external (electron-builder ships node_modules; native modules unpacked) except the sandbox
 *   workspace package, whose TypeScript sources are bundled, and zod and ajv: every start
 *   (`aivory tools` included) loads them, and as packages they are ~95 and ~65 files that Node
 *   resolves and reads one by one, a quarter of the CLI's start-up; bundled, they are part of
 *   app-start (issue 24, `npm run bench -- --only=cli`). The MCP SDK keeps its own copies from
 *   node_modules (it only takes our zod schemas through their `_zod` internals, which the same
 *   version shares). Chunks sit beside the entries, so `import.meta.url` of any of them finds
 *   `../renderer` and `../preload`. Unminified, but without JSDoc and annotation comments (legal
 *   ones kept): a sixth fewer bytes for every start to read.
 * - preload → out/preload/index.cjs: one CommonJS file (a sandboxed preload can only
 *   `require('electron')`), everything else bundled in.
 * - renderer → out/renderer: relative asset URLs, so the Electron window (`app://aivory/`) and
 *   `aivory serve` (`http://127.0.0.1:PORT/`) serve the same files; no inline assets (the CSP
 *   allows none). `katex` is deduped: mermaid (which asks for ^0.18 and has its own nested copy)
 *   gets the app's KaTeX, so the math chunk is shipped once, not twice (~250 KB each).
 */
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
