/**
 * Node module-resolution hooks (registered with `module.register`) that answer `electron` with the
 * fake module whose URL `initialize` receives. Transpiled to JavaScript by load.ts.
 */

interface ResolveResult {
  url: string;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>;

let fakeElectronUrl = '';

/** Receives `{ fakeElectronUrl }` from `register(…, { data })`. */
export function initialize(data: { fakeElectronUrl: string }): void {
  fakeElectronUrl = data.fakeElectronUrl;
}

/** `electron` → the fake; everything else resolves as usual. */
export async function resolve(
  specifier: string,
  context: unknown,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  if (specifier === 'electron') return { url: fakeElectronUrl, shortCircuit: true };
  return nextResolve(specifier, context);
}
