/** Where the conformance project's global setup puts the bundled client (see its header). */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Inside the repository, so that node resolves the client's packages from node_modules. */
export const CLIENT_BUNDLE = join(
  root,
  'node_modules',
  '.cache',
  'aivory-conformance',
  'aivory-client.mjs',
);
