/**
 * The layers of the code and what each may import: an allow-list per layer, nothing else gets
 * through. eslint.config.js builds its import fence from `LAYERS` (`layerConfigs`), and the
 * "Layers" table of ARCHITECTURE.md must show the same folders, imports and packages
 * (test/unit/lint/layers.test.ts checks both, and lints a bad and a good file per layer).
 *
 * A layer names the folders it may import from (`mayImport`: a whole layer folder, or a part of
 * one such as `src/main/core/ports`, or one module such as `src/main/adapters/lazy-clients`), the
 * npm packages it may import (each with the reason; `only` narrows a package to some files) and
 * the Node built-ins (`node:*` for all of them). Static imports, `export … from` and dynamic
 * `import()` with a literal source are all checked; where `literalDynamicImports` is set, an
 * `import()` of a computed source is refused too (it could reach anything).
 */

/** @typedef {{ name: string, why: string, only?: string[] }} LayerPackage */
/**
 * @typedef {{
 *   folder: string,
 *   files: string[],
 *   mayImport: string[],
 *   packages: LayerPackage[],
 *   builtins: string[],
 *   literalDynamicImports?: boolean,
 *   restrictedSyntax?: RestrictedSyntax[],
 * }} Layer
 */
/**
 * Code a layer refuses outside some of its files (`except`): an esquery selector and the message.
 * @typedef {{ selector: string, message: string, except: string[] }} RestrictedSyntax
 */

/**
 * The renderer reaches the host through its data modules (`src/renderer/data/`): typed functions
 * over the bridge, each write invalidating the queries it changes. A component that called
 * `bridge.invoke` itself would bypass the shared cache. No exceptions: only the bridge itself
 * and the data modules.
 */
export const BRIDGE_CALLERS = ['src/renderer/bridge/**', 'src/renderer/data/**'];
const BRIDGE_FENCE_MESSAGE =
  'Call the host through a data module (src/renderer/data/), not bridge.invoke: its writes invalidate the shared queries.';

const ELECTRON_SHELL_FILES = [
  'src/main/electron/index.ts',
  'src/main/electron/window.ts',
  'src/main/electron/ipc/**',
];

/** @type {Layer[]} */
export const LAYERS = [
  {
    folder: 'src/shared',
    files: ['src/shared/**'],
    mayImport: ['src/shared'],
    packages: [{ name: 'zod', why: 'the IPC contract schemas' }],
    builtins: [],
    literalDynamicImports: true,
  },
  {
    folder: 'src/main/core',
    files: ['src/main/core/**'],
    mayImport: ['src/shared', 'src/main/core'],
    packages: [],
    builtins: [],
    literalDynamicImports: true,
  },
  {
    folder: 'src/main/policy',
    files: ['src/main/policy/**'],
    mayImport: ['src/shared', 'src/main/core', 'src/main/policy'],
    packages: [
      {
        name: 'node:net',
        why: "isIPv4/isIPv6 only: Node's own IP literal validators, no socket (ip-address.ts)",
        only: ['src/main/policy/ip-address.ts'],
      },
    ],
    builtins: [],
    literalDynamicImports: true,
  },
  {
    folder: 'src/main/tools',
    files: ['src/main/tools/**'],
    mayImport: ['src/shared', 'src/main/core', 'src/main/tools'],
    packages: [
      { name: 'ajv', why: 'argument checks (arguments/); pure, no I/O' },
      {
        name: 'linkedom',
        why: 'HTML → DOM for web_fetch, in memory (web-html-dom.ts)',
        only: ['src/main/tools/web-html-dom.ts'],
      },
      {
        name: '@mozilla/readability',
        why: 'article extraction for web_fetch, in memory (web-html-extract.ts)',
        only: ['src/main/tools/web-html-extract.ts'],
      },
    ],
    builtins: [],
    literalDynamicImports: true,
  },
  {
    folder: 'src/main/adapters',
    files: ['src/main/adapters/**'],
    mayImport: ['src/shared', 'src/main/core', 'src/main/policy', 'src/main/adapters'],
    packages: [
      {
        name: 'openai',
        why: 'the LLM and Images API client',
        only: ['src/main/adapters/openai/**'],
      },
      {
        name: 'better-sqlite3',
        why: 'the database; backups copy it with the online backup API and check copies',
        only: ['src/main/adapters/sqlite/**', 'src/main/adapters/backup/**'],
      },
      {
        name: 'tar-stream',
        why: 'the backup archive, written and read as a stream with a hash per entry',
        only: ['src/main/adapters/backup/**'],
      },
      {
        name: '@aws-sdk/client-s3',
        why: "backups in an S3-compatible bucket (the sandbox's S3 client)",
        only: ['src/main/adapters/backup/s3-backup-target.ts'],
      },
      {
        name: '@aws-sdk/lib-storage',
        why: 'multipart uploads of backups',
        only: ['src/main/adapters/backup/s3-backup-target.ts'],
      },
      {
        name: '@modelcontextprotocol/client',
        why: 'the MCP client: protocol revisions 2024-10-07 to 2026-07-28, transports, errors',
        only: ['src/main/adapters/mcp/**'],
      },
      {
        name: '@modelcontextprotocol/sdk',
        why: "OAuth for MCP services: the 1.x SDK's auth() under mcp-oauth.ts and its checks",
        only: [
          'src/main/adapters/mcp/mcp-oauth.ts',
          'src/main/adapters/mcp/mcp-oauth-checks.ts',
          'src/main/adapters/mcp/mcp-oauth-fetch.ts',
        ],
      },
      {
        name: 'undici',
        why: "MCP HTTP connections and OAuth requests pinned to checked addresses (an Agent with its own lookup); model requests on an Agent without undici's own 300 s timers (model-fetch.ts)",
        only: [
          'src/main/adapters/mcp/mcp-fetch.ts',
          'src/main/adapters/mcp/mcp-oauth-fetch.ts',
          'src/main/adapters/openai/model-fetch.ts',
        ],
      },
      { name: 'zod', why: 'checks of stored JSON and server answers' },
    ],
    builtins: ['node:*'],
  },
  {
    folder: 'src/main/services',
    files: ['src/main/services/**'],
    mayImport: [
      'src/shared',
      'src/main/core',
      'src/main/policy',
      'src/main/tools',
      // No adapter: adapters (and values such as the machine's memory) arrive from the
      // composition root.
      'src/main/services',
    ],
    packages: [
      { name: 'zod', why: 'settings and MCP input schemas' },
      {
        name: 'jsonc-parser',
        why: "VS Code's own JSONC reader (comments, trailing commas, error offsets) for imported MCP configs",
        only: ['src/main/services/mcp/mcp-config-import.ts'],
      },
      {
        name: '@aivory/sandbox',
        why: 'the sidecar package, loaded when a local sandbox starts',
        only: ['src/main/services/sandbox-manager.ts'],
      },
      {
        name: 'fflate',
        why: 'ZIP writing for the export of every conversation, one chunk at a time (archive-writers.ts)',
        only: ['src/main/services/archive-writers.ts'],
      },
    ],
    builtins: ['node:crypto', 'node:fs', 'node:fs/promises', 'node:path'],
  },
  {
    folder: 'src/main/composition',
    files: ['src/main/composition/**'],
    mayImport: [
      'src/shared',
      'src/main/core',
      'src/main/policy',
      'src/main/tools',
      'src/main/adapters',
      'src/main/services',
      'src/main/composition',
    ],
    packages: [],
    builtins: ['node:fs', 'node:path'],
  },
  {
    folder: 'src/main/host',
    files: ['src/main/host/**'],
    mayImport: [
      'src/shared',
      'src/main/core/ports',
      'src/main/adapters/install-layout',
      'src/main/adapters/lazy-clients',
      'src/main/policy',
      'src/main/services',
      'src/main/composition',
      'src/main/host',
    ],
    packages: [
      { name: 'zod', why: 'the dispatcher checks payloads against the contract' },
      {
        name: 'ws',
        why: "`aivory serve`'s WebSocket transport",
        only: ['src/main/host/server/**'],
      },
    ],
    builtins: ['node:*'],
  },
  {
    folder: 'src/main/cli',
    files: ['src/main/cli/**'],
    mayImport: [
      'src/shared',
      'src/main/core',
      'src/main/policy',
      'src/main/tools',
      'src/main/adapters',
      'src/main/services',
      'src/main/composition',
      'src/main/host',
      'src/main/cli',
    ],
    packages: [
      {
        name: '@aivory/sandbox',
        why: '`aivory sandbox serve` runs the sidecar',
        only: ['src/main/cli/sandbox-command.ts'],
      },
    ],
    builtins: ['node:*'],
  },
  {
    folder: 'src/main/electron',
    files: ['src/main/electron/**'],
    mayImport: [
      'src/shared',
      'src/main/core/ports',
      'src/main/adapters',
      'src/main/services',
      'src/main/composition',
      'src/main/host',
      'src/main/electron',
    ],
    packages: [
      {
        name: 'electron',
        why: 'the shell: index.ts, window.ts, ipc/ (security.ts and the rest stay pure)',
        only: ELECTRON_SHELL_FILES,
      },
    ],
    builtins: ['node:*'],
  },
  {
    folder: 'src/preload',
    files: ['src/preload/**'],
    mayImport: ['src/shared', 'src/preload'],
    packages: [
      {
        name: 'electron',
        why: 'contextBridge + ipcRenderer (index.ts)',
        only: ['src/preload/index.ts'],
      },
    ],
    builtins: [],
    literalDynamicImports: true,
  },
  {
    folder: 'src/renderer',
    files: ['src/renderer/**'],
    mayImport: ['src/shared', 'src/renderer'],
    packages: [
      { name: 'react', why: 'the UI' },
      { name: 'react-dom', why: 'the UI' },
      { name: 'zustand', why: 'the UI state' },
      {
        name: 'lucide-react',
        why: 'the icon set (named imports, tree-shaken; wrapped in icons.tsx)',
        only: ['src/renderer/components/icons.tsx'],
      },
      {
        name: 'markdown-it',
        why: 'the Markdown parser (tokens only; html off, links allow-listed)',
        only: ['src/renderer/components/markdown-pipeline.ts'],
      },
      {
        name: '@mdit/plugin-tex',
        why: 'the $…$ / $$…$$ math syntax for markdown-it (parse rules only)',
        only: ['src/renderer/components/markdown-pipeline.ts'],
      },
      {
        name: '@mdit/plugin-tasklist',
        why: 'GFM task list items for markdown-it',
        only: ['src/renderer/components/markdown-pipeline.ts'],
      },
      {
        name: 'katex',
        why: 'math typesetting, loaded lazily, built as DOM (math-formula-katex.ts)',
        only: ['src/renderer/components/math-formula-katex.ts'],
      },
      {
        name: 'lowlight',
        why: 'code highlighting (highlight.js grammars), loaded lazily (code-highlighter.ts)',
        only: ['src/renderer/components/code-highlighter.ts'],
      },
      {
        name: 'highlight.js',
        why: 'one lazily loaded chunk per highlight grammar (code-highlighter.ts)',
        only: ['src/renderer/components/code-highlighter.ts'],
      },
      {
        name: 'mermaid',
        why: 'diagrams, loaded lazily, strict mode, shown as an SVG image (mermaid-render.ts)',
        only: ['src/renderer/components/mermaid-render.ts'],
      },
      {
        name: '@tanstack/react-virtual',
        why: 'the virtualised message list: only the rows on screen are rendered (message-list.tsx)',
        only: ['src/renderer/features/chat/message-list.tsx'],
      },
      {
        name: 'papaparse',
        why: "the artifact viewer's CSV parser, in its Web Worker (csv-read.ts, run by csv-worker.ts)",
        only: ['src/renderer/features/artifacts/csv-read.ts'],
      },
      {
        name: 'pdfjs-dist',
        why: "the artifact viewer's PDF renderer, loaded lazily, and its worker (pdf-viewer.tsx, pdf-worker.ts)",
        only: [
          'src/renderer/features/artifacts/pdf-viewer.tsx',
          'src/renderer/features/artifacts/pdf-worker.ts',
        ],
      },
      {
        name: 'fflate',
        why: "the artifact viewer's bounded unzipping of XLSX, PPTX and DOCX, in workers (zip-directory.ts inflates; docx-prepare.ts re-zips stored for mammoth)",
        only: [
          'src/renderer/features/artifacts/zip-directory.ts',
          'src/renderer/features/artifacts/docx-prepare.ts',
        ],
      },
      {
        name: 'htmlparser2',
        why: "the artifact viewer's streaming XML parser for XLSX and PPTX, in workers (office-zip.ts)",
        only: ['src/renderer/features/artifacts/office-zip.ts'],
      },
      {
        name: 'mammoth',
        why: "the artifact viewer's DOCX to HTML conversion, in its worker (docx-worker.ts)",
        only: ['src/renderer/features/artifacts/docx-worker.ts'],
      },
      {
        name: 'dompurify',
        why: "sanitises the DOCX viewer's HTML before the isolated frame shows it (docx-viewer.tsx)",
        only: ['src/renderer/features/artifacts/docx-viewer.tsx'],
      },
    ],
    builtins: [],
    literalDynamicImports: true,
    restrictedSyntax: [
      {
        selector: "MemberExpression[property.name='invoke']",
        message: BRIDGE_FENCE_MESSAGE,
        except: BRIDGE_CALLERS,
      },
      {
        selector: "ObjectPattern > Property[key.name='invoke']",
        message: BRIDGE_FENCE_MESSAGE,
        except: BRIDGE_CALLERS,
      },
    ],
  },
  {
    folder: 'sandbox/src',
    files: ['sandbox/src/**'],
    mayImport: ['sandbox/src'],
    packages: [
      { name: 'dockerode', why: 'the only Docker client (docker-runtime.ts)' },
      { name: 'zod', why: 'request bodies and config' },
      {
        name: '@aws-sdk/client-s3',
        why: 'the S3 archive store, imported lazily',
        only: ['sandbox/src/s3-archive-store.ts'],
      },
      {
        name: '@aws-sdk/lib-storage',
        why: 'multipart uploads of the S3 archive store',
        only: ['sandbox/src/s3-archive-store.ts'],
      },
    ],
    builtins: ['node:*'],
  },
];

/** How an import specifier names a layer folder: its last segment (`sandbox/src`: both). */
function folderMarker(folder) {
  return folder === 'sandbox/src' ? 'sandbox/src' : folder.split('/').at(-1);
}

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `file` (a path relative to the repository) matches one of the globs. */
function matchesAny(file, globs) {
  return globs.some((glob) => {
    if (glob.endsWith('/**')) return file.startsWith(glob.slice(0, -2));
    return file === glob;
  });
}

/**
 * The regular expressions (source text) of the relative specifiers a layer may not import: one per
 * other layer folder, leaving out the parts it may import.
 */
export function forbiddenRelativePatterns(layer) {
  const patterns = [];
  for (const other of LAYERS) {
    if (other.folder === layer.folder || layer.mayImport.includes(other.folder)) continue;
    const marker = escapeRegex(folderMarker(other.folder));
    const allowedParts = layer.mayImport
      .filter((entry) => entry.startsWith(`${other.folder}/`))
      .map((entry) => escapeRegex(entry.slice(other.folder.length + 1)));
    const rest =
      allowedParts.length === 0 ? '(?:/|$)' : `(?:$|/(?!(?:${allowedParts.join('|')})(?:/|$)))`;
    patterns.push(`^\\.{1,2}/(?:.*/)?${marker}${rest}`);
  }
  return patterns;
}

/** The regular expression (source text) of the bare specifiers not allowed for `file`. */
export function forbiddenPackagePattern(layer, file = null) {
  const allowed = layer.packages
    .filter((entry) => entry.only === undefined || (file !== null && matchesAny(file, entry.only)))
    .map((entry) => `${escapeRegex(entry.name)}(?:/|$)`);
  for (const builtin of layer.builtins) {
    allowed.push(builtin === 'node:*' ? 'node:' : `${escapeRegex(builtin)}$`);
  }
  const allowedPart = allowed.length === 0 ? '' : `(?!(?:${allowed.join('|')}))`;
  return `^(?!\\.{1,2}/)${allowedPart}`;
}

function describeAllowed(layer) {
  const packages = layer.packages.map((entry) => entry.name);
  return [
    `folders: ${layer.mayImport.join(', ')}`,
    `packages: ${packages.length === 0 ? 'none' : packages.join(', ')}`,
    `built-ins: ${layer.builtins.length === 0 ? 'none' : layer.builtins.join(', ')}`,
  ].join('; ');
}

/** The fence for the files of `layer` (with `file` set: the packages narrowed to those files). */
function fenceRules(layer, file) {
  const message = `${layer.folder} may import only ${describeAllowed(layer)} (eslint-layers.js, ARCHITECTURE.md "Layers").`;
  const relative = forbiddenRelativePatterns(layer);
  const packages = forbiddenPackagePattern(layer, file);
  const all = [...relative, packages];
  // esquery regexes end at the first "/", so slashes are written as \x2F there.
  const selectorRegex = (source) => source.replaceAll('/', '\\x2F');
  const syntax = all.map((source) => ({
    selector: `ImportExpression[source.type='Literal'][source.value=/${selectorRegex(source)}/]`,
    message,
  }));
  if (layer.literalDynamicImports) {
    syntax.push({
      selector: "ImportExpression:not([source.type='Literal'])",
      message: `${layer.folder}: import() needs a literal source, so the layer fence can check it.`,
    });
  }
  for (const rule of layer.restrictedSyntax ?? []) {
    if (file === null || !matchesAny(file, rule.except)) {
      syntax.push({ selector: rule.selector, message: rule.message });
    }
  }
  return {
    'no-restricted-imports': [
      'error',
      { patterns: all.map((regex) => ({ regex, caseSensitive: true, message })) },
    ],
    'no-restricted-syntax': ['error', ...syntax],
  };
}

/**
 * Flat-config entries: one per layer, then one per set of files a package is narrowed to (later
 * entries replace the rule for those files, with that package let through).
 */
export function layerConfigs() {
  const configs = [];
  for (const layer of LAYERS) {
    configs.push({ files: layer.files, rules: fenceRules(layer, null) });
    const narrowed = new Set(layer.packages.flatMap((entry) => entry.only ?? []));
    for (const glob of narrowed) {
      // A representative path for the glob decides which narrowed packages it gets.
      const sample = glob.endsWith('/**') ? `${glob.slice(0, -2)}x.ts` : glob;
      configs.push({ files: [glob], rules: fenceRules(layer, sample) });
    }
    // The files a restricted syntax lets through: the same fence without that rule.
    const excepted = new Set((layer.restrictedSyntax ?? []).flatMap((rule) => rule.except));
    for (const glob of excepted) {
      const sample = glob.endsWith('/**') ? `${glob.slice(0, -2)}x.ts` : glob;
      configs.push({ files: [glob], rules: fenceRules(layer, sample) });
    }
  }
  return configs;
}

/** The cells of the ARCHITECTURE.md table row for `layer`: folder, may import, packages. */
export function tableCells(layer) {
  const code = (text) => `\`${text}\``;
  const folders = layer.mayImport.filter((entry) => entry !== layer.folder).map(code);
  const packages = layer.packages.map((entry) => {
    const where = (entry.only ?? []).map((only) => code(only.replace(`${layer.folder}/`, '')));
    return where.length === 0 ? code(entry.name) : `${code(entry.name)} (${where.join(', ')})`;
  });
  const builtins = layer.builtins.length === 0 ? [] : [layer.builtins.map(code).join(', ')];
  return {
    folder: code(`${layer.folder}/`),
    mayImport: ['itself', ...folders].join(', '),
    packages: [...packages, ...builtins].join('; ') || 'none',
  };
}
