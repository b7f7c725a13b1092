/**
 * Runs an Electron main bundle under plain Node with `electron` answered by fake-electron.ts. The
 * fake and the resolve hook are TypeScript; they are transpiled here (TypeScript's
 * `transpileModule`, no type checking) into a temp directory, so the child runs plain `node` —
 * no tsx — exactly as an Electron main would load the bundle.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** What the child printed and how it ended. */
export interface BundleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The parsed `FAKE_ELECTRON_REPORT` line, or null when the session never ran. */
  report: Record<string, unknown> | null;
}

const SOURCES = ['fake-electron', 'resolve-hooks'] as const;
/** A start that takes longer than this is a hang (the store and services open in well under 5 s). */
const RUN_TIMEOUT_MS = 30_000;

/** Writes the transpiled fake, hooks and register script into a temp dir; returns the register file. */
function prepareLoader(directory: string): string {
  for (const name of SOURCES) {
    const source = readFileSync(join(import.meta.dirname, `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(directory, `${name}.mjs`), outputText);
  }
  const register = join(directory, 'register.mjs');
  const hooks = pathToFileURL(join(directory, 'resolve-hooks.mjs')).href;
  const fake = pathToFileURL(join(directory, 'fake-electron.mjs')).href;
  writeFileSync(
    register,
    `import { registerHooks } from 'node:module';\n` +
      `import { fakeElectronResolve } from ${JSON.stringify(hooks)};\n` +
      `registerHooks({ resolve: fakeElectronResolve(${JSON.stringify(fake)}) });\n`,
  );
  return register;
}

/** Runs `node --import <fake electron> bundle` with `env` added; resolves when the child exits. */
export async function runBundleWithFakeElectron(
  bundle: string,
  env: Record<string, string>,
): Promise<BundleRun> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-fake-electron-'));
  try {
    const register = prepareLoader(directory);
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, bundle], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const line = stdout.split('\n').find((entry) => entry.startsWith('FAKE_ELECTRON_REPORT '));
    const report = line
      ? (JSON.parse(line.slice('FAKE_ELECTRON_REPORT '.length)) as Record<string, unknown>)
      : null;
    return { code, stdout, stderr, report };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
