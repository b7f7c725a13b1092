/**
 * Engines a test starts and stops itself: Podman's Docker-compatible service, and a second
 * dockerd with gVisor's runsc registered (its own data root, exec root, socket and no bridge,
 * so the machine's dockerd and other tests are untouched). The runner image is copied in from
 * the machine's dockerd. A missing `podman` or `runsc` fails the test with how to install it.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { RUNNER_IMAGE, requireDockerAndImage } from './docker-fixture';

export interface TestEngine {
  socketPath: string;
  /** Everything the engine printed, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

function requireCommand(command: string, install: string): void {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `This test needs \`${command}\` on PATH. Install it with: ${install} (CI does this in .ci/run).`,
    );
  }
}

/** Resolves once the engine answers on its socket; rejects if the process exits first. */
async function untilAnswering(socketPath: string, child: ChildProcess, log: () => string) {
  const docker = new Docker({ socketPath });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`the engine exited before answering:\n${log()}`);
    try {
      await docker.ping();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Runs in `cwd`: conmon drops an `oom` marker file in its working directory after an OOM kill. */
function startProcess(
  command: string,
  args: string[],
  cwd: string,
): { child: ChildProcess; log: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, log: () => output };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

/** `docker save RUNNER_IMAGE | <load command>`: the image the machine's dockerd has. */
function copyRunnerImage(load: string[]): void {
  execFileSync('sh', ['-c', `docker save "$0" | "$@"`, RUNNER_IMAGE, ...load], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * `podman system service --time=0 unix://…` (rootful when run as root; a rootless user's
 * service listens on $XDG_RUNTIME_DIR/podman/podman.sock the same way) with the runner image.
 */
export async function startPodmanService(): Promise<TestEngine> {
  requireDockerAndImage();
  requireCommand('podman', 'apt-get install -y podman');
  const dir = mkdtempSync('/tmp/aivory-podman-');
  const socketPath = join(dir, 'podman.sock');
  const { child, log } = startProcess(
    'podman',
    ['system', 'service', '--time=0', `unix://${socketPath}`],
    dir,
  );
  try {
    await untilAnswering(socketPath, child, log);
    // Podman keeps images in its own store; a loaded image is named localhost/<name>.
    const present = (() => {
      try {
        execFileSync('podman', ['image', 'exists', RUNNER_IMAGE], { stdio: 'ignore' });
        return sameImage(RUNNER_IMAGE);
      } catch {
        return false;
      }
    })();
    if (!present) copyRunnerImage(['podman', 'load']);
  } catch (error) {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    socketPath,
    log,
    stop: async () => {
      await killOrphanedConmons(socketPath);
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Podman 4.3 leaves the conmon of an exec session running when the session's container was
 * removed while the exec was attached (a killed worker): each waits forever. Ends those, and only
 * those: conmons whose container (`-c ID`) the engine no longer has.
 */
async function killOrphanedConmons(socketPath: string): Promise<void> {
  const docker = new Docker({ socketPath });
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!args[0]?.endsWith('/conmon')) continue;
    const containerId = args[args.indexOf('-c') + 1];
    if (!containerId || !args.includes('--exec-attach')) continue;
    const gone = await docker
      .getContainer(containerId)
      .inspect()
      .then(() => false)
      .catch((error: { statusCode?: number }) => error.statusCode === 404);
    if (gone) {
      try {
        process.kill(Number(entry), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

/** True when Podman's copy of the image has the same id as dockerd's (a rebuilt image is reloaded). */
function sameImage(image: string): boolean {
  const id = (command: string) =>
    execFileSync(command, ['image', 'inspect', '--format', '{{.Id}}', image], {
      encoding: 'utf8',
    })
      .trim()
      .replace(/^sha256:/, '');
  return id('docker') === id('podman');
}

/**
 * A second dockerd whose daemon.json registers runsc. `--network=none` is gVisor's own network
 * switch: without it runsc refuses Docker's `--network none` namespace here ("cannot run with
 * network enabled in root network namespace"), and sessions never have a network anyway.
 */
export async function startRunscDockerd(
  runtimeArgs: string[] = ['--network=none'],
): Promise<TestEngine> {
  requireDockerAndImage();
  requireCommand('runsc', 'apt-get install -y runsc');
  requireCommand('dockerd', 'apt-get install -y docker.io');
  // Short paths: containerd's sockets live under the exec root (unix socket paths ≤ 107 bytes).
  const dir = mkdtempSync('/tmp/aivory-gv-');
  const socketPath = join(dir, 'docker.sock');
  const runsc = execFileSync('sh', ['-c', 'command -v runsc'], { encoding: 'utf8' }).trim();
  writeFileSync(
    join(dir, 'daemon.json'),
    JSON.stringify({ runtimes: { runsc: { path: runsc, runtimeArgs } } }),
  );
  const { child, log } = startProcess(
    'dockerd',
    [
      '--config-file',
      join(dir, 'daemon.json'),
      '--data-root',
      join(dir, 'data'),
      '--exec-root',
      join(dir, 'x'),
      '--pidfile',
      join(dir, 'dockerd.pid'),
      '-H',
      `unix://${socketPath}`,
      '--bridge',
      'none',
      '--iptables=false',
      '--ip-masq=false',
    ],
    dir,
  );
  try {
    await untilAnswering(socketPath, child, log);
    copyRunnerImage(['docker', '-H', `unix://${socketPath}`, 'load']);
  } catch (error) {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    socketPath,
    log,
    stop: async () => {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
