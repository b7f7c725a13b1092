/**
 * The lab of the taint suites: the fetch lab (fetch-lab.ts) without its client, with a hosts file
 * for the client namespace; the scripted model (taint-script.ts) and the real
 * @modelcontextprotocol/server-everything on this process's loopback, bridged into the client
 * namespace at the same ports (loopback-bridge.ts); and a data directory with the everything
 * service added, synced, accepted, enabled and its echo tool set to `allow` (so only the turn's
 * taint can make a call ask). The CLI and `aivory serve` run in the client namespace: the lab's
 * public-looking hosts, the two bridged servers and their own loopback are all they can reach.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FetchLab } from './fetch-lab';
import { createFetchLab } from './fetch-lab';
import type { LoopbackBridge } from './loopback-bridge';
import { bridgeLoopbackPorts } from './loopback-bridge';
import type { EverythingServer } from './mcp-everything-server';
import { startEverythingServer } from './mcp-everything-server';
import type { LabEvent } from './netns-lab';
import type { CliResult } from './run-cli';
import { cliEnv, runCli } from './run-cli';
import type { ScriptedLlmServer } from './scripted-llm-server';
import { startScriptedLlmServer } from './scripted-llm-server';
import { MCP_SERVICE, taintScript } from './taint-script';

export interface TaintLab {
  fetchLab: FetchLab;
  /** The client namespace, where the app under test runs. */
  namespace: string;
  llm: ScriptedLlmServer;
  everything: EverythingServer;
  /** A data directory with the everything service ready (see the header). */
  home: string;
  /** Runs `aivory ARGS` on `home` in the client namespace. */
  cli(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Requests the lab's public servers saw for `host` (its Host header's name). */
  worldRequestsTo(host: string): LabEvent[];
  destroy(): Promise<void>;
}

/**
 * Registers the lab's set-up and tear-down for a test file, like `setUpFetchLab`: without network
 * namespaces every test FAILS with the set-up error.
 */
export function setUpTaintLab(): () => TaintLab {
  let lab: TaintLab | null = null;
  let failure: unknown = null;
  beforeAll(async () => {
    try {
      lab = await createTaintLab();
    } catch (error) {
      failure = error;
    }
  }, 120_000);
  afterAll(async () => {
    await lab?.destroy();
  });
  return () => {
    if (lab) return lab;
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new Error(`the taint lab could not be set up: ${reason}`);
  };
}

export async function createTaintLab(): Promise<TaintLab> {
  const parts: {
    fetchLab?: FetchLab;
    llm?: ScriptedLlmServer;
    everything?: EverythingServer;
    bridge?: LoopbackBridge;
  } = {};
  const home = mkdtempSync(join(tmpdir(), 'aivory-taint-lab-'));
  const destroy = async (): Promise<void> => {
    await parts.fetchLab?.destroy();
    await parts.bridge?.close();
    await parts.everything?.stop();
    await parts.llm?.close();
    rmSync(home, { recursive: true, force: true });
  };
  try {
    parts.fetchLab = await createFetchLab({ codeUnderTest: false, clientHosts: true });
    parts.llm = await startScriptedLlmServer(taintScript);
    parts.everything = await startEverythingServer('streamableHttp');
    const namespace = parts.fetchLab.netns.client;
    parts.bridge = await bridgeLoopbackPorts(parts.fetchLab.netns, namespace, [
      Number(new URL(parts.llm.baseUrl).port),
      parts.everything.port,
    ]);
    const { fetchLab, llm, everything } = parts;
    const cli = (args: string[], env: Record<string, string> = {}) =>
      runCli(args, cliEnv(home, env), { namespace });
    await addEverythingService(cli, everything.url);
    return {
      fetchLab,
      namespace,
      llm,
      everything,
      home,
      cli,
      worldRequestsTo: (host) =>
        fetchLab.publicRequests().filter((request) => String(request.host).split(':')[0] === host),
      destroy,
    };
  } catch (error) {
    await destroy();
    throw error;
  }
}

/** add → sync and accept → enable → echo `allow`, each through the real CLI. */
async function addEverythingService(
  cli: (args: string[]) => Promise<CliResult>,
  url: string,
): Promise<void> {
  const steps = [
    ['mcp', 'add', '--name', MCP_SERVICE, '--url', url, '--description', 'Echo and sums.'],
    ['mcp', 'sync', MCP_SERVICE, '--accept'],
    ['mcp', 'enable', MCP_SERVICE],
    ['mcp', 'approval', MCP_SERVICE, 'echo', 'allow'],
  ];
  for (const args of steps) {
    const result = await cli(args);
    if (result.code !== 0) {
      throw new Error(`aivory ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
    }
  }
}
