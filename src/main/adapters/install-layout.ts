/**
 * Where the app's own files are. From the sources (vitest, tsx) this module is
 * `src/main/adapters/install-layout.ts`; in the build it is inside a chunk of `out/main/` (the
 * build keeps every main-process chunk there, see electron.vite.config.ts). Either way the project
 * root — the folder holding `out/` and `sandbox/` — is found from here, for `aivory serve`'s
 * renderer and `aivory sandbox image build`'s scripts.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bundled = basename(here) === 'main' && basename(dirname(here)) === 'out';

/** The project (or packaged app) root. */
export const PROJECT_ROOT = bundled ? resolve(here, '..', '..') : resolve(here, '..', '..', '..');
/** The built renderer (`out/renderer`). */
export const RENDERER_DIR = join(PROJECT_ROOT, 'out', 'renderer');
/** The sandbox package's folder (its image build script and Dockerfile). */
export const SANDBOX_PACKAGE_DIR = join(PROJECT_ROOT, 'sandbox');
