/**
 * The composition root shared by the CLI, `aivory serve` and the Electron main process: one data
 * directory, one store, one logger, the secret store, the tools, the sandbox and the chat service.
 */
import { FileArtifactSink } from '../adapters/artifacts/file-artifact-sink';
import { createSystemResolver } from '../adapters/fetch/host-resolver';
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDir, resolveDataDir } from '../adapters/data-dir';
import { createFileLogger } from '../adapters/logging/file-logger';
import { machineMemoryMiB } from '../adapters/machine-memory';
import {
  lazyMcpConnector,
  lazyOpenAiLlmClient,
  loadOpenAiLlmClient,
} from '../adapters/lazy-clients';
import { connectSandbox } from '../adapters/sandbox-client/sandbox-client';
import { recoverInterruptedRestore } from '../adapters/backup/restore-marker';
import { FileSecretStore } from '../adapters/secrets/file-secret-store';
import type { ConnectionInfo, UpgradeSnapshot } from '../adapters/sqlite/sqlite-store';
import { openStore } from '../adapters/sqlite/sqlite-store';
import { randomIds, systemClock } from '../adapters/system';
import { limitOverridesFromEnv } from '../core/orchestrator/budgets';
import { McpError } from '../core/ports';
import type { StorageError } from '../../shared/errors';
import type { AppStores, IdGenerator, Logger, SecretStore } from '../core/ports';
import { createSaveMemoryTool } from '../tools/save-memory';
import { createUseSkillTool } from '../tools/use-skill';
import { SkillsService } from '../services/skills-service';
import type { ChatService } from '../services/chat-service';
import { UnsavedAnswerEnds } from '../services/unsaved-answer-ends';
import { ConversationTitles } from '../services/conversation-titles';
import { SandboxManager } from '../services/sandbox-manager';
import { McpServices } from '../services/mcp/mcp-services';
import { loopbackSignIn } from '../adapters/oauth/loopback-sign-in';
import { cliWord } from '../services/mcp/mcp-oauth-state';
import { openBrowser } from '../adapters/oauth/open-browser';
import { SIGN_IN_TIMEOUT_MS } from '../../shared/mcp';
import { mcpStderrLog, mcpStderrLogPath } from '../services/mcp/mcp-stderr-log';
import { backendStatus, buildPreparedTool, PREPARED_TOOLS } from './tool-preparation';
import { SCRATCH_CONVERSATION_ID } from '../services/workspace-staging';
import { ModelsService } from '../services/models-service';
import { SettingsService } from '../services/settings-service';
import type { SettingsKey } from '../services/settings-service';
import { ToolCatalog } from '../services/tool-catalog';
import type { TurnMcpTools } from '../services/tool-catalog';
import type { BackupService, createBackupService } from './backups';
import { BackupStatusBook } from '../services/backup-status';
import { BackupScheduler } from '../services/backup-scheduler';
import { isProcessAlive } from '../adapters/sqlite/streaming-recovery';

export interface AppContext {
  dataDir: string;
  /** One store per aggregate (one SQLite file behind them all). */
  stores: AppStores;
  /**
   * The database file's pragmas and schema version, a full read of it that reports damage and
   * the copies kept from before schema upgrades (`aivory doctor`).
   */
  database: {
    connectionInfo(): ConnectionInfo;
    checkIntegrity(): StorageError | null;
    upgradeSnapshots(): UpgradeSnapshot[];
  };
  secrets: SecretStore;
  /**
   * Backups of this data folder: written, then read back whole before they count; each one's
   * outcome recorded in `backupStatus`, one at a time across processes.
   */
  backups: BackupService;
  /** Answer ends the store refused, waiting to be written: what a window shows meanwhile. */
  unsavedAnswerEnds: Pick<UnsavedAnswerEnds, 'endOf'>;
  /** The last backup attempt and the last good one, as every process reads them. */
  backupStatus: BackupStatusBook;
  /**
   * Automatic backups: running only in the long-running hosts (`scheduleBackups`); "Back up now"
   * makes the backup the schedule would.
   */
  backupScheduler: BackupScheduler;
  logger: Logger;
  ids: IdGenerator;
  /** The app's tools: what a turn could offer, built per turn; listings for `aivory tools`. */
  tools: ToolCatalog;
  settings: SettingsService;
  /** The saved models: lookup, a turn's or conversation's model, saving with the key rules. */
  models: ModelsService;
  /**
   * The chat service, made on first use: its modules (the turn loop, the message schemas) are
   * not loaded by commands that never chat (`aivory tools`, `conversations list`; issue 24).
   */
  chat(): Promise<ChatService>;
  /**
   * Loads what the first turn would (the chat service, the model client's SDK, undici), one
   * module a step: `aivory serve` calls it when idle after start so that its first turn holds
   * the thread no longer than the next (each load holds it once, 5–110 ms; issue 37, item 11).
   */
  warmUp(): Promise<void>;
  /**
   * Titles the conversations' models write after their first answer: `onTitled` tells the
   * windows, `settled` lets the CLI wait for a request under way before it exits.
   */
  titles: Pick<ConversationTitles, 'onTitled' | 'settled'>;
  sandbox: SandboxManager;
  /** The user's MCP services (their tools join turns through the chat service). */
  mcp: McpServices;
  /** Why a built-in tool (python_execute, aivory_web_search, …) cannot be offered now, or null. */
  toolStatus(name: string): Promise<string | null>;
  /**
   * Call after a settings group changed in a long-running process (desktop, `aivory serve`): a
   * sandbox change stops a local sidecar so the next use picks the sandbox again. (Tools are
   * built per turn from the current settings and need nothing.)
   */
  settingsChanged(key: SettingsKey): Promise<void>;
  /** Stops a local sandbox (archiving its workspaces) and closes the store. */
  /** Closes everything; returns warnings the user must read (workspaces that were not saved). */
  close(): Promise<string[]>;
}

export function openAppContext(
  options: {
    env?: Record<string, string | undefined>;
    secrets?: SecretStore;
    /** Pre-started sandbox containers (the long-running desktop app keeps one warm). */
    warmPool?: number;
    /**
     * Whether a person sees an OAuth sign-in link when no browser opens (the app's window, a
     * terminal). When false, a sign-in whose browser cannot be started fails at once. Default true.
     */
    signInLinkSeen?: boolean;
    /**
     * Makes automatic backups while open (the desktop app, `aivory serve`); checked every
     * `AIVORY_BACKUP_CHECK_MS` (tests), else every few minutes.
     */
    scheduleBackups?: boolean;
  } = {},
): AppContext {
  const env = options.env ?? process.env;
  const dataDir = resolveDataDir(env);
  ensureDataDir(dataDir);
  const logger = createFileLogger(join(dataDir, 'logs', 'aivory.log'), {
    minLevel: env.AIVORY_LOG_LEVEL === 'debug' ? 'debug' : 'info',
  });
  const databasePath = join(dataDir, 'aivory.db');
  // A restore under way (or killed mid-swap, then undone here) comes before the database opens.
  recoverInterruptedRestore(dataDir);
  const store = openStore(databasePath);
  restrictToOwner([databasePath, `${databasePath}-wal`, `${databasePath}-shm`]);
  if (store.upgrade !== null)
    logger.info('database upgraded', {
      path: databasePath,
      fromVersion: store.upgrade.fromVersion,
      toVersion: store.upgrade.toVersion,
      copyBeforeUpgrade: store.upgrade.snapshotPath,
    });
  const secrets = options.secrets ?? new FileSecretStore(join(dataDir, 'secrets.json'));
  const ids = randomIds;
  const stores: AppStores = {
    conversations: store.conversations,
    memories: store.memories,
    settings: store.settings,
    library: store.library,
    mcp: store.mcp,
    knowledge: store.knowledge,
  };
  const skills = new SkillsService(stores.library);
  const settings = new SettingsService(stores.settings, logger, machineMemoryMiB());
  const models = new ModelsService({ settings: stores.settings, secrets, ids });
  const artifacts = new FileArtifactSink(env.AIVORY_ARTIFACTS_DIR ?? join(dataDir, 'artifacts'));
  const mcp = new McpServices({
    store: stores.mcp,
    secrets,
    connector: lazyMcpConnector(),
    resolver: createSystemResolver(),
    clock: systemClock,
    ids,
    logger,
    allowLocalCommands: () => settings.get('mcp').allowLocalCommands,
    logLevel: (service) => {
      const { logLevel, serviceLogLevels } = settings.get('mcp');
      return serviceLogLevels[service.name] ?? logLevel;
    },
    stderrSink: mcpStderrLog(join(dataDir, 'logs', 'mcp')),
    stderrLogPath: (serviceId) => mcpStderrLogPath(join(dataDir, 'logs', 'mcp'), serviceId),
    signIn: (service, announce) =>
      loopbackSignIn({
        label: service.name,
        timeoutMs: SIGN_IN_TIMEOUT_MS,
        show: async (url) => {
          announce(url);
          const opened = await openBrowser(url.href, env);
          // Nobody to open the link by hand (the CLI in a script or a pipe): say how, now,
          // rather than wait for a redirect that cannot come.
          if (!opened && options.signInLinkSeen === false)
            throw new McpError(
              'unauthorized',
              `${service.name} needs you to sign in (OAuth), but no browser could be opened and there is no terminal to show its link: run aivory mcp login ${cliWord(service.name)} in a terminal, or set $BROWSER`,
            );
        },
      }),
    oauthClientMetadataUrl: () => settings.get('mcp').oauthClientMetadataUrl || undefined,
  });
  const mcpToolParts = {
    services: mcp,
    store: stores.mcp,
    artifacts,
    scratchConversationId: SCRATCH_CONVERSATION_ID,
  };
  // Loaded when a turn (or `aivory tool`) asks for MCP tools: a listing of built-ins never does.
  const turnMcp: TurnMcpTools = {
    tools: async (reserved) =>
      (await import('../services/mcp/mcp-turn-tools')).mcpTurnTools(mcpToolParts).tools(reserved),
    readers: async (serviceIds, reserved) =>
      (await import('../services/mcp/mcp-resource-reader')).buildResourceReaders(
        mcpToolParts,
        serviceIds,
        reserved,
      ),
  };
  const sandbox = new SandboxManager({
    env,
    settings,
    secrets,
    dataDir,
    logger,
    connect: connectSandbox,
    ...(options.warmPool === undefined ? {} : { warmPool: options.warmPool }),
  });
  const preparation = { env, dataDir, stores, secrets, settings, sandbox };
  const tools = new ToolCatalog({
    builtIns: [
      createSaveMemoryTool({ memories: stores.memories, ids }),
      createUseSkillTool({ skills }),
    ],
    prepared: {
      names: PREPARED_TOOLS,
      build: (name) => buildPreparedTool(preparation, name),
      status: (name) => backendStatus(preparation, name),
    },
    mcp: turnMcp,
    switches: () => stores.settings.getToolAvailability(),
  });
  const titles = new ConversationTitles({ conversations: stores.conversations, logger });
  const unsavedAnswerEnds = new UnsavedAnswerEnds({ conversations: stores.conversations, logger });
  // Read at open: a wrong AIVORY_MAX_* value fails the start, not the first turn.
  const limitOverrides = limitOverridesFromEnv(env);
  let chat: Promise<ChatService> | null = null;
  const chatService = (): Promise<ChatService> =>
    (chat ??= import('../services/chat-service').then(
      ({ ChatService }) =>
        new ChatService({
          conversations: stores.conversations,
          unsavedEnds: unsavedAnswerEnds,
          memories: stores.memories,
          skills: stores.library,
          settings: stores.settings,
          tools,
          createLlmClient: (model) =>
            lazyOpenAiLlmClient({ baseUrl: model.baseUrl, apiKey: model.apiKey }),
          clock: systemClock,
          ids,
          logger,
          limitOverrides,
          attachments: new FileArtifactSink(join(dataDir, 'uploads')),
          prompts: stores.library,
          titles,
          samplingAlwaysAllow: {
            has: (serviceId) => settings.get('mcp').samplingAlwaysAllow.includes(serviceId),
            add: (serviceId) => {
              const list = settings.get('mcp').samplingAlwaysAllow;
              if (!list.includes(serviceId))
                settings.update('mcp', { samplingAlwaysAllow: [...list, serviceId] });
            },
          },
        }),
    ));
  const backupStatus = new BackupStatusBook(stores.settings, systemClock, logger, isProcessAlive);
  const backups = recordedBackups(
    lazyBackups({
      dataDir,
      env,
      copyDatabase: (target, signal) => store.copyTo(target, signal),
      secrets,
    }),
    backupStatus,
  );
  const backupScheduler = new BackupScheduler({
    settings,
    secrets,
    book: backupStatus,
    // Under the book's claim already (the scheduler records through it).
    backups: backups.unrecorded,
    clock: systemClock,
    logger,
    ...backupCheckInterval(env),
  });
  if (options.scheduleBackups === true) backupScheduler.start();
  return {
    dataDir,
    stores,
    database: store,
    secrets,
    unsavedAnswerEnds,
    backups: backups.recorded,
    backupStatus,
    backupScheduler,
    logger,
    ids,
    tools,
    settings,
    models,
    chat: chatService,
    warmUp: async () => {
      await chatService();
      await new Promise((resolve) => setImmediate(resolve));
      await loadOpenAiLlmClient();
    },
    titles,
    sandbox,
    mcp,
    toolStatus: (name) => tools.status(name),
    settingsChanged: async (key) => {
      if (key === 'sandbox') await sandbox.reset();
      if (key === 'mcp') await mcp.applyLogLevels();
    },
    close: async () => {
      try {
        // A backup under way is canceled (nothing of it kept) before the store closes under it.
        await backupScheduler.stop();
        // The running turns end first (stored as interrupted, no further model request): the
        // sandbox and the MCP servers are stopped only under turns that are over.
        if (chat) await (await chat).close();
        // A title request still running is given up (the CLI waits for it before closing).
        titles.stop();
        await titles.settled();
        await mcp.close();
        return await sandbox.close();
      } finally {
        store.close();
      }
    },
  };
}

/**
 * Conversations are private: the database files are readable by their owner only. A file that
 * already has that mode is left alone (a chmod would fail on a read-only mount for nothing).
 */
function restrictToOwner(paths: readonly string[]): void {
  if (process.platform === 'win32') return;
  for (const path of paths) {
    const mode = statSync(path, { throwIfNoEntry: false })?.mode;
    if (mode !== undefined && (mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  }
}

/**
 * `service` whose backups record their outcome in `book` under its claim (`recorded`), and the
 * same service as it is (`unrecorded`) for the scheduler, which records through the book itself.
 */
function recordedBackups(
  service: BackupService,
  book: BackupStatusBook,
): { recorded: BackupService; unrecorded: BackupService } {
  return {
    unrecorded: service,
    recorded: {
      defaultFolder: service.defaultFolder,
      verify: (file, signal) => service.verify(file, signal),
      create: (options) =>
        book.attempt(options.destination ?? service.defaultFolder, () => service.create(options)),
    },
  };
}

/** `AIVORY_BACKUP_CHECK_MS`: how often a test's host checks the schedule. */
function backupCheckInterval(env: Record<string, string | undefined>): { checkEveryMs?: number } {
  const value = Number(env.AIVORY_BACKUP_CHECK_MS);
  return Number.isInteger(value) && value >= 50 ? { checkEveryMs: value } : {};
}

/**
 * The backup service, its modules (tar-stream, the reader, scrypt) loaded at first use: most
 * commands never back up.
 */
function lazyBackups(options: Parameters<typeof createBackupService>[0]): BackupService {
  let service: Promise<BackupService> | null = null;
  const load = (): Promise<BackupService> =>
    (service ??= import('./backups').then((module) => module.createBackupService(options)));
  return {
    defaultFolder: join(options.dataDir, 'backups'),
    create: async (create) => (await load()).create(create),
    verify: async (file, signal) => (await load()).verify(file, signal),
  };
}
