/**
 * Engines a test starts and stops itself: Podman's Docker-compatible service (rootful, and
 * rootless as a system user of the test's own), and a second dockerd with gVisor's runsc
 * registered (its own data root, exec root, socket and no bridge, so the machine's dockerd and
 * other tests are untouched). The runner image is copied in from
 * the machine's dockerd. A missing `podman` or `runsc` fails the test with how to install it.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { keepaliveName } from '../../src/session-manager';
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
  env?: NodeJS.ProcessEnv,
): { child: ChildProcess; log: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd, env });
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
function copyRunnerImage(load: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string }): void {
  execFileSync('sh', ['-c', `docker save "$0" | "$@"`, RUNNER_IMAGE, ...load], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
    ...options,
  });
}

/** True when the engine has the runner image with dockerd's id (a rebuilt image is reloaded). */
async function hasRunnerImage(socketPath: string): Promise<boolean> {
  const id = (value: string) => value.trim().replace(/^sha256:/, '');
  const wanted = id(
    execFileSync('docker', ['image', 'inspect', '--format', '{{.Id}}', RUNNER_IMAGE], {
      encoding: 'utf8',
    }),
  );
  // Podman names a loaded image localhost/<name> and finds it by the short name too.
  return new Docker({ socketPath })
    .getImage(RUNNER_IMAGE)
    .inspect()
    .then((image) => id(image.Id) === wanted)
    .catch(() => false);
}

/**
 * The started engine once it answers and has the runner image (`load` copies it in when it is
 * missing or older); stopped again if either fails.
 */
async function serving(
  engine: TestEngine,
  child: ChildProcess,
  load: string[],
  loadOptions: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<TestEngine> {
  try {
    await untilAnswering(engine.socketPath, child, engine.log);
    if (!(await hasRunnerImage(engine.socketPath))) copyRunnerImage(load, loadOptions);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  return engine;
}

/**
 * The image keepalive outlives a sidecar on purpose; a Podman engine a test started is its own,
 * so the keepalive goes with it (Podman has no daemon: its conmon would otherwise keep running
 * after the service stops).
 */
async function removeKeepalive(socketPath: string): Promise<void> {
  await new Docker({ socketPath })
    .getContainer(keepaliveName(RUNNER_IMAGE))
    .remove({ force: true })
    .catch(() => undefined);
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
  const stop = async () => {
    await removeKeepalive(socketPath);
    await killOrphanedConmons(socketPath, 0);
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  return serving({ socketPath, log, stop }, child, ['podman', 'load']);
}

/**
 * Podman 4.3 leaves the conmon of an exec session running when the session's container was
 * removed while the exec was attached (a killed worker): each waits forever. Ends those, and only
 * those: conmons of the engine's user whose container (`-c ID`) the engine no longer has.
 */
async function killOrphanedConmons(socketPath: string, uid: number): Promise<void> {
  const docker = new Docker({ socketPath });
  for (const { pid: entry, args, uid: owner } of processes()) {
    // Another engine's conmons (a rootless one of the same test run) are not this engine's.
    if (owner !== uid || !args[0]?.endsWith('/conmon')) continue;
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

/** Every process's pid, command line and real uid (from /proc). */
function processes(): { pid: string; args: string[]; uid: number }[] {
  const found: { pid: string; args: string[]; uid: number }[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      found.push({ pid, args, uid });
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
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
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  return serving({ socketPath, log, stop }, child, [
    'docker',
    '-H',
    `unix://${socketPath}`,
    'load',
  ]);
}

/** The system user rootless Podman runs as in tests; its home holds its image store. */
export const ROOTLESS_USER = 'aivory-rootless';
const ROOTLESS_HOME = `/var/lib/${ROOTLESS_USER}`;
/** Fixed, because Podman's database remembers its runtime directory (and keeps using it). */
const ROOTLESS_RUNTIME_DIR = `/tmp/${ROOTLESS_USER}-run`;
/** Subordinate ids: container uid 0 is the user itself, uid 1000 is the range's start + 999. */
const SUBORDINATE_COUNT = 65_536;

/**
 * Creates the test's system user (once): a home for its store, /etc/subuid and /etc/subgid ranges
 * above every range already given (newuidmap maps the container's uids into them), and
 * storage.conf asking for the kernel's overlay (unprivileged since Linux 5.13); Podman 4.3 would
 * otherwise pick vfs here, which copies every layer in full.
 */
function ensureRootlessUser(): { uid: number; gid: number; subuids: [number, number] } {
  const idOf = (flag: string) =>
    Number(execFileSync('id', [flag, ROOTLESS_USER], { encoding: 'utf8' }).trim());
  try {
    idOf('-u');
  } catch {
    execFileSync('useradd', [
      '--system',
      '--create-home',
      '--home-dir',
      ROOTLESS_HOME,
      '--shell',
      '/usr/sbin/nologin',
      ROOTLESS_USER,
    ]);
  }
  for (const file of ['/etc/subuid', '/etc/subgid']) {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    if (lines.some((line) => line.startsWith(`${ROOTLESS_USER}:`))) continue;
    const end = Math.max(
      100_000,
      ...lines.map((line) => {
        const [, start = '0', count = '0'] = line.split(':');
        return Number(start) + Number(count);
      }),
    );
    appendFileSync(file, `${ROOTLESS_USER}:${end}:${SUBORDINATE_COUNT}\n`);
  }
  const range = readFileSync('/etc/subuid', 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${ROOTLESS_USER}:`))
    ?.split(':');
  const start = Number(range?.[1]);
  const ids = {
    uid: idOf('-u'),
    gid: idOf('-g'),
    subuids: [start, start + Number(range?.[2])] as [number, number],
  };
  const config = join(ROOTLESS_HOME, '.config', 'containers');
  mkdirSync(config, { recursive: true });
  // Pinned: Podman's database records the first run's paths and keeps using them.
  writeFileSync(
    join(config, 'storage.conf'),
    [
      '[storage]',
      'driver = "overlay"',
      `runroot = "${ROOTLESS_RUNTIME_DIR}/containers"`,
      `graphroot = "${ROOTLESS_HOME}/.local/share/containers/storage"`,
      '',
    ].join('\n'),
  );
  for (const dir of [join(ROOTLESS_HOME, '.config'), config, join(config, 'storage.conf')]) {
    chownSync(dir, ids.uid, ids.gid);
  }
  return ids;
}

/**
 * Rootless `podman system service --time=0 unix://…` as ROOTLESS_USER (setpriv: no login
 * session needed), with a private XDG_RUNTIME_DIR that holds the socket (root, the test,
 * connects regardless of its mode). The runner image is loaded into the user's store unless the
 * same image id is there already. Rootless Podman re-executes itself inside its user namespace:
 * SIGTERM ends the process we started, not the one serving, so stop() ends every process of the
 * user (and of its subordinate uids).
 */
export async function startRootlessPodmanService(): Promise<TestEngine> {
  requireDockerAndImage();
  requireCommand('podman', 'apt-get install -y podman');
  requireCommand('newuidmap', 'apt-get install -y uidmap');
  requireCommand('setpriv', 'apt-get install -y util-linux');
  const { uid, gid, subuids } = ensureRootlessUser();
  // Its processes run as the user (Podman, conmon, the pause process) or as its subordinate uids
  // (containers): all of them are the test's.
  const owned = (owner: number) => owner === uid || (owner >= subuids[0] && owner < subuids[1]);
  // A runtime directory a crashed run left behind holds stale state and a pause-process pid.
  await killProcesses(owned);
  rmSync(ROOTLESS_RUNTIME_DIR, { recursive: true, force: true });
  mkdirSync(ROOTLESS_RUNTIME_DIR, { mode: 0o700 });
  chownSync(ROOTLESS_RUNTIME_DIR, uid, gid);
  const socketPath = join(ROOTLESS_RUNTIME_DIR, 'podman.sock');
  const env = {
    PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: ROOTLESS_HOME,
    USER: ROOTLESS_USER,
    LOGNAME: ROOTLESS_USER,
    XDG_RUNTIME_DIR: ROOTLESS_RUNTIME_DIR,
  };
  const asUser = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--init-groups'];
  const { child, log } = startProcess(
    asUser[0] ?? 'setpriv',
    [...asUser.slice(1), 'podman', 'system', 'service', '--time=0', `unix://${socketPath}`],
    ROOTLESS_RUNTIME_DIR,
    env,
  );
  const stop = async () => {
    await removeKeepalive(socketPath);
    await stopProcess(child);
    // Orphaned conmons (see killOrphanedConmons), the user namespace's pause process
    // (catatonit -P) and a crashed test's containers.
    await killProcesses(owned);
    rmSync(ROOTLESS_RUNTIME_DIR, { recursive: true, force: true });
  };
  return serving({ socketPath, log, stop }, child, [...asUser, 'podman', 'load'], {
    env: { ...process.env, ...env },
    cwd: ROOTLESS_RUNTIME_DIR,
  });
}

/** SIGKILLs every process whose real uid is `owned` and waits until none is left running. */
async function killProcesses(owned: (uid: number) => boolean): Promise<void> {
  const alive = () =>
    processes().filter((entry) => owned(entry.uid) && !/^State:\s+Z/m.test(readStatus(entry.pid)));
  for (const entry of alive()) {
    try {
      process.kill(Number(entry.pid), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  while (alive().length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
}

function readStatus(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}
