import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const sdkImports = [
  { name: 'openai', message: 'Only src/main/adapters/openai may import the openai SDK.' },
  { name: 'better-sqlite3', message: 'Only src/main/adapters/sqlite may import better-sqlite3.' },
  { name: 'dockerode', message: 'Only the sandbox sidecar (sandbox/src) may import dockerode.' },
  {
    name: 'electron',
    message:
      'Only the Electron shell (src/main/electron: index.ts, window.ts, ipc/; src/preload/index.ts) may import electron.',
  },
];
const sdkPatterns = [
  {
    group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
    message: 'Only src/main/adapters/mcp may import the MCP SDK.',
  },
];

/** Rebuilds the fence with one SDK let through (for its own adapter folder). */
function fenceExcept(allowedName) {
  return [
    'error',
    {
      paths: sdkImports.filter((entry) => entry.name !== allowedName),
      patterns: sdkPatterns.filter(
        (entry) => !entry.group.some((group) => group.startsWith(allowedName)),
      ),
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'bin/**',
      'sandbox/runner/**',
      'sandbox/scripts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': fenceExcept(null),
    },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  {
    // The renderer is browser code with DOM/JSX types (tsconfig.renderer.json); it reaches the
    // main process only through its bridge, so Node built-ins and SDKs stay fenced off.
    files: ['src/renderer/**', 'test/unit/renderer/**/*.tsx'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: {
        projectService: false,
        project: ['./tsconfig.renderer.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Electron's types declare DOM globals, so the shell has its own program (tsconfig.electron.json).
    files: ['src/main/electron/**', 'src/preload/**'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./tsconfig.electron.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // playwright-core's types pull in Electron's DOM globals, so the browser tests have their own
    // program (tsconfig.e2e.json) instead of sharing the Node one.
    files: ['test/e2e/**', 'bench/ui/**'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./tsconfig.e2e.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: sdkImports,
          patterns: [
            ...sdkPatterns,
            { group: ['node:*'], message: 'The renderer runs in a browser: no Node built-ins.' },
            {
              group: ['**/main/**'],
              message: 'The renderer reaches the main process only through src/renderer/bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/adapters/openai/**'],
    rules: { 'no-restricted-imports': fenceExcept('openai') },
  },
  {
    files: ['src/main/adapters/sqlite/**'],
    rules: { 'no-restricted-imports': fenceExcept('better-sqlite3') },
  },
  {
    // The sandbox sidecar is its own service; it is the one place that talks to Docker.
    files: ['sandbox/src/**'],
    rules: { 'no-restricted-imports': fenceExcept('dockerode') },
  },
  {
    files: ['src/main/adapters/mcp/**'],
    rules: { 'no-restricted-imports': fenceExcept('@modelcontextprotocol/sdk') },
  },
  {
    files: [
      'src/main/electron/index.ts',
      'src/main/electron/window.ts',
      'src/main/electron/ipc/**',
      'src/preload/index.ts',
    ],
    rules: { 'no-restricted-imports': fenceExcept('electron') },
  },
  {
    // The orchestrator core is pure: ports only, no SDKs and no I/O.
    files: ['src/main/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...sdkImports,
            ...[
              'fs',
              'node:fs',
              'fs/promises',
              'node:fs/promises',
              'child_process',
              'node:child_process',
              'net',
              'node:net',
              'http',
              'node:http',
              'https',
              'node:https',
            ].map((name) => ({
              name,
              message: 'src/main/core is pure: reach I/O through a port.',
            })),
          ],
          patterns: [
            ...sdkPatterns,
            {
              group: ['**/adapters/**', '**/services/**'],
              message: 'core must not depend on adapters or services.',
            },
          ],
        },
      ],
      'no-console': 'error',
    },
  },
  { files: ['src/main/adapters/**'], rules: { 'no-console': 'error' } },
  {
    // Tests and benchmarks may use the SDKs directly (the benchmark's baseline is raw openai).
    files: ['test/**', 'bench/**', 'sandbox/test/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
