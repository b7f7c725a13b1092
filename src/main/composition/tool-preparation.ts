/**
 * The built-in tools that need a backend, built for one turn: web_fetch (always), python_execute
 * and fetch_image (they need a sandbox), aivory_web_search (a configured search backend) and
 * image_generate (enabled in settings). Each is built from the current settings when a turn picked
 * it, so a changed setting reaches the next turn by itself; a tool whose backend is missing is not
 * built, and `backendStatus` says why (for the turn, `aivory tools`, doctor and the settings page).
 */
import { join } from 'node:path';
import { FileArtifactSink } from '../adapters/artifacts/file-artifact-sink';
import { createEndpointFetcher } from '../adapters/fetch/endpoint-fetcher';
import type { FetchLimits } from '../adapters/fetch/fetch-limits';
import { createGuardedFetcher } from '../adapters/fetch/guarded-fetcher';
import { createPdfTextExtractor } from '../adapters/fetch/pdf-text-extractor';
import type {
  AppStores,
  ConversationStore,
  Logger,
  PythonSandbox,
  SandboxConnection,
  SecretStore,
  Tool,
} from '../core/ports';
import { AivoryError } from '../../shared/errors';
import { downloadPublicImage } from '../tools/public-image';
import { createPythonExecuteTool, PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { createSearchBackend, searchEndpointOrigin } from '../tools/search-backends/create-backend';
import { lazyOpenAiImageClient } from '../adapters/lazy-clients';
import { createFetchImageTool, FETCH_IMAGE_NAME } from '../tools/fetch-image';
import { createImageGenerateTool, IMAGE_GENERATE_NAME } from '../tools/image-generate';
import { currentImageAttachments } from '../services/attachments';
import { previousGeneratedImage } from '../services/generated-images';
import {
  conversationUploads,
  SCRATCH_CONVERSATION_ID,
  stageUploads,
} from '../services/workspace-staging';
import { createWebFetchTool, WEB_FETCH_NAME } from '../tools/web-fetch';
import { createWebSearchTool, WEB_SEARCH_NAME } from '../tools/web-search';
import type { SandboxManager } from '../services/sandbox-manager';
import { resolveSearchConfig, searchAvailability } from '../services/search-config';
import type { Settings, SettingsService } from '../services/settings-service';

export interface ToolPreparationContext {
  env: Record<string, string | undefined>;
  dataDir: string;
  /** Messages (staging, image_generate's inputs), saved settings and the tool switches. */
  stores: Pick<AppStores, 'conversations' | 'settings'>;
  secrets: SecretStore;
  settings: SettingsService;
  sandbox: SandboxManager;
}

/** The tools that exist only with a backend, for listings. */
export const BACKEND_TOOLS: readonly string[] = [
  PYTHON_EXECUTE_NAME,
  FETCH_IMAGE_NAME,
  WEB_SEARCH_NAME,
  IMAGE_GENERATE_NAME,
];

/** Every built-in tool built from settings and backends: web_fetch and the backend tools. */
export const PREPARED_TOOLS: readonly string[] = [WEB_FETCH_NAME, ...BACKEND_TOOLS];

/**
 * Builds one of `PREPARED_TOOLS` from the current settings; null when its backend is missing (or
 * the name is none of them). The caller decided that the tool is wanted (global switch included).
 */
export async function buildPreparedTool(
  context: ToolPreparationContext,
  name: string,
): Promise<Tool | null> {
  switch (name) {
    case WEB_FETCH_NAME:
      return createWebFetchTool({
        fetcher: guardedFetcher(context),
        pdf: createPdfTextExtractor(),
      });
    case PYTHON_EXECUTE_NAME:
    case FETCH_IMAGE_NAME: {
      const { client } = await context.sandbox.resolve();
      if (!client) return null;
      return name === PYTHON_EXECUTE_NAME
        ? pythonExecuteTool(context, client)
        : fetchImageTool(context, client);
    }
    case WEB_SEARCH_NAME:
      return searchTool(context);
    case IMAGE_GENERATE_NAME:
      return imageTool(context);
    default:
      return null;
  }
}

/** Why a built-in tool cannot be offered now (switched off, backend missing), or null. */
export async function backendStatus(
  context: ToolPreparationContext,
  name: string,
): Promise<string | null> {
  if (context.stores.settings.getToolAvailability()[name] === false)
    return 'switched off globally (settings → tools)';
  if (name === PYTHON_EXECUTE_NAME) {
    const { status } = await context.sandbox.resolve();
    return status.state === 'unavailable' ? status.reason : null;
  }
  if (name === FETCH_IMAGE_NAME) {
    const { status } = await context.sandbox.resolve();
    return status.state === 'unavailable'
      ? `needs the Python sandbox to store images: ${status.reason}`
      : null;
  }
  if (name === IMAGE_GENERATE_NAME && context.settings.get('images').provider === 'disabled') {
    return 'image generation is off: aivory settings set images.provider openai (and images.baseUrl, images.model; aivory settings set-key images.apiKey KEY)';
  }
  if (name === WEB_SEARCH_NAME) {
    const config = await resolveSearchConfig(savedSearch(context), context.env, context.secrets);
    return searchAvailability(config).reason;
  }
  return null;
}

/** Public web pages and images: one guarded fetcher (SSRF checks on every hop). */
function guardedFetcher(context: ToolPreparationContext) {
  return createGuardedFetcher({ limits: fetchLimitsFromSettings(context.settings.get('web')) });
}

/** The guarded fetcher's limits from settings → web. */
export function fetchLimitsFromSettings(web: Settings['web']): Partial<FetchLimits> {
  return {
    allowNonDefaultPorts: !web.refuseNonDefaultPorts,
    maxBodyBytes: web.maxBodyMegabytes * 1024 * 1024,
    deadlineMs: web.deadlineSeconds * 1000,
  };
}

function fetchImageTool(context: ToolPreparationContext, client: SandboxConnection): Tool {
  return createFetchImageTool({
    fetcher: guardedFetcher(context),
    scratchConversationId: SCRATCH_CONVERSATION_ID,
    downloads: {
      stageDownload: async (conversationId, name, bytes, signal) => {
        const sessionId = await client.createSession(conversationId, signal);
        const file = await client.upload(sessionId, name, bytes, {
          directory: 'downloads',
          signal,
        });
        return `/workspace/${file.path}`;
      },
    },
  });
}

function pythonExecuteTool(context: ToolPreparationContext, client: SandboxConnection): Tool {
  return createPythonExecuteTool({
    sandbox: conversationSandbox(client, context.stores.conversations),
    artifacts: artifactSink(context),
    timeoutSeconds: context.settings.get('sandbox').execTimeoutSeconds,
    scratchConversationId: SCRATCH_CONVERSATION_ID,
  });
}

async function searchTool(context: ToolPreparationContext): Promise<Tool | null> {
  const config = await resolveSearchConfig(savedSearch(context), context.env, context.secrets);
  const origin = searchEndpointOrigin(config);
  if (!searchAvailability(config).available || !origin) return null;
  // The search backend may reach exactly its configured origin (a local SearXNG on 127.0.0.1
  // included) and nothing else.
  const fetchConfigured = createEndpointFetcher(origin);
  return createWebSearchTool({
    backend: createSearchBackend(config, { fetch: fetchConfigured }),
  });
}

/** image_generate over an OpenAI-compatible Images API, when enabled in settings. */
async function imageTool(context: ToolPreparationContext): Promise<Tool | null> {
  const images = context.settings.get('images');
  if (images.provider === 'disabled') return null;
  const apiKey = images.apiKeyRef ? await context.secrets.get(images.apiKeyRef) : null;
  return createImageGenerateTool({
    images: lazyOpenAiImageClient({
      baseUrl: images.baseUrl,
      apiKey,
      model: images.model,
      downloadImage: (url) => downloadGeneratedImage(context, url),
    }),
    artifacts: artifactSink(context),
    previousGeneration: (conversationId) =>
      previousGeneratedImage(context.stores.conversations, conversationId),
    currentAttachments: (conversationId) =>
      currentImageAttachments(context.stores.conversations.listMessages(conversationId)),
    scratchConversationId: SCRATCH_CONVERSATION_ID,
  });
}

/** An Images API answer given as a URL: fetched like any public image (SSRF-guarded, checked). */
async function downloadGeneratedImage(
  context: ToolPreparationContext,
  url: string,
): Promise<{ bytes: Uint8Array; mime: string }> {
  const result = await downloadPublicImage(guardedFetcher(context), url, {
    signal: AbortSignal.timeout(GENERATED_IMAGE_DOWNLOAD_MS),
    logger: silentLogger,
  });
  if (!result.ok) {
    throw new AivoryError('provider', `The image server answered with a URL: ${result.error}`);
  }
  return { bytes: result.image.bytes, mime: result.image.mediaType };
}

const GENERATED_IMAGE_DOWNLOAD_MS = 60_000;
const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function artifactSink(context: ToolPreparationContext): FileArtifactSink {
  return new FileArtifactSink(
    context.env.AIVORY_ARTIFACTS_DIR ?? join(context.dataDir, 'artifacts'),
  );
}

/** The saved search settings, or null when the user never saved any (env defaults apply). */
function savedSearch(context: ToolPreparationContext) {
  return context.stores.settings.getSetting('search') === undefined
    ? null
    : context.settings.get('search');
}

/**
 * python_execute's view of the sandbox: one session per conversation, files by path. Opening the
 * session stages the conversation's attachments and generated images into /workspace/uploads.
 */
function conversationSandbox(
  client: SandboxConnection,
  store: Pick<ConversationStore, 'listMessages'>,
): PythonSandbox {
  return {
    sessionFor: async (conversationId, signal) => {
      const sessionId = await client.createSession(conversationId, signal);
      await stageUploads(
        client,
        sessionId,
        conversationUploads(store.listMessages(conversationId)),
        signal,
      );
      return sessionId;
    },
    exec: (sessionId, code, timeoutSeconds, signal) =>
      client.exec(sessionId, code, timeoutSeconds, signal),
    download: (sessionId, path, signal) => client.download(sessionId, path, signal),
  };
}
