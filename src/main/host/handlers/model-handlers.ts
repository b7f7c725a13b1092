/**
 * `models.*` and `app.status`: saved models as masked views, the AIVORY_* start-up model, saving
 * (key to the secret store; another model of the same provider may copy a saved key, on the same
 * origin only), deleting, and the connection check of the setup screen and the model editor,
 * which answers the server's model list (bounded and cleaned by the adapter) with the
 * capabilities its provider states.
 */
import { originOf } from '../../../shared/url-origin';
import type { ModelConfig, ModelDefaults } from '../../../shared/dto';
import { AivoryError, toPublicError } from '../../../shared/errors';
import type { InvokeResponse, ParsedRequest } from '../../../shared/ipc-contract';
import { listServerModelDetails } from '../../adapters/lazy-clients';
import { maskSecret } from '../../adapters/secrets/file-secret-store';
import type { SecretStore } from '../../core/ports';
import type { McpService } from '../../../shared/mcp';
import { mcpDefaultEntries } from '../../services/mcp/mcp-model-defaults';
import { modelOverridesFromEnv } from '../../services/model-resolution';
import { DEFAULT_CONTEXT_WINDOW } from '../../../shared/provider-presets';
import type { ModelOverrides } from '../../services/model-resolution';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { discoverLocalServers } from './model-discovery';

/** A server that does not list its models within this time counts as unreachable. */
export const CONNECTION_CHECK_TIMEOUT_MS = 10_000;

type ModelHandlers = Pick<
  ApiHandlers,
  'app.status' | 'models.list' | 'models.save' | 'models.delete' | 'models.test' | 'models.discover'
>;

/** The model handlers over the host context. */
export function createModelHandlers(context: HostContext): ModelHandlers {
  const { stores, secrets } = context.app;
  return {
    'app.status': () => {
      const environmentModel = environmentModelView(context.env);
      return {
        needsSetup: environmentModel === null && stores.settings.listModels().length === 0,
        environmentModel,
        version: context.version,
      };
    },
    'models.list': async () => ({
      models: await Promise.all(
        stores.settings
          .listModels()
          .map((model) => modelView(model, secrets, stores.mcp.listServices())),
      ),
      environmentModel: environmentModelView(context.env),
    }),
    'models.save': async (request) => saveModel(context, request),
    'models.delete': async ({ id }) => {
      const model = requireModel(stores.settings.listModels(), id);
      stores.settings.deleteModel(model.id);
      if (model.apiKeyRef) await secrets.delete(model.apiKeyRef);
      return { ok: true };
    },
    'models.test': async (request) => testConnection(context, request),
    'models.discover': () => discoverLocalServers(context.discoveryCandidates),
  };
}

async function saveModel(
  context: HostContext,
  request: ParsedRequest<'models.save'>,
): Promise<InvokeResponse<'models.save'>> {
  const { stores, secrets, ids } = context.app;
  const models = stores.settings.listModels();
  const existing = request.id === undefined ? null : requireModel(models, request.id);
  const id = existing?.id ?? ids.next('model');
  let apiKeyRef = existing?.apiKeyRef ?? null;
  // A key saved for one server never follows the model to another one by itself.
  const movedAway = existing !== null && originOf(existing.baseUrl) !== originOf(request.baseUrl);
  const copiedKey =
    request.keyFrom !== undefined && request.apiKey === undefined
      ? await keyToCopy(context, models, request.keyFrom, request.baseUrl)
      : null;
  const dropKey =
    request.apiKey === null ||
    (movedAway && request.apiKey === undefined && request.keepKey !== true && copiedKey === null);
  const newKey = typeof request.apiKey === 'string' ? request.apiKey : copiedKey;
  if (newKey !== null) {
    apiKeyRef = `model:${id}:api-key`;
    await secrets.set(apiKeyRef, newKey);
  } else if (dropKey && apiKeyRef) {
    await secrets.delete(apiKeyRef);
    apiKeyRef = null;
  }
  const config: ModelConfig = {
    id,
    label: request.label ?? existing?.label ?? request.model,
    baseUrl: request.baseUrl,
    model: request.model,
    toolMode: request.toolMode ?? existing?.toolMode ?? 'native',
    contextWindow: request.contextWindow ?? existing?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    defaultTools:
      request.defaultTools === undefined ? (existing?.defaultTools ?? null) : request.defaultTools,
    defaultMcpServices:
      request.defaultMcpServices === undefined
        ? (existing?.defaultMcpServices ?? null)
        : request.defaultMcpServices,
    apiKeyRef,
    isDefault: request.isDefault ?? existing?.isDefault ?? models.length === 0,
    vision: request.vision ?? existing?.vision ?? false,
    ...nonEmptyDefaults(request.defaults ?? existing?.defaults),
  };
  stores.settings.saveModel(config);
  return modelView(config, secrets, stores.mcp.listServices());
}

/**
 * Lists the server's models. A saved model's key is used only against that model's own base URL,
 * so a request cannot send a stored key to another server.
 */
async function testConnection(
  context: HostContext,
  request: ParsedRequest<'models.test'>,
): Promise<InvokeResponse<'models.test'>> {
  let apiKey = request.apiKey ?? null;
  if (apiKey === null && request.modelId !== undefined) {
    const saved = requireModel(context.app.stores.settings.listModels(), request.modelId);
    if (saved.apiKeyRef && sameUrl(saved.baseUrl, request.baseUrl)) {
      apiKey = await context.app.secrets.get(saved.apiKeyRef);
    }
  }
  try {
    const listing = await listServerModelDetails({
      baseUrl: request.baseUrl,
      apiKey,
      maxRetries: 0,
      signal: AbortSignal.timeout(CONNECTION_CHECK_TIMEOUT_MS),
    });
    const models = listing.models.map((model) => model.id);
    const modelListed = request.model === undefined ? null : models.includes(request.model);
    return {
      ok: true,
      models,
      modelListed,
      error: null,
      capabilities: listing.models.filter(
        (model) => model.vision !== null || model.tools !== null || model.reasoning !== null,
      ),
      truncated: listing.truncated,
    };
  } catch (error) {
    return {
      ok: false,
      models: [],
      modelListed: null,
      error: toPublicError(error).message,
      capabilities: [],
      truncated: false,
    };
  }
}

/**
 * The view of a saved model: the key masked, its reference dropped, its MCP defaults with the
 * 已删除 / 已停用 / 未同步 markers of services that can no longer run.
 */
export async function modelView(
  model: ModelConfig,
  secrets: SecretStore,
  services: readonly McpService[],
): Promise<InvokeResponse<'models.save'>> {
  const key = model.apiKeyRef ? await secrets.get(model.apiKeyRef) : null;
  return {
    id: model.id,
    label: model.label,
    baseUrl: model.baseUrl,
    model: model.model,
    toolMode: model.toolMode,
    contextWindow: model.contextWindow,
    defaultTools: model.defaultTools,
    defaultMcpServices: model.defaultMcpServices ?? null,
    mcpDefaults: mcpDefaultEntries(model.defaultMcpServices, services),
    isDefault: model.isDefault,
    apiKeyMasked: key ? maskSecret(key) : null,
    vision: model.vision === true,
    defaults: model.defaults ?? {},
  };
}

/** `defaults` only when some parameter is set. */
function nonEmptyDefaults(defaults: ModelDefaults | undefined): Pick<ModelConfig, 'defaults'> {
  return defaults === undefined || Object.keys(defaults).length === 0 ? {} : { defaults };
}

/**
 * The saved key of model `sourceId` for a new model of the same provider: only when the new base
 * URL has the same origin as the source's, so a copied key never reaches another server. A
 * source without a key copies nothing.
 */
async function keyToCopy(
  context: HostContext,
  models: readonly ModelConfig[],
  sourceId: string,
  baseUrl: string,
): Promise<string | null> {
  const source = requireModel(models, sourceId);
  if (originOf(source.baseUrl) !== originOf(baseUrl)) {
    throw new AivoryError(
      'invalid-input',
      `baseUrl: the key of "${source.label}" is only sent to ${originOf(source.baseUrl)}; enter a key for ${originOf(baseUrl)}.`,
    );
  }
  return source.apiKeyRef ? await context.app.secrets.get(source.apiKeyRef) : null;
}

/**
 * The AIVORY_BASE_URL / AIVORY_MODEL start-up model, or null when either is missing or the
 * variables cannot be read (AIVORY_VISION=maybe): the first screen still opens, and the turn
 * that would use them fails with the variable's error in words.
 */
export function environmentModelView(
  env: Record<string, string | undefined>,
): InvokeResponse<'app.status'>['environmentModel'] {
  let overrides: ModelOverrides;
  try {
    overrides = modelOverridesFromEnv(env);
  } catch {
    return null;
  }
  if (!overrides.baseUrl || !overrides.model) return null;
  return {
    baseUrl: overrides.baseUrl,
    model: overrides.model,
    toolMode: overrides.toolMode === 'prompt' ? 'prompt' : 'native',
    apiKeyMasked: overrides.apiKey ? maskSecret(overrides.apiKey) : null,
  };
}

/** The saved model with this id, or a `not-found` error. */
export function requireModel(models: readonly ModelConfig[], id: string): ModelConfig {
  const model = models.find((candidate) => candidate.id === id);
  if (!model) throw new AivoryError('not-found', `No saved model with id ${id}.`);
  return model;
}

function sameUrl(left: string, right: string): boolean {
  return left.replace(/\/+$/, '') === right.replace(/\/+$/, '');
}
