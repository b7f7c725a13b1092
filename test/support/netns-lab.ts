/**
 * A private two-host network for the fetch tests, built from Linux network namespaces that the
 * test creates and removes itself. Nothing in it can reach any address outside this machine:
 *
 *   client namespace (…-c)                       world namespace (…-w)
 *   - runs the fetcher under test                - "public" web servers on 45.33.0.10/.11 and
 *   - a loopback canary on 127.0.0.1/::1/0.0.0.0   2a01:4f8:aaaa::10 (addresses that exist only here)
 *   - NO default route: only host routes to the  - canaries on the private targets the guard must
 *     world's addresses over one veth pair         refuse (10.x, 172.16.x, 192.168.x,
 *                                                  169.254.169.254, 100.100.100.200,
 *                                                  168.63.129.16, fd00:ec2::254)
 *
 * If the guard ever let a request through to a refused address, it would land on a canary (which
 * records it) or fail with "network unreachable" — never on the real network. Both namespaces
 * are created with names unique to this run (pid + random), removed in `destroy()`, and
 * namespaces left behind by a crashed earlier run (whose pid is gone) are removed first.
 *
 * With `clientHosts`, the client namespace gets its own hosts file, /etc/netns/<client>/hosts,
 * which `ip netns exec` mounts over /etc/hosts: a program run there (the real CLI, `aivory
 * serve`) resolves the lab's public-looking names through the ordinary system resolver.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Addresses of the "public" hosts; they exist only inside the world namespace. */
export const PUBLIC_HOST_A = '45.33.0.10';
export const PUBLIC_HOST_B = '45.33.0.11';
export const PUBLIC_HOST_V6 = '2a01:4f8:aaaa::10';
/** Canaries: refused targets reachable from the client only through the veth pair. */
export const WORLD_CANARIES = [
  '10.77.0.1',
  '172.16.77.1',
  '192.168.77.1',
  '169.254.169.254',
  '100.100.100.200',
  '168.63.129.16',
  '198.18.0.77',
  'fd00:ec2::254',
] as const;
const CLIENT_V4 = '45.33.255.1';
const WORLD_V4 = '45.33.255.2';
const CLIENT_V6 = '2a01:4f8:aaaa:ffff::1';
const WORLD_V6 = '2a01:4f8:aaaa:ffff::2';
const NAME_PREFIX = 'aivf-';
/** Where `ip netns exec NAME` finds the files it mounts over /etc (iproute2's convention). */
const NETNS_ETC = '/etc/netns';

export interface LabEvent {
  source: string;
  event: string;
  [field: string]: unknown;
}

export interface LabProcess {
  child: ChildProcessWithoutNullStreams;
  events: LabEvent[];
  /** Resolves with the first event named `name` (rejects after `timeoutMs`). */
  waitFor(name: string, timeoutMs?: number): Promise<LabEvent>;
}

export interface NetnsLabOptions {
  /** Name → address lines of the client namespace's /etc/hosts (localhost is always there). */
  clientHosts?: Record<string, string>;
}

export interface NetnsLab {
  client: string;
  world: string;
  /** Runs `node --import tsx script …args` inside a namespace; JSON lines on stdout are events. */
  spawnNode(namespace: string, source: string, script: string, args: string[]): LabProcess;
  destroy(): Promise<void>;
}

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Fails loudly (never skips) when network namespaces cannot be used here. */
function assertNamespacesUsable(): void {
  try {
    ip('netns', 'list');
  } catch (error) {
    throw new Error(
      `the fetch integration tests need Linux network namespaces (iproute2 "ip netns", run as root): ${String(error)}`,
      { cause: error },
    );
  }
}

/** Removes namespaces (and their /etc/netns files) of earlier runs whose process is gone. */
function removeStaleNamespaces(): void {
  const stale = (name: string): boolean => {
    const match = new RegExp(`^${NAME_PREFIX}(\\d+)-`).exec(name);
    return match !== null && !isAlive(Number(match[1]));
  };
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (stale(name)) removeNamespace(name);
  }
  let leftFiles: string[] = [];
  try {
    leftFiles = readdirSync(NETNS_ETC);
  } catch {
    // no /etc/netns yet
  }
  for (const name of leftFiles.filter(stale)) removeNamespaceFiles(name);
}

/** Writes the namespace's own hosts file (see the header). */
function writeNamespaceHosts(name: string, hosts: Record<string, string>): void {
  const directory = join(NETNS_ETC, name);
  mkdirSync(directory, { recursive: true });
  const lines = [
    '127.0.0.1 localhost',
    '::1 localhost ip6-localhost ip6-loopback',
    ...Object.entries(hosts).map(([hostname, address]) => `${address} ${hostname}`),
  ];
  writeFileSync(join(directory, 'hosts'), `${lines.join('\n')}\n`);
}

function removeNamespaceFiles(name: string): void {
  rmSync(join(NETNS_ETC, name), { recursive: true, force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills the processes we started inside `name` (by pid), then deletes it. Idempotent. */
function removeNamespace(name: string): void {
  try {
    for (const pid of ip('netns', 'pids', name)
      .split('\n')
      .filter((line) => line.trim() !== '')) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  } catch {
    // no such namespace
  }
  try {
    ip('netns', 'delete', name);
  } catch {
    // no such namespace
  }
}

export async function createNetnsLab(options: NetnsLabOptions = {}): Promise<NetnsLab> {
  assertNamespacesUsable();
  removeStaleNamespaces();
  const id = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const client = `${NAME_PREFIX}${id}-c`;
  const world = `${NAME_PREFIX}${id}-w`;
  const clientLink = `av${id.slice(-6)}c`;
  const worldLink = `av${id.slice(-6)}w`;
  const processes: LabProcess[] = [];
  const destroy = async (): Promise<void> => {
    for (const labProcess of processes) labProcess.child.kill('SIGKILL');
    await Promise.all(
      processes.map(
        (labProcess) =>
          new Promise((resolve) => {
            if (labProcess.child.exitCode !== null || labProcess.child.signalCode !== null)
              resolve(null);
            else labProcess.child.once('exit', resolve);
          }),
      ),
    );
    removeNamespace(client);
    removeNamespace(world);
    removeNamespaceFiles(client);
  };
  try {
    for (const name of [client, world]) {
      removeNamespace(name);
      ip('netns', 'add', name);
      ip('-n', name, 'link', 'set', 'lo', 'up');
    }
    if (options.clientHosts) writeNamespaceHosts(client, options.clientHosts);
    // Both ends are created directly inside the namespaces: the host's own network is untouched.
    ip(
      'link',
      'add',
      clientLink,
      'netns',
      client,
      'type',
      'veth',
      'peer',
      'name',
      worldLink,
      'netns',
      world,
    );
    ip('-n', client, 'addr', 'add', `${CLIENT_V4}/30`, 'dev', clientLink);
    ip('-n', world, 'addr', 'add', `${WORLD_V4}/30`, 'dev', worldLink);
    ip('-n', client, '-6', 'addr', 'add', `${CLIENT_V6}/64`, 'dev', clientLink, 'nodad');
    ip('-n', world, '-6', 'addr', 'add', `${WORLD_V6}/64`, 'dev', worldLink, 'nodad');
    ip('-n', client, 'link', 'set', clientLink, 'up');
    ip('-n', world, 'link', 'set', worldLink, 'up');
    for (const address of [PUBLIC_HOST_A, PUBLIC_HOST_B, PUBLIC_HOST_V6, ...WORLD_CANARIES]) {
      const v6 = address.includes(':');
      ip(
        '-n',
        world,
        ...(v6 ? ['-6'] : []),
        'addr',
        'add',
        `${address}/${v6 ? 128 : 32}`,
        'dev',
        'lo',
      );
      ip(
        '-n',
        client,
        ...(v6 ? ['-6'] : []),
        'route',
        'add',
        `${address}/${v6 ? 128 : 32}`,
        'via',
        v6 ? WORLD_V6 : WORLD_V4,
      );
    }
    const routes = ip('-n', client, 'route', 'show') + ip('-n', client, '-6', 'route', 'show');
    if (/^default/m.test(routes))
      throw new Error(`the client namespace must have no default route:\n${routes}`);
  } catch (error) {
    await destroy();
    throw error;
  }
  return {
    client,
    world,
    destroy,
    spawnNode: (namespace, source, script, args) => {
      const child = spawn(
        'ip',
        ['netns', 'exec', namespace, process.execPath, '--import', 'tsx', script, ...args],
        {
          cwd: REPO_ROOT,
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      const labProcess = trackEvents(child, source);
      processes.push(labProcess);
      return labProcess;
    },
  };
}

function trackEvents(child: ChildProcessWithoutNullStreams, source: string): LabProcess {
  const events: LabEvent[] = [];
  const waiters: { name: string; resolve: (event: LabEvent) => void }[] = [];
  let buffered = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors = `${errors}${chunk.toString()}`.slice(-4000);
  });
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter((text) => text.trim() !== '')) {
      const parsed: unknown = JSON.parse(line);
      const event: LabEvent = {
        source,
        event: 'unknown',
        ...(typeof parsed === 'object' && parsed !== null ? parsed : {}),
      };
      events.push(event);
      for (const waiter of waiters.filter((candidate) => candidate.name === event.event))
        waiter.resolve(event);
    }
  });
  return {
    child,
    events,
    waitFor: (name, timeoutMs = 30_000) => {
      const seen = events.find((event) => event.event === name);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        // Each wait takes its exit listener off when it ends: a test that waits many times on
        // one process must not pile listeners up on it.
        const onExit = (code: number | null): void => {
          clearTimeout(timer);
          reject(new Error(`${source} exited (${code}) before "${name}"; stderr:\n${errors}`));
        };
        const timer = setTimeout(() => {
          child.off('exit', onExit);
          reject(new Error(`${source}: no "${name}" within ${timeoutMs} ms; stderr:\n${errors}`));
        }, timeoutMs);
        child.once('exit', onExit);
        waiters.push({
          name,
          resolve: (event) => {
            clearTimeout(timer);
            child.off('exit', onExit);
            resolve(event);
          },
        });
      });
    },
  };
}
