/**
 * The runner image (aivory-runner:latest, built by sandbox/scripts/build-image.sh or
 * sandbox/Dockerfile.runner). Needs a reachable dockerd and the image: when either is missing
 * these tests FAIL with instructions, they never skip.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const IMAGE = process.env.AIVORY_RUNNER_IMAGE ?? 'aivory-runner:latest';
const RUNNER_DIR = resolve(fileURLToPath(import.meta.url), '../../runner');
// The hardening the sidecar applies matters here too: the image must work read-only, offline,
// with tmpfs /tmp and /workspace.
const RUN = [
  'run',
  '--rm',
  '-i',
  '--network',
  'none',
  '--read-only',
  '--tmpfs',
  '/tmp',
  '--tmpfs',
  '/workspace:uid=1000,gid=1000',
  IMAGE,
];

function docker(args: string[], input?: string, timeout = 60_000) {
  const r = spawnSync('docker', args, { input, timeout, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}

function runPython(script: string): Record<string, unknown> {
  const r = docker([...RUN, 'python3', '-c', script]);
  expect(r.status, `python in ${IMAGE} failed:\n${r.stderr}`).toBe(0);
  const lastLine = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(lastLine) as Record<string, unknown>;
}

/**
 * Checked inside every test, not in beforeAll: a failing beforeAll makes vitest report the
 * tests as skipped, and a missing daemon or image must show up as failures.
 */
let precondition: string | null | undefined;
function requireDockerAndImage(): void {
  if (precondition === undefined) {
    const version = spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const image = spawnSync('docker', ['image', 'inspect', IMAGE], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (version.error || version.status !== 0) {
      precondition =
        'runner-image tests need a reachable Docker daemon (start one: `dockerd &`); ' +
        `docker version said: ${version.error?.message ?? version.stderr.trim()}`;
    } else if (image.status !== 0) {
      precondition =
        `runner image ${IMAGE} is missing: build it with \`bash sandbox/scripts/build-image.sh\` ` +
        '(offline, Debian packages) or `docker build -f sandbox/Dockerfile.runner -t aivory-runner:latest sandbox/runner`';
    } else {
      precondition = null;
    }
  }
  if (precondition) throw new Error(precondition);
}

describe('runner image', () => {
  it('carries the runtime contract in its config', () => {
    requireDockerAndImage();
    const r = docker(['image', 'inspect', IMAGE, '--format', '{{json .Config}}']);
    const config = JSON.parse(r.stdout) as {
      User: string;
      WorkingDir: string;
      Env: string[];
      Cmd: string[];
      Labels: Record<string, string>;
    };
    expect(config.User).toBe('1000:1000');
    expect(config.WorkingDir).toBe('/workspace');
    expect(config.Cmd).toEqual(['sleep', 'infinity']);
    expect(config.Labels['org.aivory.runner.protocol']).toBe('1');
    expect(config.Env).toEqual(
      expect.arrayContaining([
        'MPLBACKEND=Agg',
        'HOME=/workspace',
        'MPLCONFIGDIR=/tmp/matplotlib',
        'PYTHONUNBUFFERED=1',
        'PYTHONDONTWRITEBYTECODE=1',
        'LANG=C.UTF-8',
        'MATPLOTLIBRC=/opt/aivory/matplotlibrc',
      ]),
    );
  });

  it('holds the current sandbox/runner files at /opt/aivory', () => {
    requireDockerAndImage();
    const names = readdirSync(RUNNER_DIR)
      .filter((name) => name.endsWith('.py') || name === 'matplotlibrc')
      .sort();
    expect(names).toContain('worker.py');
    const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    const local = Object.fromEntries(
      names.map((name) => [name, sha(readFileSync(join(RUNNER_DIR, name)))]),
    );
    const inImage = runPython(`
import hashlib, json
names = ${JSON.stringify(names)}
print(json.dumps({n: hashlib.sha256(open("/opt/aivory/" + n, "rb").read()).hexdigest() for n in names}))
`);
    expect(
      inImage,
      `${IMAGE} was built from other runner files: rebuild it (bash sandbox/scripts/build-image.sh)`,
    ).toEqual(local);
  });

  it('runs as uid 1000, imports the Python stack offline and renders CJK text', () => {
    requireDockerAndImage();
    const info = runPython(`
import json, os, importlib, warnings
import shutil
out = {"uid": os.getuid(), "gid": os.getgid(), "home": os.environ.get("HOME"), "cwd": os.getcwd()}
out["kill"] = shutil.which("kill")  # the sidecar interrupts the worker with kill -INT
out["imports"] = {}
for name in ["numpy", "pandas", "matplotlib", "docx", "openpyxl", "xlsxwriter", "pypdf", "PIL", "bs4", "weasyprint"]:
    try:
        importlib.import_module(name)
        out["imports"][name] = "ok"
    except Exception as exc:
        out["imports"][name] = repr(exc)
import matplotlib
import matplotlib.pyplot as plt
from matplotlib import font_manager as fm
out["backend"] = matplotlib.get_backend()
out["cjk_fonts"] = sorted({f.name for f in fm.fontManager.ttflist if "CJK" in f.name})
out["sans_font"] = fm.findfont(fm.FontProperties(family=["sans-serif"]), fallback_to_default=False)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fig = plt.figure()
    fig.text(0.1, 0.5, "销售额 2024 年")
    fig.canvas.draw()
out["glyph_warnings"] = [str(w.message) for w in caught if "missing" in str(w.message)]
import weasyprint
pdf = weasyprint.HTML(string="<p style='font-family: sans-serif'>中文报告</p>").write_pdf()
out["pdf_head"] = pdf[:5].decode("latin-1")
out["pdf_cjk_font"] = b"CJK" in pdf
print(json.dumps(out))
`);
    expect(info).toMatchObject({ uid: 1000, gid: 1000, home: '/workspace', cwd: '/workspace' });
    expect(info.kill).toMatch(/\/kill$/);
    expect(info.imports).toEqual({
      numpy: 'ok',
      pandas: 'ok',
      matplotlib: 'ok',
      docx: 'ok',
      openpyxl: 'ok',
      xlsxwriter: 'ok',
      pypdf: 'ok',
      PIL: 'ok',
      bs4: 'ok',
      weasyprint: 'ok',
    });
    expect(String(info.backend).toLowerCase()).toBe('agg');
    expect((info.cjk_fonts as string[]).some((name) => name.startsWith('Noto Sans CJK'))).toBe(
      true,
    );
    expect(info.sans_font).toMatch(/NotoSansCJK/);
    expect(info.glyph_warnings).toEqual([]);
    expect(info.pdf_head).toBe('%PDF-');
    expect(info.pdf_cjk_font).toBe(true);
  });

  it('attaches a figure saved with savefig once, and still saves figures never saved', () => {
    requireDockerAndImage();
    const code = [
      'import matplotlib.pyplot as plt',
      'plt.plot([1, 2, 3], [3, 1, 2]); plt.title("signals")',
      'plt.savefig("outputs/signals.png")',
      'fig, ax = plt.subplots(); ax.plot([1, 2]); fig.savefig("outputs/axes.png"); plt.show()',
      'plt.figure(); plt.plot([2, 1])',
    ].join('\n');
    const requests = [
      { id: 1, type: 'exec', code },
      { id: 2, type: 'shutdown' },
    ];
    const r = docker(
      [...RUN, 'python3', '/opt/aivory/worker.py'],
      requests.map((req) => JSON.stringify(req) + '\n').join(''),
    );
    expect(r.status, r.stderr).toBe(0);
    const result = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((message) => message.id === 1);
    expect(result).toMatchObject({ status: 'ok', stderr: '', error: null });
    const outputs = (result?.outputs ?? []) as { path: string }[];
    expect(outputs.map((output) => output.path)).toEqual([
      'outputs/axes.png',
      'outputs/figure-1.png',
      'outputs/signals.png',
    ]);
  });

  it('runs the worker: ready, ping, a real matplotlib figure, shutdown', () => {
    requireDockerAndImage();
    const plot = [
      'import matplotlib.pyplot as plt',
      'plt.plot([1, 2, 3], [3, 1, 2])',
      'plt.title("季度销售额")',
    ].join('\n');
    const requests = [
      { id: 1, type: 'ping' },
      { id: 2, type: 'exec', code: plot },
      { id: 3, type: 'exec', code: 'open("outputs/figure-1.png", "rb").read(8)' },
      { id: 4, type: 'shutdown' },
    ];
    const r = docker(
      [...RUN, 'python3', '/opt/aivory/worker.py'],
      requests.map((req) => JSON.stringify(req) + '\n').join(''),
    );
    expect(r.status, r.stderr).toBe(0);
    const messages = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.map((m) => m.type)).toEqual(['ready', 'pong', 'result', 'result', 'bye']);
    const [ready, pong, plotted, header] = messages as [
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ];
    expect(ready).toMatchObject({ protocol: 1, python: expect.stringMatching(/^3\.1[1-9]\.\d+$/) });
    const modules = ready.modules as Record<string, boolean>;
    // python-pptx has no Debian package: the offline build reports it missing, pip images have it.
    const { pptx, ...rest } = modules;
    expect(typeof pptx).toBe('boolean');
    expect(Object.values(rest).every(Boolean), JSON.stringify(modules)).toBe(true);
    expect(Object.keys(rest)).toHaveLength(10);
    expect(pong).toMatchObject({ id: 1, pid: ready.pid });
    expect(plotted).toMatchObject({ id: 2, status: 'ok', stderr: '', error: null });
    const outputs = plotted.outputs as { path: string; size: number; mime: string }[];
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({ path: 'outputs/figure-1.png', mime: 'image/png' });
    expect(outputs[0]!.size).toBeGreaterThan(5_000);
    expect(header).toMatchObject({ id: 3, status: 'ok', stdout: "b'\\x89PNG\\r\\n\\x1a\\n'\n" });
  });
});
