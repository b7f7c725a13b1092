/**
 * The in-container Python worker (sandbox/runner/worker.py), protocol 1, driven over its real
 * stdin/stdout with the host's python3. No Docker: AIVORY_WORKSPACE points it at a temp dir.
 * matplotlib is stood in for by a tiny fake package (the host need not have it); the real one
 * is exercised inside the image by runner-image.test.ts.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { WorkerExecResult } from '../src/worker-channel';

const PYTHON = process.env.AIVORY_TEST_PYTHON ?? 'python3';
const WORKER = resolve(fileURLToPath(import.meta.url), '../../runner/worker.py');
const EXPECTED_MODULES = [
  'numpy',
  'pandas',
  'matplotlib',
  'docx',
  'openpyxl',
  'xlsxwriter',
  'pptx',
  'pypdf',
  'PIL',
  'bs4',
  'weasyprint',
];

type Message = Record<string, unknown> & { id?: number | null; type: string };
/** The worker's result line, as the sidecar reads it. */
type ExecResult = WorkerExecResult;

const scratch: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** One worker process and a JSON-lines client for it. */
class WorkerClient {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  readonly badLines: string[] = [];
  stderr = '';
  private buffer = '';
  private nextId = 1;
  private waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(
    readonly workspace: string,
    env: Record<string, string> = {},
    args: string[] = [],
  ) {
    this.proc = spawn(PYTHON, ['-u', WORKER, ...args], {
      env: { ...process.env, AIVORY_WORKSPACE: workspace, PYTHONDONTWRITEBYTECODE: '1', ...env },
      stdio: 'pipe',
    });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((done) => this.proc.on('exit', (code) => done(code)));
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      try {
        this.messages.push(JSON.parse(line) as Message);
      } catch {
        this.badLines.push(line);
      }
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves with the first unconsumed message matching pred (and removes it). */
  async take(pred: (m: Message) => boolean, timeoutMs = 15_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex(pred);
      if (index >= 0) return this.messages.splice(index, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0 || this.proc.exitCode !== null) {
        throw new Error(
          `no matching message within ${timeoutMs} ms (exit ${this.proc.exitCode}); ` +
            `pending: ${JSON.stringify(this.messages)}; stderr: ${this.stderr}`,
        );
      }
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  ready(): Promise<Message> {
    return this.take((m) => m.type === 'ready');
  }

  writeRaw(text: string): void {
    this.proc.stdin.write(text);
  }

  send(request: Record<string, unknown>): number {
    const id = this.nextId++;
    this.writeRaw(JSON.stringify({ id, ...request }) + '\n');
    return id;
  }

  async request(request: Record<string, unknown>, timeoutMs?: number): Promise<Message> {
    const id = this.send(request);
    return this.take((m) => m.id === id, timeoutMs);
  }

  async exec(
    code: string,
    extra: Record<string, unknown> = {},
    timeoutMs?: number,
  ): Promise<ExecResult> {
    const reply = await this.request({ type: 'exec', code, ...extra }, timeoutMs);
    expect(reply.type, JSON.stringify(reply)).toBe('result');
    return reply as unknown as ExecResult;
  }

  /** Runs code and returns its stdout, failing the test if the cell did not succeed. */
  async value(code: string): Promise<string> {
    const r = await this.exec(code);
    expect(r.status, r.error ?? r.stderr).toBe('ok');
    return r.stdout;
  }

  rssKb(): number {
    const status = readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode === null) {
      this.proc.kill('SIGKILL');
      await this.exited;
    }
  }
}

const live: WorkerClient[] = [];
async function startWorker(
  env: Record<string, string> = {},
  workspace?: string,
  args: string[] = [],
) {
  const w = new WorkerClient(workspace ?? tempDir('aivory-ws-'), env, args);
  live.push(w);
  const ready = await w.ready();
  return { w, ready };
}
/**
 * Resolves once the cell has created `name` in the workspace: the marker a cell writes when it
 * has reached the point a test wants to signal it at (output is not streamed while a cell runs).
 */
async function untilMarker(w: WorkerClient, name: string): Promise<void> {
  const path = join(w.workspace, name);
  while (!existsSync(path)) {
    if (w.proc.exitCode !== null) throw new Error(`the worker exited before ${name} appeared`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

afterEach(async () => {
  for (const w of live.splice(0)) {
    // No stray protocol lines: everything the worker wrote was a reply someone waited for.
    expect(w.badLines).toEqual([]);
    expect(w.messages).toEqual([]);
    await w.stop();
  }
});

describe('worker start-up and control messages', () => {
  it('announces itself and prepares the workspace', async () => {
    const { w, ready } = await startWorker();
    expect(ready).toMatchObject({ type: 'ready', protocol: 1, pid: w.proc.pid });
    const hostVersion = spawnSync(PYTHON, [
      '-c',
      'import platform; print(platform.python_version())',
    ])
      .stdout.toString()
      .trim();
    expect(ready.python).toBe(hostVersion);
    // The module report must agree with what find_spec says on this very interpreter.
    const probe = spawnSync(PYTHON, [
      '-c',
      `import importlib.util, json; print(json.dumps({m: importlib.util.find_spec(m) is not None for m in ${JSON.stringify(EXPECTED_MODULES)}}))`,
    ]);
    expect(ready.modules).toEqual(JSON.parse(probe.stdout.toString()));
    for (const sub of ['uploads', 'outputs', 'downloads']) {
      expect(existsSync(join(w.workspace, sub))).toBe(true);
    }
    expect((await w.value('import os\nos.getcwd()')).trim()).toBe(`'${w.workspace}'`);
    expect(await w.value('__name__')).toBe("'__main__'\n");
  });

  it('answers ping with its pid and exits 0 on shutdown', async () => {
    const { w } = await startWorker();
    expect(await w.request({ type: 'ping' })).toMatchObject({ type: 'pong', pid: w.proc.pid });
    const id = w.send({ type: 'shutdown' });
    expect(await w.take((m) => m.id === id)).toEqual({ id, type: 'bye' });
    expect(await w.exited).toBe(0);
  });

  it('exits 0 when stdin closes', async () => {
    const { w } = await startWorker();
    w.proc.stdin.end();
    expect(await w.exited).toBe(0);
  });

  it('reports malformed requests and keeps going', async () => {
    const { w } = await startWorker();
    w.writeRaw('this is not json\n');
    expect(await w.take((m) => m.type === 'protocol-error')).toMatchObject({ id: null });
    w.writeRaw('[1, 2]\n');
    expect(await w.take((m) => m.type === 'protocol-error')).toMatchObject({ id: null });
    w.writeRaw('{"type":"ping"}\n');
    expect((await w.take((m) => m.type === 'protocol-error')).message).toMatch(/id/);
    expect(await w.request({ type: 'launch-missiles' })).toMatchObject({ type: 'protocol-error' });
    expect(await w.request({ type: 'exec', code: 42 })).toMatchObject({ type: 'protocol-error' });
    expect(await w.request({ type: 'exec', code: '1', max_output_bytes: -1 })).toMatchObject({
      type: 'protocol-error',
    });
    // 16 MiB + 1 byte without a newline inside: rejected without being kept, then business as usual.
    w.writeRaw('"' + 'a'.repeat(16 * 1024 * 1024) + '\n');
    const tooLong = await w.take((m) => m.type === 'protocol-error');
    expect(tooLong).toMatchObject({ id: null });
    expect(String(tooLong.message)).toMatch(/longer than/);
    expect(await w.request({ type: 'ping' })).toMatchObject({ type: 'pong' });
  });

  it('ignores SIGINT while idle', async () => {
    const { w } = await startWorker();
    // The signal is pending from kill() on, so it is handled before the worker's main thread
    // runs Python code again: by the time the ping is answered, the handler has run.
    w.proc.kill('SIGINT');
    expect(await w.request({ type: 'ping' })).toMatchObject({ type: 'pong' });
    expect(await w.exec('x = 1')).toMatchObject({ status: 'ok', error: null });
    expect(w.proc.exitCode).toBeNull();
  });
});

describe('exec', () => {
  it('keeps variables and imports between calls and echoes the last expression', async () => {
    const { w } = await startWorker();
    const first = await w.exec('x = 6 * 7\nimport math');
    expect(first).toMatchObject({ status: 'ok', stdout: '', stderr: '', error: null, outputs: [] });
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
    expect(await w.value('x')).toBe('42\n');
    expect(await w.value('math.sqrt(x + 7)')).toBe('7.0\n');
    expect(await w.value('print("a")')).toBe('a\n'); // print() returns None: not echoed
    expect(await w.value('y = [x] * 2\ny')).toBe('[42, 42]\n');
    expect(await w.value('"中文"')).toBe("'中文'\n");
    expect(await w.value('print("中文 ok")')).toBe('中文 ok\n');
    const slow = await w.exec('import time\ntime.sleep(0.2)');
    expect(slow.duration_ms).toBeGreaterThanOrEqual(190);
  });

  it('captures Python-level and fd-level stdout/stderr without touching the protocol channel', async () => {
    const { w } = await startWorker();
    const r = await w.exec(
      [
        'import os, sys, subprocess',
        'print("py-out"); print("py-err", file=sys.stderr)',
        'os.write(1, b\'{"id": 999, "type": "pong"}\\n\')', // would corrupt a naive channel
        'sys.__stdout__.write("dunder-out\\n"); sys.__stdout__.flush()',
        'os.write(2, b"fd-err\\n")',
        'done = subprocess.run(["sh", "-c", "echo sub-out; echo sub-err >&2"], check=True)',
      ].join('\n'),
    );
    expect(r.status, r.error ?? '').toBe('ok');
    // Python-level text first, then what reached the file descriptors, in write order.
    expect(r.stdout).toBe('py-out\n{"id": 999, "type": "pong"}\ndunder-out\nsub-out\n');
    expect(r.stderr).toBe('py-err\nfd-err\nsub-err\n');
    // The next call starts with empty captures.
    expect(await w.exec('pass')).toMatchObject({ stdout: '', stderr: '' });
  });

  it('gives user code /dev/null as stdin and no access to the protocol fds', async () => {
    const { w } = await startWorker();
    // Both lines are written at once: input() must not swallow the ping.
    const execId = w.send({ type: 'exec', code: 'input()' });
    const pingId = w.send({ type: 'ping' });
    const r = (await w.take((m) => m.id === execId)) as unknown as ExecResult;
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/EOFError/);
    expect(await w.take((m) => m.id === pingId)).toMatchObject({ type: 'pong' });
    const fds = await w.value(
      'import subprocess, sys\n' +
        'print(subprocess.run([sys.executable, "-c", "import os; print(sorted(int(f) for f in os.listdir(\'/proc/self/fd\')))"], capture_output=True, text=True).stdout, end="")',
    );
    expect(fds).toBe('[0, 1, 2, 3]\n'); // 3 is listdir's own directory fd
  });

  it('reports exceptions with only <cell> frames, and the right source lines', async () => {
    const { w } = await startWorker();
    await w.value('def half(n):\n    return n / 0\n');
    const r = await w.exec('import sys\nprint("before", file=sys.stderr)\nz = 1\nhalf(z)');
    expect(r.status).toBe('error');
    expect(r.stderr).toBe('before\n');
    expect(r.error).toMatch(/^Traceback \(most recent call last\):/);
    expect(r.error).toContain('File "<cell>", line 4, in <module>\n    half(z)');
    // half() came from the first cell: its line is shown from that cell, not the current one.
    expect(r.error).toContain('File "<cell>", line 2, in half\n    return n / 0');
    expect(r.error).toMatch(/ZeroDivisionError: division by zero\n$/);
    expect(r.error).not.toMatch(/worker\.py|_aivory_/);

    const syntax = await w.exec('x = (1,\nprint(x)');
    expect(syntax.status).toBe('error');
    expect(syntax.error).toMatch(/SyntaxError/);
    expect(syntax.error).not.toMatch(/worker\.py|Traceback/);

    const chained = await w.exec(
      'try:\n    {}["k"]\nexcept KeyError as e:\n    raise ValueError("bad") from e',
    );
    expect(chained.error).toMatch(/KeyError: 'k'[\s\S]*direct cause[\s\S]*ValueError: bad/);
    expect(chained.error).not.toMatch(/worker\.py/);
  });

  it('turns exit() and sys.exit() into errors and keeps the session', async () => {
    const { w } = await startWorker();
    await w.value('kept = "yes"');
    for (const code of ['import sys\nsys.exit(3)', 'exit()', 'raise SystemExit("bye")']) {
      const r = await w.exec(code);
      expect(r.status).toBe('error');
      expect(r.error).toMatch(/^SystemExit/);
    }
    expect(await w.value('kept')).toBe("'yes'\n");
    expect(await w.request({ type: 'ping' })).toMatchObject({ type: 'pong' });
  });

  it('is interrupted by SIGINT during a call and keeps its globals', async () => {
    const { w } = await startWorker();
    const id = w.send({
      type: 'exec',
      code: 'n = 0\nwhile True:\n    n += 1\n    if n == 1000:\n        open("looping", "w").close()',
    });
    await untilMarker(w, 'looping');
    w.proc.kill('SIGINT');
    const r = (await w.take((m) => m.id === id)) as unknown as ExecResult;
    expect(r).toMatchObject({ status: 'interrupted', error: 'KeyboardInterrupt' });
    expect(await w.value('n >= 1000')).toBe('True\n');
    // A sleeping call is interrupted too (the signal wakes the sleep): the cell ends long before
    // its 300 s sleep would have.
    const sleepId = w.send({
      type: 'exec',
      code: 'import time\nopen("sleeping", "w").close()\ntime.sleep(300)',
    });
    await untilMarker(w, 'sleeping');
    w.proc.kill('SIGINT');
    const slept = (await w.take((m) => m.id === sleepId)) as unknown as ExecResult;
    expect(slept).toMatchObject({ status: 'interrupted', error: 'KeyboardInterrupt' });
    expect(slept.duration_ms).toBeLessThan(300_000);
  });

  it('answers control requests while a cell runs: interrupt, reap-strays, terminate', async () => {
    const { w } = await startWorker();
    const runId = w.send({
      type: 'exec',
      code: "import subprocess, time\nchild = subprocess.Popen(['sleep', '300'])\nopen('started', 'w').close()\ntime.sleep(300)",
    });
    await untilMarker(w, 'started');
    const interruptId = w.send({ type: 'interrupt' });
    expect(await w.take((m) => m.id === interruptId)).toMatchObject({
      type: 'interrupt-ack',
      delivered: true,
    });
    expect(await w.take((m) => m.id === runId)).toMatchObject({ status: 'interrupted' });
    const childPid = Number((await w.value('child.pid')).trim());
    expect(() => process.kill(childPid, 0)).not.toThrow();
    // Counted once, even when the child is still dying when the worker looks again.
    const reapId = w.send({ type: 'reap-strays' });
    expect(await w.take((m) => m.id === reapId)).toMatchObject({
      type: 'strays-reaped',
      count: 1,
    });
    expect(() => process.kill(childPid, 0)).toThrow();
    // Idle: an interrupt is not delivered (it would hit the next cell otherwise).
    const idleId = w.send({ type: 'interrupt' });
    expect(await w.take((m) => m.id === idleId)).toMatchObject({ delivered: false });
    // Code that ignores SIGINT still stops on terminate.
    w.send({
      type: 'exec',
      code: 'import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nopen("deaf", "w").close()\nwhile True:\n    pass',
    });
    await untilMarker(w, 'deaf');
    const exited = new Promise((resolve) => w.proc.on('exit', (_code, signal) => resolve(signal)));
    const terminateId = w.send({ type: 'terminate' });
    expect(await w.take((m) => m.id === terminateId)).toMatchObject({ type: 'terminating' });
    expect(await exited).toBe('SIGKILL');
  });
});

describe('memory limit', () => {
  const MIB = 1024 * 1024;

  it('caps its data segment below --memory-limit: a bomb is a MemoryError, variables survive', async () => {
    const { w, ready } = await startWorker({}, undefined, [`--memory-limit=${1024 * MIB}`]);
    // 1 GiB - 192 MiB - 1/8 of 1 GiB.
    expect(ready.memory_rlimit).toBe(704 * MIB);
    expect(await w.value('import resource\nresource.getrlimit(resource.RLIMIT_DATA)')).toBe(
      `(${704 * MIB}, ${704 * MIB})\n`,
    );
    await w.value('x = 41');
    const bomb = await w.exec('blob = b"x" * (6 * 1024**3)');
    expect(bomb.status).toBe('error');
    expect(bomb.error).toMatch(/^Traceback[\s\S]*\nMemoryError\n/);
    expect(bomb.error).toContain(
      "This session's memory limit is 1 GiB; Python may use about 0.69 GiB of it.",
    );
    // Subprocesses inherit the cap; user code cannot lift it.
    expect(
      await w.value(
        'import subprocess, sys\nprint(subprocess.run([sys.executable, "-c", "import resource; print(resource.getrlimit(resource.RLIMIT_DATA)[0])"], capture_output=True, text=True).stdout.strip())',
      ),
    ).toBe(`${704 * MIB}\n`);
    const lift = await w.exec('resource.setrlimit(resource.RLIMIT_DATA, (2**40, 2**40))');
    expect(lift.error).toMatch(/ValueError/);
    expect(await w.value('print(x + 1)')).toBe('42\n');
  });

  it('sets no cap when the limit leaves too little room for Python', async () => {
    const { w, ready } = await startWorker({}, undefined, [`--memory-limit=${256 * MIB}`]);
    expect(ready.memory_rlimit).toBeNull();
    const bomb = await w.exec('raise MemoryError');
    expect(bomb.error).not.toContain('memory limit');
  });
});

describe('output caps', () => {
  it('keeps head and tail of each stream and counts the rest exactly', async () => {
    const { w } = await startWorker();
    const r = await w.exec('for i in range(200_000):\n    print("x" * 100)', {
      max_output_bytes: 1000,
    });
    expect(r.status).toBe('ok');
    const total = 200_000 * 101;
    expect(r.stdout_truncated_bytes).toBe(total - 1000);
    const [head, tail] = r.stdout.split(`\n[… ${total - 1000} bytes of output omitted …]\n`);
    expect(head).toHaveLength(500);
    expect(tail).toHaveLength(500);
    expect(tail!.endsWith('x\n')).toBe(true);
    expect(r.stderr_truncated_bytes).toBe(0);

    // Python-level and fd-level output share one budget per stream.
    const mixed = await w.exec(
      'import os, sys\nprint("A" * 600)\nos.write(1, b"B" * 600)\n_ = sys.stderr.write("e" * 10)',
      { max_output_bytes: 1000 },
    );
    expect(mixed.stdout).toBe(
      'A'.repeat(500) + '\n[… 201 bytes of output omitted …]\n' + 'B'.repeat(500),
    );
    expect(mixed.stdout_truncated_bytes).toBe(201);
    expect(mixed.stderr).toBe('e'.repeat(10));

    // fd-level output is read from the file's head and tail only.
    const big = await w.exec('import os\nos.write(2, b"h" + b"." * 10_000_000 + b"t")', {
      max_output_bytes: 64,
    });
    expect(big.stderr).toBe(
      'h' +
        '.'.repeat(31) +
        `\n[… ${10_000_002 - 64} bytes of output omitted …]\n` +
        '.'.repeat(31) +
        't',
    );
    expect(big.stderr_truncated_bytes).toBe(10_000_002 - 64);

    // Cuts fall on character boundaries: no U+FFFD next to the marker.
    const cjk = await w.exec('print("中" * 1000)', { max_output_bytes: 1001 });
    expect(cjk.stdout).not.toContain('\uFFFD');
    expect(cjk.stdout.startsWith('中'.repeat(166))).toBe(true);
    expect(cjk.stdout_truncated_bytes).toBe(3001 - 166 * 3 - 166 * 3 - 1);

    // The default budget is 64 KiB per stream.
    const dflt = await w.exec('print("z" * 100_000, end="")');
    expect(dflt.stdout_truncated_bytes).toBe(100_000 - 65536);
  });

  it('stays bounded in memory under an endless print loop', async () => {
    const { w } = await startWorker();
    await w.value('big = "x" * 1000');
    const before = w.rssKb();
    // 50 MB printed before the marker: an unbounded buffer would have grown past the limit below.
    const id = w.send({
      type: 'exec',
      code: 'i = 0\nwhile True:\n    print(big)\n    i += 1\n    if i == 50_000:\n        open("flooded", "w").close()',
    });
    await untilMarker(w, 'flooded');
    const during = w.rssKb();
    w.proc.kill('SIGINT');
    const r = (await w.take((m) => m.id === id)) as unknown as ExecResult;
    expect(r.status).toBe('interrupted');
    expect(r.stdout_truncated_bytes).toBeGreaterThan(40_000_000); // it really printed a lot
    expect(r.stdout.length).toBeLessThan(66_000);
    expect(during - before).toBeLessThan(20_000); // KiB
  });
});

describe('outputs', () => {
  it('lists new and changed regular files under outputs/, not symlinks or other dirs', async () => {
    const { w } = await startWorker();
    const first = await w.exec(
      [
        'import os',
        'open("outputs/report.txt", "w").write("hello")',
        'os.makedirs("outputs/sub", exist_ok=True)',
        'open("outputs/sub/data.csv", "w").write("a,b\\n1,2\\n")',
        'open("outputs/table.xlsx", "wb").write(b"PK")',
        'open("outputs/blob.zzz", "wb").write(b"?")',
        'open("scratch.txt", "w").write("not an output")',
        'os.symlink("/etc/hostname", "outputs/link")',
      ].join('\n'),
    );
    expect(first.status, first.error ?? '').toBe('ok');
    expect(first.outputs).toEqual([
      { path: 'outputs/blob.zzz', size: 1, mime: 'application/octet-stream' },
      { path: 'outputs/report.txt', size: 5, mime: 'text/plain' },
      { path: 'outputs/sub/data.csv', size: 8, mime: 'text/csv' },
      {
        path: 'outputs/table.xlsx',
        size: 2,
        mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    ]);
    // Unchanged files are not listed again; rewritten ones are.
    const second = await w.exec('open("outputs/report.txt", "w").write("hello, world")');
    expect(second.outputs).toEqual([{ path: 'outputs/report.txt', size: 12, mime: 'text/plain' }]);
    expect((await w.exec('pass')).outputs).toEqual([]);
  });

  it('caps the list at 200 entries', async () => {
    const { w } = await startWorker();
    const r = await w.exec(
      'for i in range(250):\n    open(f"outputs/f{i:03}.txt", "w").write("x")',
    );
    expect(r.outputs).toHaveLength(200);
    expect(r.outputs[0]!.path).toBe('outputs/f000.txt');
  });
});

/** A stand-in matplotlib: enough pyplot API for the worker's figure handling. */
function fakeMatplotlib(): string {
  const root = tempDir('aivory-fakempl-');
  mkdirSync(join(root, 'matplotlib'));
  writeFileSync(join(root, 'matplotlib', '__init__.py'), '__version__ = "0.fake"\n');
  writeFileSync(
    join(root, 'matplotlib', 'pyplot.py'),
    `import json, os
_figs = {}
_next = [1]
class Figure:
    def __init__(self, num):
        self.number = num
        self.label = ""
    def savefig(self, f, **kwargs):
        data = b"\\x89PNG\\r\\n\\x1a\\n" + json.dumps({"label": self.label, "kwargs": kwargs, "backend": os.environ.get("MPLBACKEND")}).encode()
        if isinstance(f, (str, os.PathLike)):
            with open(f, "wb") as out:
                out.write(data)
        else:
            f.write(data)
def savefig(*args, **kwargs):
    return list(_figs.values())[-1].savefig(*args, **kwargs)
def figure(num=None):
    if num is None:
        num = _next[0]
        _next[0] += 1
    return _figs.setdefault(num, Figure(num))
def title(text):
    list(_figs.values())[-1].label = text
def get_fignums():
    return sorted(_figs)
def close(fig):
    _figs.pop(fig.number, None)
def show(*args, **kwargs):
    raise AssertionError("the worker should have replaced show()")
`,
  );
  return root;
}

describe('matplotlib figures', () => {
  it('saves figures on plt.show() and at the end of a call, never overwriting files', async () => {
    const workspace = tempDir('aivory-ws-');
    mkdirSync(join(workspace, 'outputs'));
    writeFileSync(join(workspace, 'outputs', 'figure-2.png'), 'user file');
    const { w } = await startWorker({ PYTHONPATH: fakeMatplotlib() }, workspace);

    // The worker must not import matplotlib on its own.
    expect(
      await w.value(
        'import sys\n"matplotlib.pyplot" in sys.modules or "matplotlib" in sys.modules',
      ),
    ).toBe('False\n');

    const r = await w.exec(
      [
        'import matplotlib.pyplot as plt',
        'plt.figure(); plt.title("shown")',
        'plt.show()',
        'plt.figure(); plt.title("left open A")',
        'plt.figure(); plt.title("left open B")',
      ].join('\n'),
    );
    expect(r.status, r.error ?? '').toBe('ok');
    expect(r.outputs.map((o) => o.path)).toEqual([
      'outputs/figure-1.png',
      'outputs/figure-3.png',
      'outputs/figure-4.png',
    ]);
    expect(r.outputs.every((o) => o.mime === 'image/png' && o.size > 8)).toBe(true);
    const read = (n: number) =>
      JSON.parse(
        readFileSync(join(workspace, 'outputs', `figure-${n}.png`))
          .subarray(8)
          .toString(),
      );
    expect(read(1)).toEqual({
      label: 'shown',
      kwargs: { format: 'png', dpi: 100, bbox_inches: 'tight' },
      backend: 'Agg',
    });
    expect(read(3).label).toBe('left open A');
    expect(read(4).label).toBe('left open B');
    expect(readFileSync(join(workspace, 'outputs', 'figure-2.png'), 'utf8')).toBe('user file');
    expect(await w.value('plt.get_fignums()')).toBe('[]\n');

    // `from … import show` after the import gets the patched function too; the counter goes on,
    // and figures are saved even when the cell fails afterwards.
    const failing = await w.exec(
      'from matplotlib.pyplot import show, figure\nfigure()\nshow()\nfigure()\n1/0',
    );
    expect(failing.status).toBe('error');
    expect(failing.outputs.map((o) => o.path)).toEqual([
      'outputs/figure-5.png',
      'outputs/figure-6.png',
    ]);
  });

  it('does not attach a figure again that the code saved to a file with savefig', async () => {
    const workspace = tempDir('aivory-ws-');
    mkdirSync(join(workspace, 'outputs'));
    const { w } = await startWorker({ PYTHONPATH: fakeMatplotlib() }, workspace);
    const r = await w.exec(
      [
        'import io, matplotlib.pyplot as plt',
        'plt.figure(); plt.title("signals"); plt.savefig("outputs/signals.png")',
        'plt.figure(); plt.title("to a buffer"); plt.savefig(io.BytesIO())',
        'fig = plt.figure(); plt.title("elsewhere"); fig.savefig("chart.png")',
        'plt.figure(); plt.title("never saved")',
      ].join('\n'),
    );
    expect(r.status, r.error ?? '').toBe('ok');
    // signals.png once (not also as figure-<n>.png); a buffer is no file, so that one is saved.
    expect(r.outputs.map((o) => o.path)).toEqual([
      'outputs/figure-1.png',
      'outputs/figure-2.png',
      'outputs/signals.png',
    ]);
    const label = (name: string) =>
      JSON.parse(
        readFileSync(join(workspace, 'outputs', name))
          .subarray(8)
          .toString(),
      ).label;
    expect(label('figure-1.png')).toBe('to a buffer');
    expect(label('figure-2.png')).toBe('never saved');
    expect(await w.value('plt.get_fignums()')).toBe('[]\n');

    // plt.show() after savefig: the figure is closed, not saved again.
    const shown = await w.exec(
      'fig = plt.figure(); plt.title("shown"); fig.savefig("outputs/shown.png"); plt.show()',
    );
    expect(shown.outputs.map((o) => o.path)).toEqual(['outputs/shown.png']);
  });
});
