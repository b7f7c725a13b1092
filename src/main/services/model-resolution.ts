/**
 * Which model a turn uses: a saved model named by id (the desktop's model picker); else
 * command-line flags first, then AIVORY_* environment variables, then the saved default model. A
 * missing piece is a configuration error with the fix in it.
 */
import type { ModelConfig, ToolMode } from '../../shared/dto';
import { ENDPOINT_URL_RULE, endpointUrlProblem } from '../../shared/endpoint-url';
import { checkHttpUrl } from '../../shared/http-url';
import { quotedValue } from '../../shared/untrusted-text';
import { AivoryError } from '../../shared/errors';
import type { SecretStore } from '../core/ports';
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/provider-presets';
import type { ResolvedModel } from './chat-service';

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

/**
 * Reads the overrides from the environment (AIVORY_BASE_URL, AIVORY_API_KEY, …). Unset or empty
 * is "not given"; a value that cannot mean anything is a `config` error naming the variable and
 * the value (never silently ignored: the turn would run with a model or vision setting the user
 * did not choose): AIVORY_MODEL of blanks only, AIVORY_VISION other than 1/true/yes/0/false/no.
 * The base URL and the tool mode are checked where they are used (`resolveModel`).
 */
export function modelOverridesFromEnv(env: Record<string, string | undefined>): ModelOverrides {
  const overrides: ModelOverrides = {};
  if (env.AIVORY_BASE_URL) overrides.baseUrl = env.AIVORY_BASE_URL;
  if (env.AIVORY_API_KEY) overrides.apiKey = env.AIVORY_API_KEY;
  if (env.AIVORY_MODEL) {
    const model = env.AIVORY_MODEL.trim();
    if (model === '') {
      throw new AivoryError(
        'config',
        `AIVORY_MODEL=${quotedValue(env.AIVORY_MODEL)} is blank; set it to a model name (e.g. llama3.1:8b), or unset it.`,
      );
    }
    overrides.model = model;
  }
  if (env.AIVORY_TOOL_MODE) overrides.toolMode = env.AIVORY_TOOL_MODE;
  if (env.AIVORY_VISION) overrides.vision = parseVisionVariable(env.AIVORY_VISION);
  return overrides;
}

/** AIVORY_VISION: 1/true/yes or 0/false/no, any case; anything else is a `config` error. */
function parseVisionVariable(text: string): boolean {
  const word = text.trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(word)) return true;
  if (['0', 'false', 'no'].includes(word)) return false;
  throw new AivoryError(
    'config',
    `AIVORY_VISION=${quotedValue(text)} is not understood; use 1, true or yes (the model takes images) or 0, false or no (it does not), or unset it.`,
  );
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

/**
 * A model base URL from flags, the environment or `aivory models add|edit`: the rule every
 * endpoint URL follows (`shared/endpoint-url.ts`, the model editor's too), and no credentials in
 * it (they would be logged and shown).
 * @throws AivoryError `config` naming the value, the reason and what is allowed.
 */
export function assertHttpUrl(text: string): void {
  const problem = endpointUrlProblem(text);
  if (problem !== null) {
    throw new AivoryError(
      'config',
      `The model base URL ${quotedValue(text)} ${problem}. Allowed: ${ENDPOINT_URL_RULE} (e.g. http://127.0.0.1:11434/v1).`,
    );
  }
  // The endpoint rule leaves credentials to its callers; here they get the CLI's own hint.
  if (!checkHttpUrl(text.trim()).ok) {
    throw new AivoryError('config', 'Put the API key in --api-key, not in the URL.');
  }
}
