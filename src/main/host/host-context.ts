/**
 * What the API handlers need: the shared AppContext's services, the environment the host started
 * with (AIVORY_* model defaults), the event hub, and the local servers model discovery probes.
 */
import { AivoryError } from '../../shared/errors';
import type { SecretStorageStatus } from '../../shared/ipc/secrets-methods';
import type { AppContext } from '../composition/app-context';
import type { ApprovalBroker } from './approval-broker';
import type { ElicitationBroker } from './elicitation-broker';
import type { SamplingBroker } from './sampling-broker';
import type { EventHub } from './event-hub';
import type { DesktopShell } from './handlers/files-handlers';

/** A local OpenAI-compatible server kind and the base URL it listens on by default. */
export interface DiscoveryCandidate {
  name: string;
  baseUrl: string;
}

/** Default ports of the local servers the first-run screen looks for (seed: 本地模型). */
export const DEFAULT_DISCOVERY_CANDIDATES: readonly DiscoveryCandidate[] = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
  { name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1' },
  { name: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1' },
  { name: 'Jan', baseUrl: 'http://127.0.0.1:1337/v1' },
];

/** Everything the handlers use. */
export interface HostContext {
  app: Pick<
    AppContext,
    | 'stores'
    | 'secrets'
    | 'settings'
    | 'models'
    | 'chat'
    | 'tools'
    | 'ids'
    | 'logger'
    | 'toolStatus'
    | 'dataDir'
    | 'mcp'
    | 'sandbox'
    | 'settingsChanged'
    | 'backups'
    | 'backupStatus'
    | 'backupScheduler'
    | 'unsavedAnswerEnds'
  >;
  env: Record<string, string | undefined>;
  events: EventHub;
  /** MCP approval requests waiting for the user (chat.send's approver). */
  approvals: ApprovalBroker;
  /** MCP servers' questions waiting for the user (chat.send's elicitor). */
  elicitations: ElicitationBroker;
  /** MCP servers' sampling requests waiting for the user's approval (chat.send's). */
  samplings: SamplingBroker;
  /** The desktop shell's file opener (Electron); absent in the browser host. */
  desktop?: DesktopShell;
  /** How saved keys are protected (the Electron shell's safeStorage verdict); absent: the file. */
  secretStorage?: SecretStorageStatus;
  /** The app version shown in settings. */
  version: string;
  discoveryCandidates: readonly DiscoveryCandidate[];
}

/**
 * The folder the user picks in the desktop's dialog (null when canceled); in the browser host,
 * which has no such dialog, a `config` error that says to type the path.
 */
export async function pickFolder(context: Pick<HostContext, 'desktop'>): Promise<string | null> {
  const pick = context.desktop?.pickFolder;
  if (pick === undefined) {
    throw new AivoryError(
      'config',
      'Choosing a folder is only available in the desktop app; type its path instead.',
    );
  }
  return pick();
}
