/**
 * Aivory as the client under test of the official MCP conformance suite. The suite's CLI starts
 * a scenario's server and runs its `--command` with the server's URL appended and the scenario in
 * MCP_CONFORMANCE_SCENARIO (client credentials, when a scenario has them, in
 * MCP_CONFORMANCE_CONTEXT); that command is client-shim.mjs, which hands the run to this module in
 * the test's own worker (client-host.ts), so the app's modules are loaded once per file instead of
 * once per scenario.
 *
 * Nothing here speaks MCP itself: it drives the real `aivory mcp` commands (the CLI's runCli with
 * its own input and output) in a fresh data directory — add the service (with the scenario's
 * client, if any), sync and accept its tools, enable it, call each tool (or the calls the
 * scenario's context names, with their arguments) — exactly as a user would, so every scenario
 * exercises the app's own connection, OAuth sign-in (the browser is `$BROWSER`, a redirect
 * follower) and elicitation code.
 *
 * A scenario's authorization server is another localhost port than its MCP server's: Aivory
 * refuses that until the user trusts the origin for the service, and its error names the flag.
 * The harness answers as the user would — the suite's authorization server is the service's own
 * — with `aivory mcp edit conformance --trust-auth-server ORIGIN`, and syncs again (once per
 * origin: a resource that moves to a second authorization server asks about that one too).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/main/cli/main';
import type { CliIo } from '../../src/main/cli/cli-io';

const SERVICE = 'conformance';

/**
 * The suite's Client ID Metadata Document URL (its servers know this document without fetching
 * it). Set as a user who publishes Aivory's metadata document would set it; servers that do not
 * accept such documents get a dynamic registration as usual.
 */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** Arguments for the tools the scenarios offer (others are called with none). */
const TOOL_ARGUMENTS: Record<string, Record<string, unknown>> = {
  add_numbers: { a: 2, b: 3 },
};

interface ListedTool {
  name: string;
  accepted: { inputSchema?: unknown } | null;
}

/**
 * The arguments for `tool`. `json_schema_echo` (json-schema-2020-12-preservation) is asked to
 * echo another tool's input schema: it gets the schema Aivory stored and accepted for
 * `json_schema_2020_12_tool`, so the suite sees whether Aivory kept every keyword.
 */
function argumentsFor(tool: string, tools: readonly ListedTool[]): Record<string, unknown> {
  if (tool === 'json_schema_echo') {
    const focal = tools.find((listed) => listed.name === 'json_schema_2020_12_tool');
    return { schema: focal?.accepted?.inputSchema ?? {} };
  }
  return TOOL_ARGUMENTS[tool] ?? {};
}

/**
 * A call the scenario's server declined with JSON-RPC "Method not found" (json-schema-ref-no-deref
 * serves tools/list only): the client did its part, the server has no tools/call.
 */
const DECLINED_BY_SERVER = /returned an error: Method not found/;

/**
 * The calls a scenario asks for in its context (`toolCalls`, e.g. http-custom-headers: the
 * arguments whose `x-mcp-header` parameters must be mirrored as headers), or null.
 */
function contextToolCalls(
  raw: string | undefined,
): { name: string; arguments: Record<string, unknown> }[] | null {
  if (!raw) return null;
  const context = JSON.parse(raw) as {
    toolCalls?: { name?: unknown; arguments?: unknown }[];
  };
  if (!Array.isArray(context.toolCalls)) return null;
  return context.toolCalls.flatMap((call) =>
    typeof call.name === 'string' && typeof call.arguments === 'object' && call.arguments !== null
      ? [{ name: call.name, arguments: call.arguments as Record<string, unknown> }]
      : [],
  );
}

/** Extra `aivory mcp add` flags from the scenario's context (pre-registered clients). */
function clientFlags(home: string, raw: string | undefined): string[] {
  if (!raw) return [];
  const context = JSON.parse(raw) as {
    name?: string;
    client_id?: string;
    client_secret?: string;
    private_key_pem?: string;
  };
  const flags: string[] = [];
  if (context.client_id) flags.push('--client-id', context.client_id);
  if (context.client_secret) flags.push('--client-secret', context.client_secret);
  if (context.private_key_pem) {
    const keyFile = join(home, 'client-key.pem');
    writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
    flags.push('--client-key-file', keyFile);
  }
  if (context.name?.startsWith('auth/client-credentials'))
    flags.push('--oauth-grant', 'client-credentials');
  return flags;
}

/** One scenario's run: what the suite gave the client, and where its output goes. */
export interface ClientRun {
  /** The scenario server's URL (the argument the suite appends to the command). */
  url: string;
  /** The client's environment as the suite set it (MCP_CONFORMANCE_*, $BROWSER). */
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs Aivory as the client of one scenario; resolves to the client's exit code. */
export async function runConformanceClient(client: ClientRun): Promise<number> {
  const { url } = client;
  const home = mkdtempSync(join(tmpdir(), 'aivory-conformance-'));
  const io: CliIo = {
    stdout: client.stdout,
    stderr: client.stderr,
    dim: (text) => text,
    env: { ...client.env, AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0', NO_COLOR: '1' },
    onInterrupt: () => undefined,
    offInterrupt: () => undefined,
  };
  let captured = '';
  let errors = '';
  /** Everything the last command wrote, both streams. */
  let said = '';
  const run = async (args: string[]): Promise<number> => {
    client.stderr(`$ aivory ${args.join(' ')}\n`);
    errors = '';
    said = '';
    return runCli(args, {
      ...io,
      stdout: (text) => {
        captured += text;
        said += text;
        client.stdout(text);
      },
      stderr: (text) => {
        errors += text;
        said += text;
        client.stderr(text);
      },
    });
  };
  // What a scenario asks the user, answered as a user would, once per server: trust its
  // authorization server (another localhost port), and approve the one the resource moved to
  // (auth/authorization-server-migration: `aivory mcp login N --auth-server ISSUER`).
  const trusted = new Set<string>();
  const approved = new Set<string>();
  const answered = async (step: string[]): Promise<number> => {
    let code = await run(step);
    for (;;) {
      if (code === 0 || (step[1] !== 'sync' && step[1] !== 'login')) return code;
      const trust = /--trust-auth-server (http:\/\/localhost:\d+)\b/.exec(said)?.[1];
      const move = /\s--auth-server (http:\/\/localhost:\d+[^\s'"]*)/.exec(said)?.[1];
      if (trust !== undefined && !trusted.has(trust)) {
        trusted.add(trust);
        code = await run(['mcp', 'edit', SERVICE, '--trust-auth-server', trust]);
      } else if (move !== undefined && !approved.has(move)) {
        approved.add(move);
        code = await answered(['mcp', 'login', SERVICE, '--auth-server', move]);
      } else return code;
      if (code === 0) code = await run(step);
    }
  };
  try {
    const steps: string[][] = [
      ['settings', 'set', 'mcp.oauthClientMetadataUrl', CIMD_URL],
      [
        'mcp',
        'add',
        '--name',
        SERVICE,
        '--url',
        url,
        '--description',
        'The conformance suite test server',
        ...clientFlags(home, client.env.MCP_CONFORMANCE_CONTEXT),
      ],
      ['mcp', 'sync', SERVICE, '--accept'],
      ['mcp', 'enable', SERVICE],
    ];
    for (const step of steps) {
      const code = await answered(step);
      if (code !== 0) return code;
    }
    captured = '';
    if ((await run(['mcp', 'tools', SERVICE, '--json'])) !== 0) return 1;
    const listed = JSON.parse(captured) as ListedTool[];
    const calls =
      contextToolCalls(client.env.MCP_CONFORMANCE_CONTEXT) ??
      listed.map(({ name }) => ({ name, arguments: null }));
    for (const { name: tool, arguments: given } of calls) {
      captured = '';
      const code = await run([
        'mcp',
        'call',
        SERVICE,
        tool,
        JSON.stringify(given ?? argumentsFor(tool, listed)),
        // No terminal here: a server's question is answered with its defaults (SEP-1034).
        '--elicit',
        'accept-defaults',
      ]);
      if (code !== 0 && !DECLINED_BY_SERVER.test(captured + errors)) return code;
    }
    return 0;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
