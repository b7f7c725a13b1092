/**
 * python_execute's outputs on the user's disk: a hostile or odd name (` ..`, `..`, `CON.txt`, a
 * path) becomes a plain file inside the conversation's folder, and one file that cannot be copied
 * never costs the others (issue 11, finding 10). Real files in a temp folder; a fake sandbox.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileArtifactSink } from '../../../src/main/adapters/artifacts/file-artifact-sink';
import { safeComponent } from '../../../src/main/policy/file-names';
import type { PythonSandbox } from '../../../src/main/core/ports';
import { createPythonExecuteTool } from '../../../src/main/tools/python-execute';
import { recordingLogger } from '../../support/turn-harness';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function sandboxWith(files: Record<string, string | null>): PythonSandbox {
  return {
    sessionFor: () => Promise.resolve('s1'),
    exec: () =>
      Promise.resolve({
        status: 'ok' as const,
        stdout: 'done\n',
        stderr: '',
        error: null,
        duration_ms: 5,
        outputs: Object.keys(files).map((path) => ({ path, size: 1, mime: 'text/plain' })),
      }),
    download: (_session, path) => {
      const content = files[path];
      return content === null || content === undefined
        ? Promise.reject(new Error(`${path} vanished`))
        : Promise.resolve(new TextEncoder().encode(content));
    },
  };
}

describe('safeComponent', () => {
  it('never yields a name that leaves the folder or means something else', () => {
    for (const [input, expected] of [
      [' ..', 'file'],
      ['..', 'file'],
      ['.', 'file'],
      ['. . .', 'file'],
      ['  .. /etc', '_etc'],
      ['../../x.txt', '_.._x.txt'],
      ['report.pdf. ', 'report.pdf'],
      ['CON', '_CON'],
      ['nul.txt', '_nul.txt'],
      ['com1.log', '_com1.log'],
      ['console.log', 'console.log'],
      ['a\u0000b', 'a_b'],
      ['a\u0085b', 'a_b'],
      // Bidi overrides, isolates, zero-width and other format characters are dropped.
      ['invoice\u202efdp.exe', 'invoicefdp.exe'],
      ['\u2066report\u2069\u200b.pdf\ufeff', 'report.pdf'],
      ['x\u061c\u200e\u200f\u00ad.txt', 'x.txt'],
      ['\u202e', 'file'],
      ['plot.png', 'plot.png'],
    ] as const) {
      expect(safeComponent(input, 'file'), JSON.stringify(input)).toBe(expected);
    }
    const long = safeComponent(`${'.'.repeat(5)}${'a'.repeat(300)}.txt`, 'file');
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('.txt')).toBe(true);
  });
});

describe('python_execute outputs', () => {
  it('saves every good file even when one name is hostile and one download fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aivory-artifacts-'));
    roots.push(root);
    const tool = createPythonExecuteTool({
      sandbox: sandboxWith({
        '/workspace/outputs/ ..': 'dots',
        '/workspace/outputs/..': 'more dots',
        '/workspace/outputs/gone.csv': null,
        '/workspace/outputs/plot.csv': 'a,b\n1,2\n',
      }),
      artifacts: new FileArtifactSink(root),
      timeoutSeconds: 30,
      scratchConversationId: 'scratch',
    });
    const output = await tool.execute(
      { code: 'print("done")' },
      { conversationId: 'conv_1', signal: new AbortController().signal, logger: recordingLogger() },
    );
    expect(output.isError).toBe(false);
    expect(output.artifacts?.map((artifact) => artifact.name)).toEqual([
      'file',
      'file-2',
      'plot.csv',
    ]);
    expect(output.content).toContain('files attached to your answer automatically');
    expect(output.content).toContain('files that could not be copied to the user');
    expect(output.content).toContain('"gone.csv"');
    const folder = join(root, 'conv_1');
    expect(readdirSync(folder).sort()).toEqual(['file', 'file-2', 'plot.csv']);
    for (const name of readdirSync(folder))
      expect(statSync(join(folder, name)).isFile()).toBe(true);
    expect(readFileSync(join(folder, 'plot.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect(readdirSync(root)).toEqual(['conv_1']);
  });
});
