/**
 * Runs one pinned version of the official MCP conformance suite (`@modelcontextprotocol/conformance`)
 * against Aivory as a client: every client scenario of the suite runs its own local server (and
 * authorization server) on loopback, and Aivory's real `aivory mcp` commands
 * (test/conformance/conformance-client.ts, run in this worker through client-host.ts) connect,
 * sign in, list and call. A scenario passes only when
 * the suite reports no failed check and no warning.
 *
 * Each version's test file gives its expected-pass list and, for every other scenario, the reason
 * it does not pass (also in docs/mcp.md). The suite's own list must be exactly their union, so a
 * new suite version (or a renamed scenario) is noticed; a listed scenario that fails fails its
 * test.
 *
 * The browser of OAuth sign-ins is `$BROWSER`, set to test/support/oauth-browser.ts: it follows
 * the authorization server's redirect back to Aivory's loopback listener, as a user's browser
 * would after they approve.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIRECT_FOLLOWER } from '../support/redirect-follower';
import type { ClientHost } from './client-host';
import { startClientHost } from './client-host';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One pinned suite version and what Aivory makes of it. */
export interface SuiteExpectations {
  /** The package folder under node_modules (an npm alias for a second version). */
  packageDir: string;
  /** The version package.json pins, checked against the installed one. */
  version: string;
  /** Every client scenario Aivory passes. */
  passing: readonly string[];
  /** Every other client scenario, with why it does not pass. */
  notPassing: Readonly<Record<string, string>>;
}

interface Run {
  code: number | null;
  output: string;
}

/** The summary lines, and the failed or warned checks, for a readable assertion message. */
function verdict(output: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n');
  const keep = lines.filter((line) =>
    /FAILURE|WARNING|^Passed:|OVERALL|Client exited|Error|aivory:/.test(line),
  );
  return keep.join('\n');
}

/** Declares the tests for one suite version. */
export function describeConformanceSuite(expected: SuiteExpectations): void {
  const packageRoot = join(root, 'node_modules', ...expected.packageDir.split('/'));
  const cli = join(packageRoot, 'dist', 'index.js');
  const workDir = mkdtempSync(join(tmpdir(), 'aivory-conformance-runs-'));
  let client: ClientHost | undefined;
  beforeAll(async () => {
    client = await startClientHost();
  });
  afterAll(async () => {
    await client?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  /** Runs the suite's CLI in a scratch folder (it writes results/ there). */
  const conformance = (args: string[]): Promise<Run> =>
    new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [cli, ...args], {
        cwd: workDir,
        env: { ...process.env, BROWSER: REDIRECT_FOLLOWER, NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });

  describe(`MCP conformance suite ${expected.version}: client scenarios`, () => {
    it('is the pinned version', async () => {
      const { readFile } = await import('node:fs/promises');
      const manifest = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as {
        version: string;
      };
      expect(manifest.version).toBe(expected.version);
    });

    it(
      'lists exactly the scenarios this file knows (a new suite version is noticed)',
      { timeout: 60_000 },
      async () => {
        const { output } = await conformance(['list']);
        const clientPart =
          (output.split(/Client scenarios[^\n]*\n/)[1] ?? '').split(/\n\S/)[0] ?? '';
        const listed = [...clientPart.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
        expect(listed.sort()).toEqual(
          [...expected.passing, ...Object.keys(expected.notPassing)].sort(),
        );
      },
    );

    it('names a reason for every scenario it does not pass', () => {
      for (const [scenario, reason] of Object.entries(expected.notPassing)) {
        expect(expected.passing, scenario).not.toContain(scenario);
        expect(reason.length, scenario).toBeGreaterThan(20);
      }
    });

    for (const scenario of expected.passing) {
      // Generous: the client is five `aivory` runs, slow on a loaded 2-core machine.
      it(`passes ${scenario}`, { timeout: 180_000 }, async () => {
        const run = await conformance([
          'client',
          '--command',
          client?.command ?? 'false',
          '--scenario',
          scenario,
          '--timeout',
          '120000',
        ]);
        const summary = verdict(run.output);
        expect(summary, run.output.slice(-4000)).toMatch(/OVERALL: PASSED/);
        expect(summary).not.toMatch(/FAILURE|WARNING/);
        expect(run.code).toBe(0);
      });
    }
  });
}
