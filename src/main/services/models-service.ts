/**
 * The saved models, one service for the desktop/browser host (`models.*`, `chat.send`, the
 * conversation views) and the CLI (`aivory models`, `chat`, `doctor`, …), so each rule is decided
 * once: which saved model an id names, which model a turn or a conversation uses (over
 * `model-resolution.ts`), and how a model is saved — its key in the secret store, and a key that
 * follows the model's origin only (a saved key is never sent to another server by itself; a key
 * copied from another model only to that model's origin).
 */
import type { ModelConfig, ModelDefaults } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { ParsedRequest } from '../../shared/ipc-contract';
import { DEFAULT_CONTEXT_WINDOW } from '../../shared/provider-presets';
import { originOf } from '../../shared/url-origin';
import type { IdGenerator, SecretStore, SettingsStore } from '../core/ports';
import type { ResolvedModel } from './chat-service';
import type { ModelOverrides } from './model-resolution';
import { resolveConversationModel, resolveModel, resolveTurnModel } from './model-resolution';

/**
 * What saving a model takes (the `models.save` request): no `id` creates one. `apiKey` absent
 * keeps the saved key, null clears it. A base URL on another origin drops the saved key unless a
 * new key is given or `keepKey` is true. `keyFrom` (a saved model's id, with no `apiKey`) copies
 * that model's key, only to a base URL on the same origin.
 */
export type ModelSaveInput = ParsedRequest<'models.save'>;

export class ModelsService {
  constructor(
    private readonly deps: {
      settings: Pick<SettingsStore, 'listModels' | 'saveModel' | 'deleteModel'>;
      secrets: SecretStore;
      ids: IdGenerator;
    },
  ) {}

  /** Every saved model, the store's order. */
  list(): ModelConfig[] {
    return this.deps.settings.listModels();
  }

  /** The saved model with this id, or null (also for a null id: no model chosen). */
  find(id: string | null | undefined): ModelConfig | null {
    if (id === null || id === undefined) return null;
    return this.list().find((model) => model.id === id) ?? null;
  }

  /** The saved model with this id, or a `not-found` error. */
  require(id: string | undefined): ModelConfig {
    const model = this.find(id);
    if (!model) throw new AivoryError('not-found', `No saved model with id ${id ?? '(missing)'}.`);
    return model;
  }

  /**
   * The saved model a user named (`aivory chat --models a,b`): its id, else its label, else its
   * model name (labels and names compared without case). A name two models share is refused with
   * their ids, so the user can name one exactly.
   */
  lookup(reference: string): ModelConfig {
    const wanted = reference.trim();
    const saved = this.list();
    const byId = saved.find((model) => model.id === wanted);
    if (byId) return byId;
    const folded = wanted.toLowerCase();
    for (const field of ['label', 'model'] as const) {
      const matches = saved.filter((model) => model[field].toLowerCase() === folded);
      if (matches.length === 1 && matches[0]) return matches[0];
      if (matches.length > 1)
        throw new AivoryError(
          'invalid-input',
          `${matches.length} saved models are called "${wanted}"; name one by its id: ${matches.map((model) => model.id).join(', ')}.`,
        );
    }
    throw new AivoryError(
      'not-found',
      `No saved model "${wanted}" (an id, label or model name as in aivory models list).`,
    );
  }

  /** The saved default model, or null. */
  defaultModel(): ModelConfig | null {
    return this.list().find((model) => model.isDefault) ?? null;
  }

  /** A turn's model: the saved model `modelId` names, else overrides, else the saved default. */
  resolveTurn(modelId: string | undefined, overrides: ModelOverrides): Promise<ResolvedModel> {
    return resolveTurnModel(modelId, overrides, this.list(), this.deps.secrets);
  }

  /** The model that continues a conversation from the command line (`resolveConversationModel`). */
  resolveConversation(
    conversationModelId: string | null,
    overrides: ModelOverrides,
  ): Promise<ResolvedModel> {
    return resolveConversationModel(conversationModelId, overrides, this.list(), this.deps.secrets);
  }

  /** Overrides (flags, AIVORY_*), else the saved default (`resolveModel`). */
  resolve(overrides: ModelOverrides): Promise<ResolvedModel> {
    return resolveModel(overrides, this.list(), this.deps.secrets);
  }

  /**
   * The saved key of model `id` for a request to `baseUrl`, or null: only when `baseUrl` is the
   * model's own (the connection check may not send a stored key to another server).
   */
  async keyFor(id: string, baseUrl: string): Promise<string | null> {
    const saved = this.require(id);
    if (!saved.apiKeyRef || trimmed(saved.baseUrl) !== trimmed(baseUrl)) return null;
    return this.deps.secrets.get(saved.apiKeyRef);
  }

  /** Creates or replaces a model (see `ModelSaveInput`); returns what was saved. */
  async save(input: ModelSaveInput): Promise<ModelConfig> {
    const { settings, secrets, ids } = this.deps;
    const models = this.list();
    const existing = input.id === undefined ? null : this.require(input.id);
    const id = existing?.id ?? ids.next('model');
    let apiKeyRef = existing?.apiKeyRef ?? null;
    // A key saved for one server never follows the model to another one by itself.
    const movedAway = existing !== null && originOf(existing.baseUrl) !== originOf(input.baseUrl);
    const copiedKey =
      input.keyFrom !== undefined && input.apiKey === undefined
        ? await this.keyToCopy(input.keyFrom, input.baseUrl)
        : null;
    const dropKey =
      input.apiKey === null ||
      (movedAway && input.apiKey === undefined && input.keepKey !== true && copiedKey === null);
    const newKey = typeof input.apiKey === 'string' ? input.apiKey : copiedKey;
    if (newKey !== null) {
      apiKeyRef = `model:${id}:api-key`;
      await secrets.set(apiKeyRef, newKey);
    } else if (dropKey && apiKeyRef) {
      await secrets.delete(apiKeyRef);
      apiKeyRef = null;
    }
    const config: ModelConfig = {
      id,
      label: input.label ?? existing?.label ?? input.model,
      baseUrl: input.baseUrl,
      model: input.model,
      toolMode: input.toolMode ?? existing?.toolMode ?? 'native',
      contextWindow: input.contextWindow ?? existing?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
      defaultTools:
        input.defaultTools === undefined ? (existing?.defaultTools ?? null) : input.defaultTools,
      defaultMcpServices:
        input.defaultMcpServices === undefined
          ? (existing?.defaultMcpServices ?? null)
          : input.defaultMcpServices,
      apiKeyRef,
      isDefault: input.isDefault ?? existing?.isDefault ?? models.length === 0,
      vision: input.vision ?? existing?.vision ?? false,
      ...nonEmptyDefaults(input.defaults ?? existing?.defaults),
    };
    settings.saveModel(config);
    return config;
  }

  /** Deletes model `id` and its saved key; returns what was deleted. */
  async remove(id: string | undefined): Promise<ModelConfig> {
    const model = this.require(id);
    this.deps.settings.deleteModel(model.id);
    if (model.apiKeyRef) await this.deps.secrets.delete(model.apiKeyRef);
    return model;
  }

  /**
   * The saved key of model `sourceId` for a model of the same provider: only when `baseUrl` has
   * the source's origin, so a copied key never reaches another server. No key copies nothing.
   */
  private async keyToCopy(sourceId: string, baseUrl: string): Promise<string | null> {
    const source = this.require(sourceId);
    if (originOf(source.baseUrl) !== originOf(baseUrl)) {
      throw new AivoryError(
        'invalid-input',
        `baseUrl: the key of "${source.label}" is only sent to ${originOf(source.baseUrl)}; enter a key for ${originOf(baseUrl)}.`,
      );
    }
    return source.apiKeyRef ? await this.deps.secrets.get(source.apiKeyRef) : null;
  }
}

/** `defaults` only when some parameter is set. */
function nonEmptyDefaults(defaults: ModelDefaults | undefined): Pick<ModelConfig, 'defaults'> {
  return defaults === undefined || Object.keys(defaults).length === 0 ? {} : { defaults };
}

function trimmed(url: string): string {
  return url.replace(/\/+$/, '');
}
