/**
 * `models.*` and `app.status`: saved models as masked views, the AIVORY_* start-up model, saving
 * and deleting through the models service (`services/models-service.ts`: the key rules, shared
 * with `aivory models`), and the connection check of the setup screen and the model editor,
 * which answers the server's model list (bounded and cleaned by the adapter) with the
 * capabilities its provider states.
 */
import type { ModelConfig } from '../../../shared/dto';
import { toPublicError } from '../../../shared/errors';
import type { InvokeResponse, ParsedRequest } from '../../../shared/ipc-contract';
import { listServerModelDetails } from '../../adapters/lazy-clients';
import { maskSecret } from '../../policy/secret-mask';
import type { SecretStore } from '../../core/ports';
import type { McpService } from '../../../shared/mcp';
import { mcpDefaultEntries } from '../../services/mcp/mcp-model-defaults';
import { modelOverridesFromEnv } from '../../services/model-resolution';
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

/** The model handlers over the host context (the rules are the models service's). */
export function createModelHandlers(context: HostContext): ModelHandlers {
  const { stores, secrets, models } = context.app;
  return {
    'app.status': () => {
      const environmentModel = environmentModelView(context.env);
      return {
        needsSetup: environmentModel === null && models.list().length === 0,
        environmentModel,
        version: context.version,
      };
    },
    'models.list': async () => ({
      models: await Promise.all(
        models.list().map((model) => modelView(model, secrets, stores.mcp.listServices())),
      ),
      environmentModel: environmentModelView(context.env),
    }),
    'models.save': async (request) =>
      modelView(await models.save(request), secrets, stores.mcp.listServices()),
    'models.delete': async ({ id }) => {
      await models.remove(id);
      return { ok: true };
    },
    'models.test': async (request) => testConnection(context, request),
    'models.discover': () => discoverLocalServers(context.discoveryCandidates),
  };
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
    apiKey = await context.app.models.keyFor(request.modelId, request.baseUrl);
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
