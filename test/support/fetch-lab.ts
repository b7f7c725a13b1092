/**
 * The fetch lab, assembled: namespaces (netns-lab.ts), a test CA and certificate, the public web
 * servers and canaries (fetch-lab-server.ts), and the client under test (fetch-lab-client.ts),
 * which the test drives with JSON commands. The taint suites use the same lab without that
 * client: they run the real CLI or `aivory serve` in the client namespace, which resolves the
 * lab's names through its own hosts file (`clientHosts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { LabAnswer, LabCommand, LabResolverSpec } from './fetch-lab-protocol';
import {
  createNetnsLab,
  PUBLIC_HOST_A,
  PUBLIC_HOST_B,
  PUBLIC_HOST_V6,
  REPO_ROOT,
  WORLD_CANARIES,
} from './netns-lab';
import type { LabEvent, LabProcess, NetnsLab } from './netns-lab';

export { PUBLIC_HOST_A, PUBLIC_HOST_B, PUBLIC_HOST_V6, WORLD_CANARIES };

/** The test resolver's table: public-looking names → lab addresses, and hostile answers. */
export const LAB_HOSTS: LabResolverSpec = {
  hosts: {
    'news.example-public.test': [PUBLIC_HOST_A],
    'other.example-public.test': [PUBLIC_HOST_B],
    'secure.example-public.test': [PUBLIC_HOST_A],
    'wrongname.example-public.test': [PUBLIC_HOST_A],
    'v6.example-public.test': [PUBLIC_HOST_V6],
    'dual.example-public.test': [PUBLIC_HOST_A, PUBLIC_HOST_V6],
    'mixed.example-public.test': [PUBLIC_HOST_A, '10.77.0.1'],
    'mixed6.example-public.test': [PUBLIC_HOST_A, 'fd00:ec2::254'],
    'mapped.example-public.test': ['::ffff:7f00:1'],
    'metadata.example-public.test': ['169.254.169.254'],
    'alibaba.example-public.test': ['100.100.100.200'],
    'fakeip.example-public.test': ['198.18.0.77'],
    '127.0.0.1.nip.io': ['127.0.0.1'],
    'localtest.me': ['127.0.0.1'],
    'lan.example-public.test': ['192.168.77.1'],
    // Public-looking, but the client namespace has no route to it: connecting fails at once
    // with ENETUNREACH (like an AAAA-only name on an IPv4-only machine); nothing is sent.
    'unrouted6.example-public.test': ['2a01:4f8:bbbb::1'],
  },
  sequences: {
    // DNS rebinding: public on the first lookup, a private canary on every later one.
    'rebind.example-public.test': [[PUBLIC_HOST_A], ['10.77.0.1']],
  },
};

/**
 * The client namespace's /etc/hosts with `clientHosts`: the plain public names, for programs
 * that use the system resolver (the hostile answers of LAB_HOSTS need the test resolver).
 */
export const LAB_HOSTS_FILE: Record<string, string> = {
  'news.example-public.test': PUBLIC_HOST_A,
  'other.example-public.test': PUBLIC_HOST_B,
};

const CLIENT_CANARY_PORTS = [80, 443, 8080];

export interface FetchLabOptions {
  /** Start the client under test that `run` drives (fetch-lab-client.ts); default true. */
  codeUnderTest?: boolean;
  /** Give the client namespace LAB_HOSTS_FILE as its /etc/hosts; default false. */
  clientHosts?: boolean;
}

export interface FetchLab {
  /** The namespaces, to run more processes in them. */
  netns: NetnsLab;
  run(
    command: Omit<LabCommand, 'id' | 'resolver'> & { resolver?: LabResolverSpec },
  ): Promise<LabAnswer>;
  /** Every connection a canary (a refused target) has seen so far. */
  canaryConnections(): Promise<LabEvent[]>;
  /** Requests the public servers have seen so far. */
  publicRequests(): LabEvent[];
  destroy(): Promise<void>;
}

function makeCertificates(directory: string): {
  caPath: string;
  keyPath: string;
  certPath: string;
} {
  const openssl = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Aivory fetch lab CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    'leaf.key',
    '-out',
    'leaf.csr',
    '-subj',
    '/CN=secure.example-public.test',
  );
  writeFileSync(
    join(directory, 'leaf.ext'),
    'subjectAltName=DNS:secure.example-public.test,DNS:news.example-public.test\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
  );
  return {
    caPath: join(directory, 'ca.pem'),
    keyPath: join(directory, 'leaf.key'),
    certPath: join(directory, 'leaf.pem'),
  };
}

/**
 * Registers the lab's set-up and tear-down for a test file. Tests reach the lab through the
 * returned function, which throws the set-up error: without network namespaces every test
 * FAILS with that message (a failing beforeAll would only mark them skipped).
 */
export function setUpFetchLab(options: FetchLabOptions = {}): () => FetchLab {
  let lab: FetchLab | null = null;
  let failure: unknown = null;
  beforeAll(async () => {
    try {
      lab = await createFetchLab(options);
    } catch (error) {
      failure = error;
    }
  }, 90_000);
  afterAll(async () => {
    await lab?.destroy();
  });
  return () => {
    if (lab) return lab;
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new Error(`the fetch lab (network namespaces) could not be set up: ${reason}`);
  };
}

export async function createFetchLab(options: FetchLabOptions = {}): Promise<FetchLab> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-fetch-lab-'));
  let lab: NetnsLab | null = null;
  try {
    const certificates = makeCertificates(directory);
    lab = await createNetnsLab(options.clientHosts === true ? { clientHosts: LAB_HOSTS_FILE } : {});
    const server = join(REPO_ROOT, 'test/support/fetch-lab-server.ts');
    const publicServer = lab.spawnNode(lab.world, 'public', server, [
      JSON.stringify({
        role: 'public',
        keyPath: certificates.keyPath,
        certPath: certificates.certPath,
        binds: [
          { address: PUBLIC_HOST_A, port: 80 },
          { address: PUBLIC_HOST_A, port: 443, tls: true },
          { address: PUBLIC_HOST_A, port: 8080 },
          { address: PUBLIC_HOST_B, port: 80 },
          { address: PUBLIC_HOST_V6, port: 80 },
        ],
      }),
    ]);
    const worldCanary = lab.spawnNode(lab.world, 'world-canary', server, [
      JSON.stringify({
        role: 'canary',
        binds: WORLD_CANARIES.flatMap((address) =>
          CLIENT_CANARY_PORTS.map((port) => ({ address, port })),
        ),
      }),
    ]);
    // '::' without ipv6Only also takes 127.0.0.1, 0.0.0.0 and the client's own addresses.
    const clientCanary = lab.spawnNode(lab.client, 'client-canary', server, [
      JSON.stringify({
        role: 'canary',
        binds: CLIENT_CANARY_PORTS.map((port) => ({ address: '::', port })),
      }),
    ]);
    const client =
      options.codeUnderTest === false
        ? null
        : lab.spawnNode(lab.client, 'client', join(REPO_ROOT, 'test/support/fetch-lab-client.ts'), [
            JSON.stringify({ caPath: certificates.caPath }),
          ]);
    await Promise.all(
      [publicServer, worldCanary, clientCanary, ...(client ? [client] : [])].map((labProcess) =>
        labProcess.waitFor('ready'),
      ),
    );
    return assemble(lab, client, publicServer, [worldCanary, clientCanary], directory);
  } catch (error) {
    await lab?.destroy();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

function assemble(
  lab: NetnsLab,
  client: LabProcess | null,
  publicServer: LabProcess,
  canaries: LabProcess[],
  directory: string,
): FetchLab {
  let nextId = 1;
  let nextPing = 0;
  return {
    netns: lab,
    run: async (command) => {
      if (!client) throw new Error('this fetch lab was made without the client under test');
      const id = nextId;
      nextId += 1;
      const full: LabCommand = { resolver: LAB_HOSTS, ...command, id };
      client.child.stdin.write(`${JSON.stringify(full)}\n`);
      for (let waited = 0; waited < 120_000; waited += 10) {
        const found = client.events.find((event) => event.event === 'answer' && event.id === id);
        if (found) {
          const parsed: LabAnswer = JSON.parse(JSON.stringify(found));
          return parsed;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no answer to command ${id}`);
    },
    canaryConnections: async () => {
      // A barrier, not a pause: each canary answers a ping only after reporting every connection
      // it had been given before it (fetch-lab-server.ts), so none still on its way is missed.
      nextPing += 1;
      const ping = nextPing;
      await Promise.all(
        canaries.map((canary) => {
          canary.child.stdin.write(`ping ${ping}\n`);
          return canary.waitFor(`pong-${ping}`);
        }),
      );
      return canaries.flatMap((canary) =>
        canary.events.filter((event) => event.event === 'canary-connection'),
      );
    },
    publicRequests: () => publicServer.events.filter((event) => event.event === 'request'),
    destroy: async () => {
      client?.child.stdin.end();
      await lab.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
