/**
 * The whole sidecar as a user meets it: `aivory sandbox serve` in a child process, driven over
 * HTTP exactly like the seed's manual probe (curl /healthz, /sessions, /exec), then files,
 * interrupt, shutdown with archiving, and restore in a second run.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { requireDockerAndImage } from './support/docker-fixture';

const BIN = fileURLToPath(new URL('../../bin/aivory.js', import.meta.url));
const KEY = 'test-sandbox-key-0123456789';

interface Sidecar {
  child: ChildProcess;
  url: string;
  output: () => string;
}

async function startServe(archiveDir: string): Promise<Sidecar> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0'], {
    env: {
      ...process.env,
      SANDBOX_API_KEY: KEY,
      SANDBOX_ARCHIVE_DIR: archiveDir,
      SANDBOX_WARM_POOL: '1',
      SANDBOX_MEMORY: '512m',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sidecar did not start:\n${output}`)), 30_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', () => reject(new Error(`sidecar exited:\n${output}`)));
  });
  return { child, url, output: () => output };
}

async function stop(sidecar: Sidecar): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) =>
    sidecar.child.on('exit', (code) => resolve(code)),
  );
  sidecar.child.kill('SIGTERM');
  return exited;
}

function api(sidecar: Sidecar, key = KEY) {
  return async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${sidecar.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  };
}

describe('aivory sandbox serve (the seed manual probe, end to end)', () => {
  const archiveDir = mkdtempSync(join(tmpdir(), 'aivory-sidecar-'));
  const running: Sidecar[] = [];
  afterAll(async () => {
    for (const sidecar of running) if (sidecar.child.exitCode === null) await stop(sidecar);
  }, 60_000);

  it('serves the contract, archives on shutdown and restores on the next run', async () => {
    requireDockerAndImage();
    const first = await startServe(archiveDir);
    running.push(first);
    const call = api(first);

    expect((await api(first, 'wrong-key-wrong-key-wrong')('GET', '/healthz')).status).toBe(401);
    const health = await call('GET', '/healthz');
    expect(health.json).toMatchObject({ ok: true, docker: true, image: 'aivory-runner:latest' });

    const session = await call('POST', '/sessions', { conversation_id: 'conv-e2e' });
    expect(session.status).toBe(201);
    const sessionId = String(session.json.session_id);

    const exec = await call('POST', '/exec', { session_id: sessionId, code: 'print(6*7)' });
    expect(exec.json).toMatchObject({ status: 'ok', stdout: '42\n', error: null });

    const upload = await fetch(`${first.url}/sessions/${sessionId}/files?name=data.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: 'a,b\n1,2\n',
    });
    expect(upload.status).toBe(201);
    const fetched = await fetch(
      `${first.url}/sessions/${sessionId}/files?name=img.bin&dir=downloads`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}` },
        body: new Uint8Array([1, 2, 3]),
      },
    );
    expect(await fetched.json()).toMatchObject({ path: 'downloads/img.bin', size: 3 });
    const badDirectory = await fetch(`${first.url}/sessions/${sessionId}/files?name=x&dir=../etc`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: 'x',
    });
    expect(badDirectory.status).toBe(400);
    const readBack = await call('POST', '/exec', {
      session_id: sessionId,
      code: "import os, pandas as pd\nassert os.path.getsize('downloads/img.bin') == 3\ndf = pd.read_csv('uploads/data.csv')\ndf.to_csv('outputs/sum.csv', index=False)\nprint(int(df.a.sum() + df.b.sum()))",
    });
    expect(readBack.json).toMatchObject({ status: 'ok', stdout: '3\n' });
    expect(readBack.json.outputs).toEqual([{ path: 'outputs/sum.csv', size: 8, mime: 'text/csv' }]);

    const listing = await call('GET', `/sessions/${sessionId}/files?path=outputs`);
    expect(listing.json.entries).toMatchObject([
      { path: 'outputs/sum.csv', type: 'file', size: 8 },
    ]);
    const download = await fetch(`${first.url}/sessions/${sessionId}/files?path=outputs/sum.csv`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(await download.text()).toBe('a,b\n1,2\n');
    const escape = await fetch(`${first.url}/sessions/${sessionId}/files?path=../etc/passwd`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(escape.status).toBe(400);
    const symlink = await call('POST', '/exec', {
      session_id: sessionId,
      code: "import os\nos.symlink('/etc/passwd', 'outputs/link')",
    });
    expect(symlink.json.status).toBe('ok');
    expect(
      (
        await fetch(`${first.url}/sessions/${sessionId}/files?path=outputs/link`, {
          headers: { authorization: `Bearer ${KEY}` },
        })
      ).status,
    ).toBe(404);

    const slow = call('POST', '/exec', {
      session_id: sessionId,
      code: "import time\nopen('sleep-started', 'w').close()\ntime.sleep(300)",
    });
    // Interrupt once the cell is running (it writes a marker), not after a guessed delay.
    while ((await call('GET', `/sessions/${sessionId}/files?path=sleep-started`)).status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await call('POST', `/sessions/${sessionId}/interrupt`)).json).toEqual({
      interrupted: true,
    });
    const interrupted = await slow;
    expect(interrupted.json.status).toBe('error');
    expect(String(interrupted.json.error)).toContain('KeyboardInterrupt');

    expect(await stop(first)).toBe(0);

    const second = await startServe(archiveDir);
    running.push(second);
    const again = await api(second)('POST', '/sessions', { conversation_id: 'conv-e2e' });
    expect(again.json).toMatchObject({ restored: true, created: true });
    const restored = await api(second)('POST', '/exec', {
      session_id: String(again.json.session_id),
      code: "print(open('outputs/sum.csv').read(), 'df' in globals())",
    });
    expect(restored.json).toMatchObject({ status: 'ok', stdout: 'a,b\n1,2\n False\n' });
    const removed = await api(second)('DELETE', `/sessions/${String(again.json.session_id)}`);
    expect(removed.status).toBe(204);
    expect(await stop(second)).toBe(0);
  }, 120_000);
});
