/**
 * The SDK-backed clients, loaded on first use: the openai SDK and the MCP SDK take longer to
 * import than most commands take to run, so a command that never talks to a model or an MCP
 * server (`aivory tools`, `aivory conversations list`, `--help`) never loads them.
 */
import type { ImageClient, LlmClient, McpConnector } from '../core/ports';
import type { McpConnectorOptions } from './mcp/mcp-limits';
import type { OpenAiImageClientOptions } from './openai/openai-image-client';
import type { ModelListing } from './openai/model-listing';

/** An LlmClient for an OpenAI-compatible server; the SDK loads at the first request. */
export function lazyOpenAiLlmClient(options: {
  baseUrl: string;
  apiKey: string | null;
}): LlmClient {
  let client: Promise<LlmClient> | null = null;
  const load = (): Promise<LlmClient> => {
    client ??= import('./openai/openai-llm-client').then(
      ({ OpenAiLlmClient }) => new OpenAiLlmClient(options),
    );
    return client;
  };
  return {
    async *stream(request, signal) {
      yield* (await load()).stream(request, signal);
    },
  };
}

/**
 * Loads what the first model request of `lazyOpenAiLlmClient` loads — the SDK with the client's
 * module, then undici — each in its own turn of the event loop: each holds the thread once.
 */
export async function loadOpenAiLlmClient(): Promise<void> {
  const { loadModelFetch } = await import('./openai/model-fetch');
  await import('./openai/openai-llm-client');
  await new Promise((resolve) => setImmediate(resolve));
  await loadModelFetch();
}

/** An Images API client (image_generate); the SDK loads at the first request. */
export function lazyOpenAiImageClient(options: OpenAiImageClientOptions): ImageClient {
  let client: Promise<ImageClient> | null = null;
  const load = (): Promise<ImageClient> => {
    client ??= import('./openai/openai-image-client').then(
      ({ OpenAiImageClient }) => new OpenAiImageClient(options),
    );
    return client;
  };
  return {
    model: options.model,
    generate: async (request) => (await load()).generate(request),
    edit: async (request) => (await load()).edit(request),
  };
}

/** The MCP connector; the SDK loads at the first connection. */
export function lazyMcpConnector(options: McpConnectorOptions = {}): McpConnector {
  let connector: Promise<McpConnector> | null = null;
  const loaded = () =>
    (connector ??= import('./mcp/mcp-connector').then(({ createMcpConnector }) =>
      createMcpConnector(options),
    ));
  return {
    connect: async (endpoint, connectOptions) => (await loaded()).connect(endpoint, connectOptions),
    signIn: async (endpoint, challenge, user, signal) =>
      (await loaded()).signIn(endpoint, challenge, user, signal),
  };
}

/** The model names an OpenAI-compatible server lists (`GET /models`); the SDK loads on the call. */
export async function listServerModels(options: {
  baseUrl: string;
  apiKey: string | null;
  maxRetries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<string[]> {
  const { listModels } = await import('./openai/openai-llm-client');
  return listModels(options);
}

/**
 * The models an OpenAI-compatible server lists, bounded and cleaned, with the capabilities its
 * provider states (`openai/model-listing.ts`); the SDK loads on the call.
 */
export async function listServerModelDetails(options: {
  baseUrl: string;
  apiKey: string | null;
  maxRetries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<ModelListing> {
  const { listModelDetails } = await import('./openai/openai-llm-client');
  return listModelDetails(options);
}
