/**
 * Checks every engine's sessions must pass, shared by the Podman tests (rootful and rootless):
 * state kept between calls, files in and out, the hardening seen from inside the container, and
 * a memory bomb that is a MemoryError with variables kept (the worker's RLIMIT_DATA).
 */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect, it } from 'vitest';
import type { ExecResult } from '../../src/sandbox-service';
import type { Fixture } from './docker-fixture';

const never = new AbortController().signal;

/** The running test's fixture and its session (set in the test file's beforeAll). */
export interface EngineSession {
  fixture: Fixture;
  sessionId: string;
}

/** Runs code in the session `current()` names at call time. */
export function runner(
  current: () => EngineSession,
): (code: string, timeout_s?: number) => Promise<ExecResult> {
  return (code, timeout_s) => {
    const { fixture, sessionId } = current();
    return fixture.manager.exec(
      { session_id: sessionId, code, ...(timeout_s ? { timeout_s } : {}) },
      never,
    );
  };
}

/** Registers the two tests of interpreter state and workspace files. */
export function itKeepsStateAndMovesFiles(current: () => EngineSession): void {
  const run = runner(current);

  it('keeps interpreter state between calls', async () => {
    expect((await run('x = 6 * 7')).status).toBe('ok');
    expect(await run('print(x)')).toMatchObject({ status: 'ok', stdout: '42\n', error: null });
  });

  it('moves files in and out of the workspace', async () => {
    const { fixture, sessionId } = current();
    const body = 'a,b\n1,2\n';
    const uploaded = await fixture.manager.upload(
      sessionId,
      'data.csv',
      Readable.from([Buffer.from(body)]),
      body.length,
    );
    expect(uploaded).toMatchObject({ path: 'uploads/data.csv', size: body.length });
    const written = await run(
      "import csv\nrows = list(csv.reader(open('uploads/data.csv')))\nopen('outputs/sum.txt', 'w').write(str(int(rows[1][0]) + int(rows[1][1])))",
    );
    expect(written.outputs.map((output) => output.path)).toContain('outputs/sum.txt');
    const read = await fixture.manager.readPath(sessionId, 'outputs/sum.txt');
    expect(read.kind).toBe('file');
    if (read.kind === 'file') expect(await text(read.body)).toBe('3');
  });
}

/**
 * Python that prints what a session can do: connect out, resolve names, write the root, its uid,
 * capabilities, no-new-privs, interfaces, rlimits, PID 1 and its user namespace's uid map.
 */
export const HARDENING_PROBE = [
  'import os, resource, socket',
  'checks = {}',
  'try:',
  "    socket.create_connection(('10.0.2.2', 80), timeout=2); checks['connect'] = 'connected'",
  'except OSError as error:',
  "    checks['connect'] = type(error).__name__",
  'try:',
  "    socket.getaddrinfo('example.com', 80); checks['dns'] = 'resolved'",
  'except OSError:',
  "    checks['dns'] = 'failed'",
  "for path in ['/etc/evil', '/usr/evil', '/evil']:",
  '    try:',
  "        open(path, 'w').write('x'); checks[path] = 'written'",
  '    except OSError as error:',
  '        checks[path] = type(error).__name__',
  "checks['uid'] = os.getuid()",
  "status = dict(line.split(':\\t', 1) for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)",
  "checks['capeff'] = status['CapEff'].strip()",
  "checks['nnp'] = status['NoNewPrivs'].strip()",
  "checks['interfaces'] = sorted(name for _, name in socket.if_nameindex())",
  "checks['nofile'] = resource.getrlimit(resource.RLIMIT_NOFILE)",
  "checks['core'] = resource.getrlimit(resource.RLIMIT_CORE)",
  "checks['nproc'] = resource.getrlimit(resource.RLIMIT_NPROC)",
  "checks['pid1'] = open('/proc/1/comm').read().strip()",
  "checks['uid_map'] = open('/proc/self/uid_map').read().split()[:3]",
  'print(checks)',
].join('\n');

/** What HARDENING_PROBE must print on every engine (Podman's init is catatonit, "podman-init"). */
export function expectHardened(checks: string, pid1: string): void {
  expect(checks).not.toContain("'connected'");
  expect(checks).toContain("'dns': 'failed'");
  expect(checks).not.toContain("'written'");
  expect(checks).toContain("'uid': 1000");
  expect(checks).toContain("'capeff': '0000000000000000'");
  expect(checks).toContain("'nnp': '1'");
  expect(checks).toContain("'interfaces': ['lo']");
  expect(checks).toContain("'nofile': (4096, 4096)");
  expect(checks).toContain("'core': (0, 0)");
  expect(checks).toContain(`'pid1': '${pid1}'`);
}

/** Registers the memory-bomb test: a MemoryError in the cell, `x` kept, no worker restart. */
export function itRaisesMemoryErrorKeepingState(
  current: () => EngineSession,
  title = 'a memory bomb is a MemoryError in the cell; variables survive, the session keeps working',
): void {
  const run = runner(current);
  it(
    title,
    async () => {
      await run('x = 41');
      const bomb = await run(
        'blocks = []\ntry:\n    while True:\n        blocks.append(bytearray(50 * 1024 * 1024))\nfinally:\n    blocks.clear()',
        60,
      );
      expect(bomb.status).toBe('error');
      expect(bomb.error).toContain('MemoryError');
      expect(bomb.worker_restarted).toBe(false);
      expect((await run('print(x + 1)')).stdout).toBe('42\n');
    },
    90_000,
  );
}
