/**
 * WorkspaceArchiver on real Docker (runner image, session containers from the real template) and
 * a real LocalArchiveStore: the compressor is chosen by measurement (zstd for what compresses,
 * plain tar for what does not), every byte comes back, archives written by the old gzip code
 * still restore, and a tar that dies mid-stream never replaces the archive already stored.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { constants as zlibConstants, createGzip, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalArchiveStore } from '../src/archive-store';
import type { ContainerLimits } from '../src/container-template';
import { DockerRuntime } from '../src/docker-runtime';
import { TransferPipes } from '../src/transfer-pipes';
import { formatOf, WorkspaceArchiver } from '../src/workspace-archiver';
import {
  containerStarter,
  DOCKER_SOCKET,
  requireDockerAndImage,
  RUNNER_IMAGE,
} from './support/docker-fixture';

const LIMITS: ContainerLimits = {
  image: RUNNER_IMAGE,
  memoryBytes: 512 * 1024 * 1024,
  cpus: 1,
  pidsLimit: 64,
  workspaceBytes: 256 * 1024 * 1024,
  tmpBytes: 32 * 1024 * 1024,
  readOnlyRootfs: true,
};

/** Prints `path size sha256` for every file under /workspace, sorted: the workspace's content. */
const LISTING = `import hashlib, os
rows = []
for root, _dirs, files in os.walk('/workspace'):
    for name in files:
        path = os.path.join(root, name)
        with open(path, 'rb') as handle:
            data = handle.read()
        rows.append(f'{os.path.relpath(path, "/workspace")} {len(data)} {hashlib.sha256(data).hexdigest()}')
print('\\n'.join(sorted(rows)))`;

describe('workspace archiver', () => {
  const runtime = new DockerRuntime(DOCKER_SOCKET);
  const directory = mkdtempSync(join(tmpdir(), 'aivory-archiver-'));
  const archives = new LocalArchiveStore(directory);
  const archiver = new WorkspaceArchiver(runtime, archives);
  const containers = containerStarter(runtime, 'arch', LIMITS);
  const container = containers.start;

  beforeAll(() => requireDockerAndImage());
  afterAll(() => containers.removeAll(), 60_000);

  async function python(containerId: string, code: string): Promise<string> {
    const result = await runtime.run(containerId, ['python3', '-c', code]);
    expect(result.stderr.toString('utf8')).toBe('');
    expect(result.exitCode).toBe(0);
    return result.stdout.toString('utf8');
  }

  /** The stored archive's bytes (the store names files after the id's sha256). */
  function stored(conversationId: string): Buffer {
    const digest = createHash('sha256').update(conversationId).digest('hex');
    return readFileSync(join(directory, `${digest}.tar.gz`));
  }

  const isPlainTar = (bytes: Buffer) => bytes.subarray(257, 262).toString('latin1') === 'ustar';

  it('round-trips a mixed workspace; text is stored as zstd, far smaller', async () => {
    const source = await container();
    await python(
      source,
      `import os
os.makedirs('/workspace/src/deep', exist_ok=True)
for index in range(40):
    with open(f'/workspace/src/module_{index}.py', 'w') as handle:
        handle.write(''.join(f'def function_{index}_{line}(value):\\n    return value * {line}\\n' for line in range(2000)))
open('/workspace/src/deep/random.bin', 'wb').write(os.urandom(3_000_000))
open('/workspace/src/deep/empty.txt', 'w').close()
open('/workspace/notes.md', 'w').write('# notes\\nunicode: é 漢字\\n')`,
    );
    const before = await python(source, LISTING);
    const size = await archiver.archive(source, 'conv-mixed');
    const bytes = stored('conv-mixed');
    expect(size).toBe(bytes.length);
    expect(formatOf(bytes)).toBe('zstd');
    // ~4 MiB of Python source + 3 MB of random bytes: the text shrinks, the random part cannot.
    expect(size).toBeLessThan(4_500_000);

    const target = await container();
    expect(await archiver.restore(target, 'conv-mixed')).toEqual({ restored: true });
    expect(await python(target, LISTING)).toBe(before);
    expect(before).toContain('src/deep/empty.txt 0 ');
  }, 120_000);

  it('stores already-compressed data as plain tar, not compressed again, and restores it', async () => {
    const source = await container();
    await python(
      source,
      `import gzip, os
os.makedirs('/workspace/data', exist_ok=True)
for index in range(8):
    open(f'/workspace/data/photo_{index}.jpg', 'wb').write(os.urandom(1_000_000))
open('/workspace/data/log.gz', 'wb').write(gzip.compress(os.urandom(500_000)))`,
    );
    const before = await python(source, LISTING);
    const size = await archiver.archive(source, 'conv-compressed');
    const bytes = stored('conv-compressed');
    expect(formatOf(bytes)).toBe('tar');
    expect(isPlainTar(bytes)).toBe(true);
    expect(size).toBeGreaterThanOrEqual(8_500_000);
    // Plain tar is the data plus headers, padded to tar's record of 1 MiB (-b 2048).
    expect(size % (1024 * 1024)).toBe(0);
    expect(size).toBeLessThan(8_500_000 + 1024 * 1024 + 64 * 1024);

    const target = await container();
    expect(await archiver.restore(target, 'conv-compressed')).toEqual({ restored: true });
    expect(await python(target, LISTING)).toBe(before);
  }, 120_000);

  it('restores an archive written by the old code (tar | gzip, Huffman only)', async () => {
    const hostDir = mkdtempSync(join(tmpdir(), 'aivory-old-archive-'));
    mkdirSync(join(hostDir, 'outputs'));
    writeFileSync(join(hostDir, 'outputs', 'report.txt'), 'written before zstd\n'.repeat(1000));
    writeFileSync(join(hostDir, 'keep.py'), 'print("hello")\n');
    const tar = execFileSync('tar', ['-c', '-C', hostDir, '.']);
    const gzip = createGzip({ level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY });
    await archives.put('conv-old', Readable.from([tar]).pipe(gzip));
    expect(formatOf(stored('conv-old'))).toBe('gzip');

    const target = await container();
    expect(await archiver.restore(target, 'conv-old')).toEqual({ restored: true });
    expect(
      await python(
        target,
        "print(open('/workspace/outputs/report.txt').read().count('zstd'), open('/workspace/keep.py').read(), end='')",
      ),
    ).toBe('1000 print("hello")\n');
  }, 60_000);

  it('a tar killed mid-stream fails the archive and leaves the stored one intact', async () => {
    const source = await container();
    await python(source, "open('/workspace/version.txt', 'w').write('first')");
    await archiver.archive(source, 'conv-crash');
    const good = stored('conv-crash');

    // 96 MiB that does not compress, so tar is still streaming when it is killed; a watcher in
    // the container kills tar once it has read 8 MiB (an event it waits for, not a delay).
    await python(
      source,
      `import os
open('/workspace/version.txt', 'w').write('second')
for index in range(96):
    open(f'/workspace/big_{index}.bin', 'wb').write(os.urandom(1 << 20))`,
    );
    const killer = runtime.run(source, [
      'python3',
      '-c',
      `import os, signal
while True:
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            if open(f'/proc/{pid}/comm').read().strip() != 'tar':
                continue
            io = dict(line.split(': ') for line in open(f'/proc/{pid}/io').read().splitlines())
            if int(io['rchar']) > 8 << 20:
                os.kill(int(pid), signal.SIGKILL)
                raise SystemExit(0)
        except (FileNotFoundError, ProcessLookupError):
            pass`,
    ]);
    await expect(archiver.archive(source, 'conv-crash')).rejects.toThrow(
      /tar was killed by signal 9: the container ran out of memory or was stopped/,
    );
    expect((await killer).exitCode).toBe(0);
    expect(stored('conv-crash').equals(good)).toBe(true);
    expect(readdirSync(directory).filter((name) => name.endsWith('.partial'))).toEqual([]);

    const target = await container();
    expect(await archiver.restore(target, 'conv-crash')).toEqual({ restored: true });
    expect(await python(target, "print(open('/workspace/version.txt').read(), end='')")).toBe(
      'first',
    );
  }, 120_000);

  it('a truncated archive fails the restore with a message instead of hanging', async () => {
    const hostDir = mkdtempSync(join(tmpdir(), 'aivory-truncated-'));
    writeFileSync(join(hostDir, 'data.txt'), 'a line of text\n'.repeat(100_000));
    const bytes = zstdCompressSync(
      execFileSync('tar', ['-c', '-C', hostDir, '.'], { maxBuffer: 8 << 20 }),
    );
    // Cut in the middle: tar sees its only file end early.
    await archives.put('conv-truncated', Readable.from([bytes.subarray(0, bytes.length / 2)]));
    const target = await container();
    await expect(archiver.restore(target, 'conv-truncated')).rejects.toThrow(
      /Restoring the archived workspace failed/,
    );
  }, 60_000);
  it('a truncated plain-tar archive (read from the file in place) fails the restore', async () => {
    const hostDir = mkdtempSync(join(tmpdir(), 'aivory-truncated-plain-'));
    writeFileSync(join(hostDir, 'random.bin'), randomBytes(3_000_000));
    const bytes = execFileSync('tar', ['-c', '-C', hostDir, '.'], { maxBuffer: 8 << 20 });
    await archives.put('conv-truncated-plain', Readable.from([bytes.subarray(0, 1_500_000)]));
    expect(formatOf(stored('conv-truncated-plain'))).toBe('tar');
    const target = await container();
    // No older save to fall back to: the error names the damage and keeps the file.
    await expect(archiver.restore(target, 'conv-truncated-plain')).rejects.toThrow(
      /Restoring the archived workspace failed: .*ends in the middle of an entry.*no older save; the damaged save is kept/,
    );
  }, 60_000);

  describe('an extractor started before the archive is asked for (warm containers)', () => {
    /** The `tar` processes running in the container, from `docker top`. */
    async function tarProcesses(containerId: string): Promise<number> {
      const top = execFileSync('docker', ['top', containerId], { encoding: 'utf8' });
      return top.split('\n').filter((line) => /\btar -x\b/.test(line)).length;
    }

    async function archivedRandomWorkspace(conversationId: string): Promise<string> {
      const source = await container();
      await python(
        source,
        `import os
os.makedirs('/workspace/data', exist_ok=True)
for index in range(4):
    open(f'/workspace/data/part_{index}.bin', 'wb').write(os.urandom(2_000_000))`,
      );
      const before = await python(source, LISTING);
      await archiver.archive(source, conversationId);
      expect(formatOf(stored(conversationId))).toBe('tar');
      return before;
    }

    it('waits in the container, then takes the archive: every byte back, no second tar', async () => {
      const before = await archivedRandomWorkspace('conv-ready');
      const target = await container();
      const ready = await archiver.startExtractor(target, { running: true });
      // `running`: the call returned once tar runs, so it is already in the process list.
      expect(await tarProcesses(target)).toBe(1);
      expect(ready.ended).toBe(false);
      expect(await archiver.restore(target, 'conv-ready', ready)).toEqual({ restored: true });
      expect(ready.ended).toBe(true);
      expect(await python(target, LISTING)).toBe(before);
      expect(await tarProcesses(target)).toBe(0);
    }, 120_000);

    it('one that died meanwhile is replaced by a fresh one; the restore still succeeds', async () => {
      const before = await archivedRandomWorkspace('conv-dead-extractor');
      const target = await container();
      const ready = await archiver.startExtractor(target, { running: true });
      await runtime.run(target, ['pkill', '-KILL', '-x', 'tar']);
      await ready.process.exited;
      expect(ready.ended).toBe(true);
      expect(await archiver.restore(target, 'conv-dead-extractor', ready)).toEqual({
        restored: true,
      });
      expect(await python(target, LISTING)).toBe(before);
    }, 120_000);

    it('with no archive it is ended: no tar is left waiting, the workspace stays empty', async () => {
      const target = await container();
      const ready = await archiver.startExtractor(target, { running: true });
      expect(await archiver.restore(target, 'conv-never-archived', ready)).toEqual({
        restored: false,
      });
      await ready.process.exited;
      expect(await tarProcesses(target)).toBe(0);
      expect(await python(target, LISTING)).toBe('\n');
    }, 60_000);
  });
  describe('a saver started before the save (after every save but the last)', () => {
    /** The `tar -c` processes running in the container, from `docker top`. */
    async function savers(containerId: string): Promise<number> {
      const top = execFileSync('docker', ['top', containerId], { encoding: 'utf8' });
      return top.split('\n').filter((line) => /\btar -c\b/.test(line)).length;
    }

    it('waits on the save pipe without reading the workspace, then writes the save through it', async () => {
      const source = await container();
      await python(source, "open('/workspace/before.txt', 'w').write('old')");
      const ready = await archiver.startSaver(source);
      // The pipes reach this sidecar (same host): the save goes through them, not docker exec.
      expect(ready?.pipe).toMatch(/\/save$/);
      expect(await savers(source)).toBe(1);
      // Written after the saver started: tar reads the workspace only once the save asks.
      await python(
        source,
        `import os
open('/workspace/after.bin', 'wb').write(os.urandom(3_000_000))`,
      );
      const before = await python(source, LISTING);
      await archiver.archive(source, 'conv-saver', undefined, ready ?? undefined);
      expect(ready?.ended).toBe(true);
      expect(await savers(source)).toBe(0);
      const target = await container();
      expect(await archiver.restore(target, 'conv-saver')).toEqual({ restored: true });
      expect(await python(target, LISTING)).toBe(before);
    }, 120_000);

    it('one that died meanwhile is replaced by a fresh one; the save still succeeds', async () => {
      const source = await container();
      await python(source, "open('/workspace/kept.txt', 'w').write('kept')");
      const ready = await archiver.startSaver(source);
      await runtime.run(source, ['pkill', '-KILL', '-x', 'tar']);
      await ready?.process.exited;
      expect(ready?.ended).toBe(true);
      await archiver.archive(source, 'conv-dead-saver', undefined, ready ?? undefined);
      const target = await container();
      await archiver.restore(target, 'conv-dead-saver');
      expect(await python(target, "print(open('/workspace/kept.txt').read(), end='')")).toBe(
        'kept',
      );
    }, 120_000);
  });

  describe('transfer pipes that do not reach the container (an engine in a VM)', () => {
    /**
     * A runtime whose containers are mounted one directory of pipes while the sidecar is handed
     * another, as when the engine shows the container FIFOs of its own: nothing written on one
     * side is read on the other.
     */
    class ElsewherePipesRuntime extends DockerRuntime {
      private readonly elsewhere = new TransferPipes();
      private readonly dirs = new Map<string, string | null>();

      async prepareElsewhere(containerId: string): Promise<void> {
        this.dirs.set(containerId, await this.elsewhere.prepare(`unmounted-${containerId}`));
      }

      override transferDir(containerId: string): string | null {
        return this.dirs.get(containerId) ?? null;
      }

      override release(): void {
        super.release();
        this.elsewhere.close();
      }
    }

    it('are found out by the probe, without hanging: save and restore go through docker exec', async () => {
      const elsewhere = new ElsewherePipesRuntime(DOCKER_SOCKET);
      const viaExec = new WorkspaceArchiver(elsewhere, archives);
      const started = containerStarter(elsewhere, 'arch-vm', LIMITS);
      try {
        const source = await started.start();
        await elsewhere.prepareElsewhere(source);
        expect(elsewhere.transferDir(source)).not.toBeNull();
        await python(
          source,
          `import os
os.makedirs('/workspace/data', exist_ok=True)
open('/workspace/data/random.bin', 'wb').write(os.urandom(2_000_000))`,
        );
        const before = await python(source, LISTING);
        expect(await viaExec.startSaver(source)).toBeNull();
        await viaExec.archive(source, 'conv-vm');
        const target = await started.start();
        await elsewhere.prepareElsewhere(target);
        const ready = await viaExec.startExtractor(target, { running: true });
        expect(ready.pipe).toBeNull();
        expect(await viaExec.restore(target, 'conv-vm', ready)).toEqual({ restored: true });
        expect(await python(target, LISTING)).toBe(before);
      } finally {
        await started.removeAll();
        elsewhere.release();
      }
    }, 120_000);
  });
});
