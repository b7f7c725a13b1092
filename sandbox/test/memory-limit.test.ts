/**
 * The session's memory limit on the real dockerd (issue 14): the worker caps its data segment
 * below the container's limit, so a memory bomb is a MemoryError in the cell and the session
 * keeps its variables; memory the cap cannot see (shared mappings) meets the cgroup limit, and
 * the sidecar then says "ran out of memory" at once and restarts the worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './support/docker-fixture';
import { createFixture, RUNNER_IMAGE } from './support/docker-fixture';

const never = new AbortController().signal;
const MEMORY = 512 * 1024 * 1024;

describe('memory limit inside the worker', () => {
  let fixture: Fixture;
  let sessionId: string;

  beforeAll(async () => {
    fixture = createFixture({
      limits: {
        image: RUNNER_IMAGE,
        memoryBytes: MEMORY,
        cpus: 1,
        pidsLimit: 64,
        workspaceBytes: 128 * 1024 * 1024,
        tmpBytes: 32 * 1024 * 1024,
        readOnlyRootfs: true,
      },
    });
    await fixture.manager.start();
    sessionId = (await fixture.manager.createSession('conv-memory')).session_id;
  }, 60_000);

  afterAll(async () => {
    await fixture.cleanup();
  }, 60_000);

  const run = (code: string, timeout_s = 60) =>
    fixture.manager.exec({ session_id: sessionId, code, timeout_s }, never);

  it('a memory bomb raises MemoryError in the cell; variables defined before survive', async () => {
    expect((await run('x = 41')).status).toBe('ok');
    const bomb = await run('blob = b"x" * (6 * 1024**3)');
    expect(bomb).toMatchObject({ status: 'error', worker_restarted: false });
    expect(bomb.error).toMatch(/^Traceback[\s\S]*<cell>[\s\S]*\nMemoryError\n/);
    expect(bomb.error).toContain("This session's memory limit is 0.5 GiB");
    expect(await run('print(x + 1)')).toMatchObject({ status: 'ok', stdout: '42\n' });
  }, 60_000);

  it('memory filled step by step also ends in MemoryError, and is given back', async () => {
    const bomb = await run(
      'blocks = []\ntry:\n    while True:\n        blocks.append(bytearray(16 * 1024 * 1024))\nfinally:\n    steps = len(blocks)\n    del blocks',
    );
    expect(bomb).toMatchObject({ status: 'error', worker_restarted: false });
    expect(bomb.error).toMatch(/\nMemoryError\n/);
    // The cap (512 MiB - 192 MiB - 1/8) lets about 250 MiB through before refusing.
    const after = await run('print(x, 10 <= steps <= 20)\nbig = bytearray(128 * 1024 * 1024)');
    expect(after).toMatchObject({ status: 'ok', stdout: '41 True\n' });
  }, 60_000);

  it('numpy, pandas and matplotlib import and work under the cap', async () => {
    const result = await run(
      [
        'import numpy as np, pandas as pd, matplotlib.pyplot as plt',
        'a = np.random.default_rng(1).random((600, 600))',
        'df = pd.DataFrame(a @ a)',
        'summary = df.describe()',
        'fig, ax = plt.subplots()',
        'ax.plot(df[0].to_numpy()[:100])',
        "fig.savefig('outputs/memory-plot.png')",
        'print(summary.shape, round(float(np.linalg.norm(np.eye(3))) ** 2))',
      ].join('\n'),
    );
    expect(result).toMatchObject({ status: 'ok', stdout: '(8, 600) 3\n', error: null });
    expect(result.outputs.map((output) => output.path)).toContain('outputs/memory-plot.png');
  }, 90_000);

  it('memory the cap does not count (a shared mapping) meets the cgroup: "ran out of memory", and the session goes on', async () => {
    // MAP_SHARED anonymous memory is not part of RLIMIT_DATA; writing 1 GiB of it exceeds the
    // container's 512 MiB, so the kernel's OOM killer ends the worker.
    const bomb = await run(
      'import mmap\nm = mmap.mmap(-1, 1024**3)\nchunk = b"x" * (16 * 1024 * 1024)\nfor i in range(0, len(m), len(chunk)):\n    m[i:i + len(chunk)] = chunk',
      120,
    );
    expect(bomb).toMatchObject({ status: 'error', worker_restarted: true });
    expect(bomb.error).toContain('ran out of memory (limit 0.5 GiB)');
    expect(bomb.error).toMatch(/variables and imports are lost, files in \/workspace are kept/);
    const after = await run("print('x' in globals(), 6 * 7)");
    expect(after).toMatchObject({ status: 'ok', stdout: 'False 42\n' });
    // The new worker has the cap again.
    const again = await run('blob = b"x" * (6 * 1024**3)');
    expect(again.error).toMatch(/\nMemoryError\n/);
  }, 150_000);
});
