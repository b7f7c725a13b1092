/**
 * The composition root shared by the CLI, `aivory serve` and the Electron main process: one data
 * directory, one store, one logger, the secret store, the tools, the sandbox and the chat service.
 */
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDir, resolveDataDir } from '../adapters/data-dir';
import { createFileLogger } from '../adapters/logging/file-logger';
import { OpenAiLlmClient } from '../adapters/openai/openai-llm-client';
import { FileSecretStore } from '../adapters/secrets/file-secret-store';
import type { SqliteStore } from '../adapters/sqlite/sqlite-store';
import { openStore } from '../adapters/sqlite/sqlite-store';
import { randomIds, systemClock } from '../adapters/system';
import { limitOverridesFromEnv } from '../core/orchestrator/budgets';
import type { IdGenerator, Logger, SecretStore } from '../core/ports';
import { createSaveMemoryTool } from '../tools/save-memory';
import { FileArtifactSink } from '../adapters/artifacts/file-artifact-sink';
import type { SandboxClient } from '../adapters/sandbox-client/sandbox-client';
import type { PythonSandbox } from '../tools/python-execute';
import { createPythonExecuteTool, PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { ChatService } from './chat-service';
import { SandboxManager } from './sandbox-manager';
import { SettingsService } from './settings-service';
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
  /**
   * Registers tools whose backend must be found first (python_execute needs a sandbox). Pass the
   * turn's tool selection to skip starting a sandbox the turn will not use.
   */
  prepareTools(selection?: readonly string[]): Promise<void>;
  /** Stops a local sandbox (archiving its workspaces) and closes the store. */
  close(): Promise<void>;
}

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
  const tools = new ToolRegistry([createSaveMemoryTool({ memories: store, ids })], () =>
    store.getToolAvailability(),
  );
  const chat = new ChatService({
    store,
    tools,
    createLlmClient: (model) =>
      new OpenAiLlmClient({ baseUrl: model.baseUrl, apiKey: model.apiKey }),
    clock: systemClock,
    ids,
    logger,
    limitOverrides: limitOverridesFromEnv(env),
  });
  const settings = new SettingsService(store, logger);
  const sandbox = new SandboxManager({
    env,
    settings,
    secrets,
    dataDir,
    logger,
    ...(options.warmPool === undefined ? {} : { warmPool: options.warmPool }),
  });
  const prepareTools = async (selection?: readonly string[]): Promise<void> => {
    if (selection && !selection.includes(PYTHON_EXECUTE_NAME)) return;
    if (store.getToolAvailability()[PYTHON_EXECUTE_NAME] === false) return;
    const { client } = await sandbox.resolve();
    if (!client) return;
    tools.register(
      createPythonExecuteTool({
        sandbox: conversationSandbox(client),
        artifacts: new FileArtifactSink(env.AIVORY_ARTIFACTS_DIR ?? join(dataDir, 'artifacts')),
        timeoutSeconds: settings.get('sandbox').execTimeoutSeconds,
        scratchConversationId: 'aivory-cli-scratch',
      }),
    );
  };
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
    prepareTools,
    close: async () => {
      try {
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

/** python_execute's view of the sandbox: one session per conversation, files by path. */
function conversationSandbox(client: SandboxClient): PythonSandbox {
  return {
    sessionFor: (conversationId, signal) => client.createSession(conversationId, signal),
    exec: (sessionId, code, timeoutSeconds, signal) =>
      client.exec(sessionId, code, timeoutSeconds, signal),
    download: (sessionId, path, signal) => client.download(sessionId, path, signal),
  };
}
