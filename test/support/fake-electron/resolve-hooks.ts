/**
 * A Node module-resolution hook (for `module.registerHooks`, which runs in the loading thread and
 * covers both `require` and `import`: the bundled main is CommonJS and requires `electron`) that
 * answers `electron` with the fake module at `fakeElectronUrl`. Transpiled to JavaScript by
 * load.ts.
 */

interface ResolveResult {
  url: string;
  format?: string;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context?: unknown) => ResolveResult;
type Resolve = (specifier: string, context: unknown, nextResolve: NextResolve) => ResolveResult;

/** `electron` → the fake (an ES module); everything else resolves as usual. */
export function fakeElectronResolve(fakeElectronUrl: string): Resolve {
  return (specifier, context, nextResolve) =>
    specifier === 'electron'
      ? { url: fakeElectronUrl, format: 'module', shortCircuit: true }
      : nextResolve(specifier, context);
}
