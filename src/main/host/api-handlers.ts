/**
 * The transport-neutral API: one handler per contract method, composed from the domain files in
 * `handlers/`, plus the dispatcher that validates senders and payloads. The Electron IPC layer and
 * the `aivory serve` WebSocket both call the `dispatch` built here.
 */
import type { AppContext } from '../composition/app-context';
import { ApprovalBroker } from './approval-broker';
import { ElicitationBroker } from './elicitation-broker';
import { SamplingBroker } from './sampling-broker';
import type { ApiHandlers, Dispatch } from './dispatcher';
import { createDispatcher } from './dispatcher';
import { EventHub } from './event-hub';
import type { DiscoveryCandidate, HostContext } from './host-context';
import { DEFAULT_DISCOVERY_CANDIDATES } from './host-context';
import { createChatHandlers } from './handlers/chat-handlers';
import { createConversationHandlers } from './handlers/conversation-handlers';
import { createConversationToolsHandlers } from './handlers/conversation-tools-handlers';
import { createConversationSettingsHandlers } from './handlers/conversation-settings-handlers';
import type { DesktopShell } from './handlers/files-handlers';
import { createFilesHandlers } from './handlers/files-handlers';
import { createLibraryHandlers } from './handlers/library-handlers';
import { createModelHandlers } from './handlers/model-handlers';
import { createSettingsHandlers } from './handlers/settings-handlers';
import { createApprovalHandlers } from './handlers/approval-handlers';
import { createElicitationHandlers } from './handlers/elicitation-handlers';
import { createSamplingHandlers } from './handlers/sampling-handlers';
import { createLibraryEditHandlers } from './handlers/library-edit-handlers';
import { createMcpHandlers } from './handlers/mcp-handlers';
import { createMcpImportHandlers } from './handlers/mcp-import-handlers';
import { createMcpRootsHandlers } from './handlers/mcp-roots-handlers';
import { createSettingsPageHandlers } from './handlers/settings-page-handlers';
import { createSecretsHandlers } from './handlers/secrets-handlers';
import { createSandboxHandlers } from './handlers/sandbox-handlers';
import { createExportAllHandlers } from './handlers/export-all-handlers';
import { backupView, createBackupHandlers } from './handlers/backup-handlers';
import type { SecretStorageStatus } from '../../shared/ipc/secrets-methods';
import type { SenderPolicy } from './sender';

/** Version reported by `app.status` (kept in step with package.json by a unit test). */
export const APP_VERSION = '0.1.0';

/** Every handler of the contract, over one host context. */
export function createApiHandlers(context: HostContext): ApiHandlers {
  return {
    ...createModelHandlers(context),
    ...createConversationHandlers(context),
    ...createChatHandlers(context),
    ...createSettingsHandlers(context),
    ...createLibraryHandlers(context),
    ...createConversationToolsHandlers(context),
    ...createConversationSettingsHandlers(context),
    ...createFilesHandlers(context),
    ...createMcpHandlers(context),
    ...createMcpRootsHandlers(context),
    ...createMcpImportHandlers(context),
    ...createApprovalHandlers(context),
    ...createElicitationHandlers(context),
    ...createSamplingHandlers(context),
    ...createSettingsPageHandlers(context),
    ...createSecretsHandlers(context),
    ...createSandboxHandlers(context),
    ...createLibraryEditHandlers(context),
    ...createExportAllHandlers(context),
    ...createBackupHandlers(context),
  };
}

/** What a transport needs: the dispatch function and the event hub. */
export interface ApiHost {
  dispatch: Dispatch;
  events: EventHub;
  /** MCP approvals waiting for a window's answer. */
  approvals: ApprovalBroker;
  /** MCP servers' questions waiting for a window's answer. */
  elicitations: ElicitationBroker;
  /** MCP servers' sampling requests waiting for a window's approval. */
  samplings: SamplingBroker;
}

/** The sender policy and start-up environment of one host. */
export interface ApiHostOptions {
  policy: SenderPolicy;
  env: Record<string, string | undefined>;
  discoveryCandidates?: readonly DiscoveryCandidate[];
  /** The Electron shell's file opener (`files.open` / `files.reveal`); absent in the browser. */
  desktop?: DesktopShell;
  /** The Electron shell's verdict on how saved keys are protected (`secrets.status`). */
  secretStorage?: SecretStorageStatus;
}

/** The handlers, the event hub and the dispatcher over an opened AppContext. */
export function createApiHost(app: AppContext, options: ApiHostOptions): ApiHost {
  const events = new EventHub(app.logger);
  const approvals = new ApprovalBroker({ events, ids: app.ids });
  const elicitations = new ElicitationBroker({ events, ids: app.ids });
  const samplings = new SamplingBroker({ events, ids: app.ids });
  app.mcp.onStale((serviceId) => {
    const name = app.stores.mcp.getService(serviceId)?.name ?? serviceId;
    events.publish('mcp.stale', { serviceId, name });
  });
  // A conversation's model gave it a title after its first answer: the sidebar shows it.
  app.titles.onTitled((conversation) => {
    events.publish('conversations.updated', { conversation });
  });
  app.mcp.onLibraryChanged((serviceId) => {
    events.publish('mcp.libraryChanged', { serviceId });
  });
  // Watched resources are for a window to show: none left, none watched.
  events.onEmpty(() => void app.mcp.unwatchAllResources());
  app.mcp.onSignInPage((page) => {
    events.publish('mcp.signInPage', {
      serviceId: page.serviceId,
      name: page.serviceName,
      url: page.url,
    });
  });
  const hostContext: HostContext = {
    app,
    env: options.env,
    events,
    approvals,
    elicitations,
    samplings,
    version: APP_VERSION,
    discoveryCandidates: options.discoveryCandidates ?? DEFAULT_DISCOVERY_CANDIDATES,
    ...(options.desktop ? { desktop: options.desktop } : {}),
    ...(options.secretStorage ? { secretStorage: options.secretStorage } : {}),
  };
  const handlers = createApiHandlers(hostContext);
  // A backup started, ended or failed (here, or noticed from another process): never silent.
  app.backupStatus.onChanged(() => {
    backupView(hostContext).then(
      (view) => events.publish('backups.status', view),
      (error: unknown) =>
        app.logger.warn('the backup status could not be sent', {
          error: (error as Error).message,
        }),
    );
  });
  return {
    dispatch: createDispatcher({ handlers, policy: options.policy, logger: app.logger }),
    events,
    approvals,
    elicitations,
    samplings,
  };
}
