/**
 * vitest global setup of the conformance project: bundles the client under test
 * (aivory-client.ts, which runs the real `aivory` commands in-process) into one ES module, once
 * per run. Each scenario then starts it with plain `node` instead of tsx, which transformed the
 * CLI's whole import graph again in every one of the ~75 client processes (about 1.5 s of CPU
 * each on a 2-core machine). npm packages stay external: node resolves them from node_modules, as
 * the CLI does.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { CLIENT_BUNDLE, root } from './client-bundle';

const SANDBOX_PACKAGE = '@aivory/sandbox';

/** The installed packages' names (from both package.json files), but not the workspace's own. */
function externalPackages(): string[] {
  const names = new Set<string>();
  for (const manifest of ['package.json', join('sandbox', 'package.json')]) {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(
      readFileSync(join(root, manifest), 'utf8'),
    ) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    for (const name of [...Object.keys(dependencies), ...Object.keys(devDependencies)]) {
      names.add(name);
    }
  }
  names.delete(SANDBOX_PACKAGE);
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

export default async function setup(): Promise<void> {
  mkdirSync(dirname(CLIENT_BUNDLE), { recursive: true });
  await build({
    entryPoints: [join(root, 'test', 'conformance', 'aivory-client.ts')],
    outfile: CLIENT_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // The npm packages stay outside; the sandbox workspace package is TypeScript source, so it
    // is bundled in with the rest.
    external: externalPackages(),
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}
