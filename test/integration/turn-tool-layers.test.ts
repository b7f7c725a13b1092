/**
 * Which tools a turn offers, decided once by the chat service over a real SQLite store: the global
 * switch > a one-off selection (CLI `--tools` / `--mcp`) or the model's defaults > the
 * conversation's switches. The tools come from a `ToolCatalog` with an always-there tool, tools
 * built per turn (one of them without its backend) and MCP tools; each case checks what the
 * scripted model was offered and what the catalog was asked to build.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileArtifactSink } from '../../src/main/adapters/artifacts/file-artifact-sink';
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { ResolvedModel, TurnRequest } from '../../src/main/services/chat-service';
import { ChatService } from '../../src/main/services/chat-service';
import { ToolCatalog } from '../../src/main/services/tool-catalog';
import type { ScriptedLlmServer } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { echoTool } from '../support/fake-tools';
import { recordingLogger } from '../support/turn-harness';

/** Every name a turn could be offered here: built-ins, then the MCP tools. */
const ALL = ['memo', 'fetcher', 'sandboxed', 'notes__read', 'notes__write', 'mail__send'];

interface Fixture {
  store: SqliteStore;
  server: ScriptedLlmServer;
  model: ResolvedModel;
  /** Runs one turn; returns its conversation id. */
  turn(request: Partial<TurnRequest>): Promise<string>;
  /** The tools the last request to the model offered (prompt mode: `### name` in the preamble). */
  offered(): string[];
  /** The names the catalog was asked to build, per turn. */
  builds: string[][];
  /** Every tool name the last request offered. */
  offeredAll(): string[];
  logger: ReturnType<typeof recordingLogger>;
}

const open: Fixture[] = [];

/** `bulk`: that many tools of a `bulk` service listed before the others (the request cap). */
async function fixture(options: { bulk?: number } = {}): Promise<Fixture> {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-layers-'));
  const store = openStore(join(directory, 'aivory.db'));
  let counter = 0;
  const ids = { next: (prefix: string) => `${prefix}_${++counter}` };
  const builds: string[][] = [];
  const tools = new ToolCatalog({
    builtIns: [echoTool('memo')],
    prepared: {
      names: ['fetcher', 'sandboxed'],
      // `sandboxed` has no backend here, like python_execute without a sandbox.
      build: (name) => Promise.resolve(name === 'fetcher' ? echoTool('fetcher') : null),
      status: (name) => Promise.resolve(name === 'sandboxed' ? 'no sandbox configured' : null),
    },
    mcp: {
      tools: () =>
        Promise.resolve([
          ...Array.from({ length: options.bulk ?? 0 }, (_, index) => ({
            tool: echoTool(`bulk__t${index}`),
            serviceId: 'mcp_bulk',
            serviceName: 'bulk',
          })),
          { tool: echoTool('notes__read'), serviceId: 'mcp_notes', serviceName: 'notes' },
          { tool: echoTool('notes__write'), serviceId: 'mcp_notes', serviceName: 'notes' },
          { tool: echoTool('mail__send'), serviceId: 'mcp_mail', serviceName: 'mail' },
        ]),
    },
    switches: () => store.settings.getToolAvailability(),
  });
  const recording = {
    candidates: () => tools.candidates(),
    build: (names: readonly string[]) => {
      builds.push([...names]);
      return tools.build(names);
    },
  };
  const logger = recordingLogger();
  const chat = new ChatService({
    conversations: store.conversations,
    memories: store.memories,
    skills: store.library,
    settings: store.settings,
    tools: recording,
    createLlmClient: (model) =>
      new OpenAiLlmClient({ baseUrl: model.baseUrl, apiKey: model.apiKey, maxRetries: 0 }),
    clock: { now: () => Date.now() },
    ids,
    logger,
    limitOverrides: {},
    attachments: new FileArtifactSink(join(directory, 'uploads')),
  });
  const server = await startScriptedLlmServer(() => ({ content: 'ok' }));
  const model: ResolvedModel = {
    id: null,
    baseUrl: server.baseUrl,
    apiKey: null,
    model: 'scripted-model',
    toolMode: 'prompt',
    contextWindow: 32_768,
    defaultTools: null,
    defaultMcpServices: null,
  };
  const result: Fixture = {
    store,
    server,
    model,
    builds,
    turn: async (request) => {
      let conversationId = '';
      for await (const event of chat.runTurn(
        { text: 'go', model, mode: 'normal', ...request },
        new AbortController().signal,
      )) {
        if (event.type === 'turn-start') conversationId = event.conversationId;
      }
      return conversationId;
    },
    offered: () => {
      const system = (server.requests.at(-1)?.body.messages as { content: string }[])[0]?.content;
      return ALL.filter((name) => system?.includes(`### ${name}\n`));
    },
    offeredAll: () => {
      const system = (server.requests.at(-1)?.body.messages as { content: string }[])[0]?.content;
      return [...(system ?? '').matchAll(/^### (\S+)$/gm)].map((match) => match[1] ?? '');
    },
    logger,
  };
  open.push(result);
  return result;
}

afterEach(async () => {
  for (const item of open.splice(0)) {
    await item.server.close();
    item.store.close();
  }
});

describe('the tools of a turn', () => {
  it('no defaults, no switches: every tool that can run; one without its backend is left out', async () => {
    const { turn, offered, builds } = await fixture();
    await turn({});
    expect(offered()).toEqual(['memo', 'fetcher', 'notes__read', 'notes__write', 'mail__send']);
    expect(builds).toEqual([ALL]);
  });

  it("model defaults: only the model's built-in tools and its MCP services' tools", async () => {
    const { turn, offered, builds, model } = await fixture();
    await turn({ model: { ...model, defaultTools: ['fetcher'], defaultMcpServices: ['notes'] } });
    expect(offered()).toEqual(['fetcher', 'notes__read', 'notes__write']);
    // Only the picked names are built: nothing starts a sandbox the turn does not offer.
    expect(builds).toEqual([['fetcher', 'notes__read', 'notes__write']]);
    await turn({ model: { ...model, defaultTools: [], defaultMcpServices: [] } });
    expect(offered()).toEqual([]);
  });

  it("conversation on: a tool outside the model's defaults is offered (and built) in that conversation only", async () => {
    const { turn, offered, builds, store, model } = await fixture();
    const saved = { ...model, defaultTools: ['memo'], defaultMcpServices: [] };
    const conversationId = await turn({ model: saved });
    expect(offered()).toEqual(['memo']);
    store.conversations.setConversationToolToggles(conversationId, {
      fetcher: true,
      mail__send: true,
    });
    await turn({ model: saved, conversationId });
    expect(offered()).toEqual(['memo', 'fetcher', 'mail__send']);
    expect(builds.at(-1)).toEqual(['memo', 'fetcher', 'mail__send']);
    await turn({ model: saved });
    expect(offered()).toEqual(['memo']);
  });

  it("conversation off: a tool of the model's defaults is not offered in that conversation", async () => {
    const { turn, offered, store } = await fixture();
    const conversationId = await turn({});
    store.conversations.setConversationToolToggles(conversationId, {
      memo: false,
      notes__write: false,
    });
    await turn({ conversationId });
    expect(offered()).toEqual(['fetcher', 'notes__read', 'mail__send']);
  });

  it('global off: removed from every turn, whatever the model or the conversation says', async () => {
    const { turn, offered, store, model } = await fixture();
    const conversationId = await turn({});
    store.conversations.setConversationToolToggles(conversationId, {
      fetcher: true,
      notes__read: true,
    });
    store.settings.setToolAvailability('fetcher', false);
    store.settings.setToolAvailability('notes__read', false);
    await turn({
      conversationId,
      model: { ...model, defaultTools: ['fetcher', 'memo'], defaultMcpServices: ['notes'] },
    });
    expect(offered()).toEqual(['memo', 'notes__write']);
    await turn({ conversationId, tools: ['memo'], mcpServices: ['notes'] });
    expect(offered()).toEqual(['memo', 'notes__write']);
    await expect(turn({ tools: ['fetcher'] })).rejects.toThrow(
      'Tool "fetcher" is switched off in settings. Available tools: memo, sandboxed, notes__write, mail__send.',
    );
  });

  it("CLI --tools: exactly this turn's tools, over the model's defaults and the conversation's switches", async () => {
    const { turn, offered, store, model } = await fixture();
    const saved = { ...model, defaultTools: ['memo'] };
    const conversationId = await turn({ model: saved });
    store.conversations.setConversationToolToggles(conversationId, { memo: false, fetcher: true });
    await turn({ model: saved, conversationId, tools: ['memo'] });
    expect(offered()).toEqual(['memo']);
    // No --mcp with --tools: no MCP tools; with it, that service's tools.
    await turn({ model: saved, conversationId, tools: ['fetcher'], mcpServices: ['mail'] });
    expect(offered()).toEqual(['fetcher', 'mail__send']);
    await turn({ model: saved, conversationId, tools: [] });
    expect(offered()).toEqual([]);
    // The conversation's switches still hold for its next turn without --tools.
    await turn({ model: saved, conversationId });
    expect(offered()).toEqual(['fetcher', 'notes__read', 'notes__write', 'mail__send']);
    await expect(turn({ tools: ['nope'] })).rejects.toThrow('Tool "nope" does not exist.');
    await expect(turn({ tools: ['sandboxed'] })).rejects.toThrow(
      'Tool "sandboxed" is not available: no sandbox configured',
    );
  });

  it("CLI --mcp without --tools replaces the model's MCP services; the switches still apply", async () => {
    const { turn, offered, store, model } = await fixture();
    const saved = { ...model, defaultTools: ['memo'], defaultMcpServices: ['notes'] };
    const conversationId = await turn({ model: saved, mcpServices: ['mcp_mail'] });
    expect(offered()).toEqual(['memo', 'mail__send']);
    store.conversations.setConversationToolToggles(conversationId, {
      mail__send: false,
      notes__read: true,
    });
    await turn({ model: saved, conversationId, mcpServices: ['mail'] });
    expect(offered()).toEqual(['memo', 'notes__read']);
  });

  it('offers at most 128 tools: the built-ins stay, the last MCP tools go, with a warning', async () => {
    const { turn, offered, offeredAll, logger } = await fixture({ bulk: 130 });
    await turn({});
    const all = offeredAll();
    expect(all).toHaveLength(128);
    expect(all.slice(0, 2)).toEqual(['memo', 'fetcher']);
    expect(offered()).toEqual(['memo', 'fetcher']);
    const warning = logger.entries.find((entry) => entry.message.startsWith('too many tools'));
    expect(warning?.message).toContain('7 of 135 left out (at most 128');
    expect(warning?.level).toBe('warn');
    // A turn that chooses its services stays under the cap: nothing is left out.
    await turn({ mcpServices: ['mail', 'notes'] });
    expect(offeredAll()).toEqual(['memo', 'fetcher', 'notes__read', 'notes__write', 'mail__send']);
  });
});
