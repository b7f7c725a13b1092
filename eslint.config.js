import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerConfigs } from './eslint-layers.js';

/** The browser's own dialogs, which Electron does not implement. */
const BROWSER_DIALOGS = ['alert', 'confirm', 'prompt'];
const NO_DIALOG =
  'Electron has no browser dialogs: ask in the app (askConfirm in components/confirm-dialog.tsx, or an inline editor).';

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
    },
  },
  { files: ['eslint.config.js', 'eslint-layers.js'], ...tseslint.configs.disableTypeChecked },
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
    rules: {
      // Electron implements none of the browser's own dialogs (prompt returns nothing, alert and
      // confirm block the window): the app asks in its own (components/confirm-dialog.tsx).
      'no-restricted-globals': [
        'error',
        ...BROWSER_DIALOGS.map((name) => ({ name, message: NO_DIALOG })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self', 'top', 'parent'].flatMap((object) =>
          BROWSER_DIALOGS.map((property) => ({ object, property, message: NO_DIALOG })),
        ),
      ],
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
  // The layer fence: per layer, an allow-list of folders, packages and Node built-ins
  // (eslint-layers.js; the same table is in ARCHITECTURE.md, checked by test/unit/lint/).
  ...layerConfigs(),
  { files: ['src/main/core/**'], rules: { 'no-console': 'error' } },
  { files: ['src/main/adapters/**'], rules: { 'no-console': 'error' } },
);
