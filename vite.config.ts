import { defineConfig } from 'vite';

/**
 * Builds the renderer (src/renderer) into out/renderer for the Electron window and for
 * `aivory serve`. The React UI arrives with issue 6; until then this config has no entry to build.
 */
export default defineConfig({
  root: 'src/renderer',
  base: './',
  build: {
    outDir: '../../out/renderer',
    emptyOutDir: true,
    target: 'chrome140',
  },
});
