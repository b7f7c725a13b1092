/**
 * The composition root shared by the CLI, `aivory serve` and the Electron main process: one data
 * directory, one store, one logger, the secret store, the tools, the sandbox and the chat service.
 */
import { FileArtifactSink } from '../adapters/artifacts/file-artifact-sink';
import { createSystemResolver } from '../adapters/fetch/host-resolver';
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDir, resolveDataDir } from '../adapters/data-dir';
import { createFileLogger } from '../adapters/logging/file-logger';
import { lazyMcpConnector, lazyOpenAiLlmClient } from '../adapters/lazy-clients';
import { FileSecretStore } from '../adapters/secrets/file-secret-store';
import type { SqliteStore } from '../adapters/sqlite/sqlite-store';
import { openStore } from '../adapters/sqlite/sqlite-store';
import { randomIds, systemClock } from '../adapters/system';
import { limitOverridesFromEnv } from '../core/orchestrator/budgets';
import type { IdGenerator, Logger, SecretStore } from '../core/ports';
import { createSaveMemoryTool } from '../tools/save-memory';
import { createUseSkillTool } from '../tools/use-skill';
import { SkillsService } from './skills-service';
import { ChatService } from './chat-service';
import { SandboxManager } from './sandbox-manager';
import { McpServices } from './mcp/mcp-services';
import { mcpStderrLog } from './mcp/mcp-stderr-log';
import { mcpTurnTools } from './mcp/mcp-turn-tools';
import { backendStatus, prepareTools, SCRATCH_CONVERSATION_ID } from './tool-preparation';
import { SettingsService } from './settings-service';
import type { SettingsKey } from './settings-service';
import type { McpToolName } from './tool-selection';
import { FETCH_IMAGE_NAME } from '../tools/fetch-image';
import { IMAGE_GENERATE_NAME } from '../tools/image-generate';
import { PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { WEB_FETCH_NAME } from '../tools/web-fetch';
import { WEB_SEARCH_NAME } from '../tools/web-search';
import { ToolRegistry } from './tool-registry';

export interface AppContext {
  dataDir: string;
  store: SqliteStore;
  secrets: SecretStore;
  logger: Logger;
  ids: IdGenerator;
  tools: ToolRegistry;
  settings: SettingsService;
  chat: ChatService;
  sandbox: SandboxManager;
  /** The user's MCP services (their tools join turns through the chat service). */
  mcp: McpServices;
  /**
   * Registers tools whose backend must be found first (python_execute needs a sandbox). Pass the
   * turn's tool selection to skip starting a sandbox the turn will not use.
   */
  prepareTools(selection?: readonly string[]): Promise<void>;
  /** Why a backend-dependent tool (python_execute, aivory_web_search) is not registered. */
  toolStatus(name: string): Promise<string | null>;
  /**
   * Call after a settings group changed in a long-running process (desktop, `aivory serve`): the
   * tools built from it are dropped and rebuilt at the next turn; a sandbox change also stops a
   * local sidecar so the next use picks the sandbox again.
   */
  settingsChanged(key: SettingsKey): Promise<void>;
  /** The MCP tools a turn could offer now, as models see them (enabled, synced, accepted). */
  mcpToolNames(): Promise<McpToolName[]>;
  /** Stops a local sandbox (archiving its workspaces) and closes the store. */
  close(): Promise<void>;
}

/** The backend tools each settings group feeds. */
const TOOLS_BY_SETTING: Partial<Record<SettingsKey, readonly string[]>> = {
  search: [WEB_SEARCH_NAME],
  images: [IMAGE_GENERATE_NAME],
  web: [WEB_FETCH_NAME, FETCH_IMAGE_NAME],
  sandbox: [PYTHON_EXECUTE_NAME, FETCH_IMAGE_NAME],
};

export function openAppContext(
  options: {
    env?: Record<string, string | undefined>;
    secrets?: SecretStore;
    /** Pre-started sandbox containers (the long-running desktop app keeps one warm). */
    warmPool?: number;
  } = {},
): AppContext {
  const env = options.env ?? process.env;
  const dataDir = resolveDataDir(env);
  ensureDataDir(dataDir);
  const logger = createFileLogger(join(dataDir, 'logs', 'aivory.log'), {
    minLevel: env.AIVORY_LOG_LEVEL === 'debug' ? 'debug' : 'info',
  });
  const databasePath = join(dataDir, 'aivory.db');
  const store = openStore(databasePath);
  restrictToOwner([databasePath, `${databasePath}-wal`, `${databasePath}-shm`]);
  const secrets = options.secrets ?? new FileSecretStore(join(dataDir, 'secrets.json'));
  const ids = randomIds;
  const skills = new SkillsService(store);
  const tools = new ToolRegistry(
    [createSaveMemoryTool({ memories: store, ids }), createUseSkillTool({ skills })],
    () => store.getToolAvailability(),
  );
  const settings = new SettingsService(store, logger);
  const artifacts = new FileArtifactSink(env.AIVORY_ARTIFACTS_DIR ?? join(dataDir, 'artifacts'));
  const mcp = new McpServices({
    store: store.mcp,
    secrets,
    connector: lazyMcpConnector(),
    resolver: createSystemResolver(),
    clock: systemClock,
    ids,
    logger,
    allowLocalCommands: () => settings.get('mcp').allowLocalCommands,
    stderrSink: mcpStderrLog(join(dataDir, 'logs', 'mcp')),
  });
  const turnMcp = mcpTurnTools({
    services: mcp,
    store: store.mcp,
    artifacts,
    scratchConversationId: SCRATCH_CONVERSATION_ID,
  });
  const chat = new ChatService({
    store,
    tools,
    createLlmClient: (model) =>
      lazyOpenAiLlmClient({ baseUrl: model.baseUrl, apiKey: model.apiKey }),
    clock: systemClock,
    ids,
    logger,
    limitOverrides: limitOverridesFromEnv(env),
    attachments: new FileArtifactSink(join(dataDir, 'uploads')),
    mcp: turnMcp,
  });
  const sandbox = new SandboxManager({
    env,
    settings,
    secrets,
    dataDir,
    logger,
    ...(options.warmPool === undefined ? {} : { warmPool: options.warmPool }),
  });
  const preparation = { env, dataDir, store, secrets, settings, sandbox, tools };
  return {
    dataDir,
    store,
    secrets,
    logger,
    ids,
    tools,
    settings,
    chat,
    sandbox,
    mcp,
    prepareTools: (selection) => prepareTools(preparation, selection),
    toolStatus: (name) => backendStatus(preparation, name),
    mcpToolNames: async () =>
      (await turnMcp.tools(new Set(tools.available().map((tool) => tool.name)))).map((entry) => ({
        name: entry.tool.name,
        serviceId: entry.serviceId,
        serviceName: entry.serviceName,
      })),
    settingsChanged: async (key) => {
      for (const name of TOOLS_BY_SETTING[key] ?? []) tools.unregister(name);
      if (key === 'sandbox') await sandbox.reset();
    },
    close: async () => {
      try {
        await mcp.close();
        await sandbox.close();
      } finally {
        store.close();
      }
    },
  };
}

/** Conversations are private: the database files are readable by their owner only. */
function restrictToOwner(paths: readonly string[]): void {
  if (process.platform === 'win32') return;
  for (const path of paths) if (existsSync(path)) chmodSync(path, 0o600);
}
