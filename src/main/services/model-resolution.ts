/**
 * Which model a turn uses: a saved model named by id (the desktop's model picker); else
 * command-line flags first, then AIVORY_* environment variables, then the saved default model. A
 * missing piece is a configuration error with the fix in it.
 */
import type { ModelConfig, ToolMode } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { SecretStore } from '../core/ports';
import type { ResolvedModel } from './chat-service';

/** Context window assumed for a model given only by flags or environment. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

export interface ModelOverrides {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  toolMode?: string;
  /** The model takes images (`--vision`, AIVORY_VISION=1). */
  vision?: boolean;
}

export function parseToolMode(value: string): ToolMode {
  if (value === 'native' || value === 'prompt') return value;
  throw new AivoryError('config', `Tool mode must be "native" or "prompt", not "${value}".`);
}

/** Reads the overrides from the environment (AIVORY_BASE_URL, AIVORY_API_KEY, …). */
export function modelOverridesFromEnv(env: Record<string, string | undefined>): ModelOverrides {
  const overrides: ModelOverrides = {};
  if (env.AIVORY_BASE_URL) overrides.baseUrl = env.AIVORY_BASE_URL;
  if (env.AIVORY_API_KEY) overrides.apiKey = env.AIVORY_API_KEY;
  if (env.AIVORY_MODEL) overrides.model = env.AIVORY_MODEL;
  if (env.AIVORY_TOOL_MODE) overrides.toolMode = env.AIVORY_TOOL_MODE;
  // Read leniently (1/true/yes; anything else is no): app.status reads the environment too.
  if (env.AIVORY_VISION) overrides.vision = /^\s*(1|true|yes)\s*$/i.test(env.AIVORY_VISION);
  return overrides;
}

/** Flags win over environment, field by field. */
export function mergeOverrides(flags: ModelOverrides, env: ModelOverrides): ModelOverrides {
  return {
    ...env,
    ...Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)),
  };
}

/**
 * The model that continues a conversation from the command line: flags or AIVORY_* naming a
 * server or model win; else the saved model the conversation last used, while it still exists;
 * else `resolveModel`'s order (the saved default).
 */
export async function resolveConversationModel(
  conversationModelId: string | null,
  overrides: ModelOverrides,
  saved: readonly ModelConfig[],
  secrets: SecretStore,
): Promise<ResolvedModel> {
  const explicit = overrides.baseUrl !== undefined || overrides.model !== undefined;
  const remembered = saved.find((candidate) => candidate.id === conversationModelId);
  if (!explicit && remembered) return savedModel(remembered, secrets);
  return resolveModel(overrides, saved, secrets);
}

/**
 * The model of a turn: the saved model `modelId` names (not-found when there is none), else
 * `resolveModel`'s order.
 */
export async function resolveTurnModel(
  modelId: string | undefined,
  overrides: ModelOverrides,
  saved: readonly ModelConfig[],
  secrets: SecretStore,
): Promise<ResolvedModel> {
  if (modelId === undefined) return resolveModel(overrides, saved, secrets);
  const model = saved.find((candidate) => candidate.id === modelId);
  if (!model) throw new AivoryError('not-found', `No saved model with id ${modelId}.`);
  return savedModel(model, secrets);
}

/** A saved model as it is called, its key read from the secret store. */
export async function savedModel(saved: ModelConfig, secrets: SecretStore): Promise<ResolvedModel> {
  return {
    id: saved.id,
    baseUrl: saved.baseUrl,
    apiKey: saved.apiKeyRef ? await secrets.get(saved.apiKeyRef) : null,
    model: saved.model,
    toolMode: saved.toolMode,
    contextWindow: saved.contextWindow,
    defaultTools: saved.defaultTools,
    defaultMcpServices: saved.defaultMcpServices ?? null,
    ...(saved.defaults === undefined ? {} : { defaults: saved.defaults }),
    ...(saved.vision === true ? { vision: true } : {}),
  };
}

export async function resolveModel(
  overrides: ModelOverrides,
  saved: readonly ModelConfig[],
  secrets: SecretStore,
): Promise<ResolvedModel> {
  const fallback = saved.find((model) => model.isDefault) ?? null;
  const baseUrl = overrides.baseUrl ?? fallback?.baseUrl;
  const model = overrides.model ?? fallback?.model;
  if (!baseUrl || !model) {
    throw new AivoryError(
      'config',
      'No model configured. Pass --base-url and --model (or set AIVORY_BASE_URL and AIVORY_MODEL), or save a default with `aivory models add`.',
    );
  }
  assertHttpUrl(baseUrl);
  if (fallback !== null && baseUrl === fallback.baseUrl && model === fallback.model) {
    const { vision: savedVision, ...resolved } = await savedModel(fallback, secrets);
    return {
      ...resolved,
      apiKey: overrides.apiKey ?? resolved.apiKey,
      toolMode: parseToolMode(overrides.toolMode ?? resolved.toolMode),
      ...((overrides.vision ?? savedVision) === true ? { vision: true } : {}),
    };
  }
  return {
    id: null,
    baseUrl,
    apiKey: overrides.apiKey ?? null,
    model,
    toolMode: parseToolMode(overrides.toolMode ?? 'native'),
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    defaultTools: null,
    defaultMcpServices: null,
    ...(overrides.vision === true ? { vision: true } : {}),
  };
}

export function assertHttpUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AivoryError(
      'config',
      `"${text}" is not a valid URL (expected e.g. http://127.0.0.1:11434/v1).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AivoryError(
      'config',
      `The model base URL must use http or https, not ${url.protocol}`,
    );
  }
  if (url.username || url.password) {
    throw new AivoryError('config', 'Put the API key in --api-key, not in the URL.');
  }
}
