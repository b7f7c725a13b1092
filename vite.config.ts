import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Builds the renderer (src/renderer) into out/renderer for the Electron window and for
 * `aivory serve` (`npm run build:renderer`). Relative asset URLs, so both hosts can serve it from
 * their own origin (`app://aivory/` and `http://127.0.0.1:PORT/`).
 */
export default defineConfig({
  root: 'src/renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../../out/renderer',
    emptyOutDir: true,
    target: 'chrome140',
    // The CSP allows no inline scripts or styles: keep every asset a file.
    assetsInlineLimit: 0,
  },
});
