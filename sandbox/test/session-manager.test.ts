import { writeFileSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from './support/docker-fixture';
import { createFixture, inspect } from './support/docker-fixture';

const never = new AbortController().signal;

describe('SessionManager on real Docker', () => {
  let fixture: Fixture;
  let sessionId: string;
  let containerId: string;

  beforeAll(async () => {
    fixture = createFixture();
    await fixture.manager.start();
    const session = await fixture.manager.createSession('conv-main');
    sessionId = session.session_id;
    const containers = await fixture.runtime.listManaged();
    containerId =
      containers.find((container) => container.name.startsWith(fixture.prefix))?.id ?? '';
  }, 60_000);

  afterAll(async () => {
    await fixture.cleanup();
  }, 60_000);

  /**
   * Resolves once `path` exists in the session's workspace: the marker a cell writes when it has
   * reached the point a test wants to act at (a cell's output only arrives with its result).
   * Files can be read while the session runs code.
   */
  async function untilWorkspaceFile(path: string): Promise<void> {
    for (;;) {
      const found = await fixture.manager.readPath(sessionId, path).catch(() => null);
      if (found?.kind === 'file') {
        found.body.resume();
        await finished(found.body);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const run = (code: string, timeout_s?: number) =>
    fixture.manager.exec(
      { session_id: sessionId, code, ...(timeout_s ? { timeout_s } : {}) },
      never,
    );

  it('keeps interpreter state between calls, like a notebook', async () => {
    expect((await run('x = 6 * 7\nimport math')).status).toBe('ok');
    const result = await run('print(x, math.sqrt(16))');
    expect(result).toMatchObject({ status: 'ok', stdout: '42 4.0\n', error: null });
  });

  it('one session per conversation: asking again returns the same session', async () => {
    const again = await fixture.manager.createSession('conv-main');
    expect(again).toMatchObject({ session_id: sessionId, created: false });
  });

  it('reports errors with the traceback and lists files written to outputs, plots included', async () => {
    const failed = await run('1 / 0');
    expect(failed.status).toBe('error');
    expect(failed.error).toContain('ZeroDivisionError');
    const files = await run(
      "open('outputs/report.txt', 'w').write('hello')\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()",
    );
    expect(files.status).toBe('ok');
    const paths = files.outputs.map((output) => output.path).sort();
    expect(paths).toContain('outputs/report.txt');
    expect(paths.some((path) => /^outputs\/figure-\d+\.png$/.test(path))).toBe(true);
    expect(files.outputs.find((output) => output.path === 'outputs/report.txt')).toMatchObject({
      size: 5,
      mime: 'text/plain',
    });
  });

  it('the container is created from the hardened template', () => {
    const info = inspect(containerId) as {
      Config: { User: string };
      HostConfig: Record<string, unknown>;
    };
    expect(info.Config.User).toBe('1000:1000');
    expect(info.HostConfig).toMatchObject({
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges:true'],
      ReadonlyRootfs: true,
      Privileged: false,
      PidsLimit: 64,
      Memory: 512 * 1024 * 1024,
      MemorySwap: 512 * 1024 * 1024,
      Init: true,
    });
    // The only mount from the host: the session's transfer pipes, read-only (transfer-pipes.ts).
    expect(info.HostConfig.Binds).toEqual([
      expect.stringMatching(/^\/[^:]+\/aivory-transfer-[^:/]+\/[^:/]+:\/run\/aivory-transfer:ro$/),
    ]);
  });

  it('code inside cannot reach the network, write outside /workspace and /tmp, or hold capabilities', async () => {
    const result = await run(
      [
        'import os, socket',
        'checks = {}',
        'try:',
        "    socket.create_connection(('127.0.0.1', 48217), timeout=2); checks['connect'] = 'connected'",
        'except OSError as error:',
        "    checks['connect'] = type(error).__name__",
        'try:',
        "    socket.getaddrinfo('example.com', 80); checks['dns'] = 'resolved'",
        'except OSError as error:',
        "    checks['dns'] = 'failed'",
        "for path in ['/etc/evil', '/usr/evil', '/opt/aivory/evil', '/evil', '/run/aivory-transfer/evil']:",
        '    try:',
        "        open(path, 'w').write('x'); checks[path] = 'written'",
        '    except OSError as error:',
        '        checks[path] = type(error).__name__',
        "checks['uid'] = os.getuid()",
        "checks['capeff'] = [line.split()[1] for line in open('/proc/self/status') if line.startswith('CapEff')][0]",
        "checks['interfaces'] = sorted(name for _, name in socket.if_nameindex())",
        'print(checks)',
      ].join('\n'),
    );
    expect(result.status).toBe('ok');
    const checks = result.stdout;
    expect(checks).not.toContain("'connected'");
    expect(checks).toContain("'dns': 'failed'");
    expect(checks).not.toContain("'written'");
    expect(checks).toContain("'uid': 1000");
    expect(checks).toContain("'capeff': '0000000000000000'");
    expect(checks).toContain("'interfaces': ['lo']");
  });

  it('cannot see host files', async () => {
    const marker = `/tmp/aivory-host-marker-${fixture.prefix}`;
    writeFileSync(marker, 'host secret');
    const result = await run(
      `import os\nprint(os.path.exists(${JSON.stringify(marker)}), open('/etc/hostname').read().strip() != ${JSON.stringify((await import('node:os')).hostname())})`,
    );
    expect(result.stdout).toBe('False True\n');
  });

  it('caps endless output and times out endless loops; the next call works and variables survive', async () => {
    const flood = await run("while True:\n    print('x' * 1000)", 4);
    expect(flood.status).toBe('timeout');
    expect(flood.stdout.length).toBeLessThan(8192 + 200);
    expect(flood.stdout_truncated_bytes).toBeGreaterThan(100_000);
    expect(flood.error).toMatch(/timed out after 4 s and was interrupted; variables are kept/);
    const after = await run('print(x)');
    expect(after).toMatchObject({ status: 'ok', stdout: '42\n' });
  }, 40_000);

  it('code that ignores the interrupt is killed; the worker restarts, files stay', async () => {
    const stubborn = await run(
      'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass',
      4,
    );
    expect(stubborn).toMatchObject({ status: 'timeout', worker_restarted: true });
    expect(stubborn.error).toMatch(
      /restarted: variables and imports are lost, files in \/workspace are kept/,
    );
    const after = await run("print(open('outputs/report.txt').read())\nprint('x' in globals())");
    expect(after).toMatchObject({ status: 'ok', stdout: 'hello\nFalse\n' });
  }, 40_000);

  it('a memory bomb is a MemoryError in the cell; the session and the sidecar keep working', async () => {
    const bomb = await run(
      'blocks = []\nwhile True:\n    blocks.append(bytearray(50 * 1024 * 1024))',
      60,
    );
    expect(bomb.status).toBe('error');
    expect(bomb.error).toMatch(/\nMemoryError\n/);
    expect(bomb.worker_restarted).toBe(false);
    // The blocks allocated before the refusal are still there, like any variable; free them.
    expect((await run('print(1 + 1, len(blocks) > 2)\ndel blocks')).stdout).toBe('2 True\n');
  }, 90_000);

  it('a fork bomb is contained by the pids limit, and its processes are reaped afterwards', async () => {
    const bomb = await run(
      'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass',
      4,
    );
    expect(bomb.status).toBe('timeout');
    // Process states in the container, this cell's own process included.
    const states = async (): Promise<string[]> => {
      const listing = await run(
        [
          'import json, os',
          'states = []',
          "for p in filter(str.isdigit, os.listdir('/proc')):",
          '    try:',
          "        states.append(open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()[0])",
          '    except (OSError, IndexError):',
          '        pass',
          'print(json.dumps(states))',
        ].join('\n'),
      );
      expect(listing.status, listing.error ?? '').toBe('ok');
      return JSON.parse(listing.stdout) as string[];
    };
    // The worker reaps its group before it reads the next request: init, sleep and the worker
    // (and at most a helper) are the only live processes left.
    const live = (await states()).filter((state) => state !== 'Z');
    expect(live.length, JSON.stringify(live)).toBeLessThan(6);
    // Bomb processes whose parent died first are zombies of init (docker-init), which collects
    // them when it next runs: on a busy machine that can be after the call above.
    await expect.poll(async () => (await states()).length).toBeLessThan(6);
  }, 60_000);

  it('subprocesses started by the code are reaped when a call times out', async () => {
    const result = await run(
      "import subprocess, time\nsubprocess.Popen(['sleep', '1000'])\ntime.sleep(1000)",
      4,
    );
    expect(result.status).toBe('timeout');
    const check = await run(
      "import os\nprint(sorted(open(f'/proc/{p}/comm').read().strip() for p in os.listdir('/proc') if p.isdigit()))",
    );
    expect(check.stdout.match(/'sleep'/g)).toHaveLength(1);
  }, 60_000);

  it('a caller that goes away interrupts the running code (nothing keeps running for it)', async () => {
    const controller = new AbortController();
    // 30 s of work that records its progress; the caller leaves once it has started.
    const pending = fixture.manager.exec(
      {
        session_id: sessionId,
        code: "import time\nopen('outputs/cancel-started', 'w').close()\nfor i in range(300):\n    time.sleep(0.1)\n    open('outputs/progress.txt', 'w').write(str(i))",
      },
      controller.signal,
    );
    await untilWorkspaceFile('outputs/cancel-started');
    controller.abort();
    const result = await pending;
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/canceled and was interrupted/);
    // The loop was stopped before its end, and nothing writes progress after the result.
    const progress = await run(
      "import os, time\nfirst = open('outputs/progress.txt').read() if os.path.exists('outputs/progress.txt') else '-1'\ntime.sleep(0.5)\nnow = open('outputs/progress.txt').read() if os.path.exists('outputs/progress.txt') else '-1'\nprint(int(first) < 299, first == now)",
    );
    expect(progress.stdout).toBe('True True\n');
  }, 30_000);
});
