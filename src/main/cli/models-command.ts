/**
 * `aivory models list|add|edit|remove|default|mcp`: saved model configurations (keys in the
 * SecretStore); `add --vision` marks a model that takes images; `--temperature`, `--top-p` and
 * `--max-tokens` (on add and edit; `default` removes one) are the defaults of its conversations.
 * Saving goes through the models service, as the app's model editor does: the same key rules (a
 * saved key does not follow `edit --base-url` to another origin unless `--keep-key`).
 */
import { parseArgs } from 'node:util';
import type { ModelConfig } from '../../shared/dto';
import { originOf } from '../../shared/url-origin';
import { maskSecret } from '../policy/secret-mask';
import type { AppContext } from '../composition/app-context';
import type { ModelSaveInput } from '../services/models-service';
import { assertHttpUrl, parseToolMode } from '../services/model-resolution';
import { describeMcpDefaults } from '../services/mcp/mcp-model-defaults';
import { parseServiceList, parseToolList } from './chat-command';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import {
  applyConversationSettingsFlags,
  CONVERSATION_SETTINGS_OPTIONS,
  hasSettingsFlags,
} from './settings-flags';
import { formatContextPolicy } from '../../shared/conversation-settings';

export async function modelsCommand(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'keep-key': { type: 'boolean', default: false },
      model: { type: 'string' },
      label: { type: 'string' },
      'tool-mode': { type: 'string', default: 'native' },
      'context-window': { type: 'string' },
      tools: { type: 'string' },
      mcp: { type: 'string' },
      clear: { type: 'boolean', default: false },
      vision: { type: 'boolean', default: false },
      default: { type: 'boolean', default: false },
      ...CONVERSATION_SETTINGS_OPTIONS,
    },
  });
  const [action, id] = positionals;
  const { stores, secrets, models: service } = context;
  const models = service.list();
  switch (action ?? 'list') {
    case 'list': {
      if (models.length === 0)
        io.stdout('No saved models. Add one with: aivory models add --base-url URL --model NAME\n');
      for (const model of models) {
        const key = model.apiKeyRef ? await secrets.get(model.apiKeyRef) : null;
        io.stdout(
          `${model.isDefault ? '*' : ' '} ${model.id}\t${model.label}\t${model.model} @ ${model.baseUrl}\t${model.toolMode}${model.vision === true ? ', vision' : ''}\tkey: ${key ? maskSecret(key) : 'none'}\tmcp: ${describeMcpDefaults(model.defaultMcpServices, context.stores.mcp.listServices())}${describeDefaults(model)}\n`,
        );
      }
      return EXIT_OK;
    }
    case 'add': {
      const baseUrl = values['base-url'];
      const name = values.model;
      if (!baseUrl || !name)
        throw usageError('Usage: aivory models add --base-url URL --model NAME [options]');
      assertHttpUrl(baseUrl);
      const contextWindow =
        values['context-window'] === undefined ? undefined : Number(values['context-window']);
      if (
        contextWindow !== undefined &&
        (!Number.isInteger(contextWindow) || contextWindow < 1024)
      ) {
        throw usageError('--context-window must be an integer of at least 1024 tokens.');
      }
      const config = await service.save({
        label: values.label ?? name,
        baseUrl,
        model: name,
        toolMode: parseToolMode(values['tool-mode'] ?? 'native'),
        ...(contextWindow === undefined ? {} : { contextWindow }),
        defaultTools: parseToolList(values.tools) ?? null,
        defaultMcpServices: mcpServiceIds(context, values.mcp),
        ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
        ...(values.default ? { isDefault: true } : {}),
        vision: values.vision,
        defaults: applyConversationSettingsFlags({}, values, stores.library),
      });
      io.stdout(`${config.id}\n`);
      return EXIT_OK;
    }
    case 'mcp': {
      const model = service.require(id);
      if (values.mcp === undefined && !values.clear)
        throw usageError('Usage: aivory models mcp ID --mcp a,b | --mcp none | --clear');
      const defaultMcpServices = values.clear ? null : mcpServiceIds(context, values.mcp);
      await service.save({ ...savedFields(model), defaultMcpServices });
      io.stdout(
        `mcp: ${describeMcpDefaults(defaultMcpServices, context.stores.mcp.listServices())}\n`,
      );
      return EXIT_OK;
    }
    case 'edit': {
      const model = service.require(id);
      const baseUrl = values['base-url'];
      if (
        !hasSettingsFlags(values) &&
        values.label === undefined &&
        baseUrl === undefined &&
        values['api-key'] === undefined
      )
        throw usageError(
          'Usage: aivory models edit ID [--label TEXT] [--base-url URL [--keep-key]] [--api-key KEY] [--temperature X|default] [--top-p X|default] [--max-tokens N|default] [--system TEXT | --system-prompt NAME | --clear-system] [--context all|last:N|tokens:N]',
        );
      if (baseUrl !== undefined) assertHttpUrl(baseUrl);
      const edited = await service.save({
        ...savedFields(model),
        label: values.label ?? model.label,
        baseUrl: baseUrl ?? model.baseUrl,
        ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
        ...(values['keep-key'] ? { keepKey: true } : {}),
        defaults: applyConversationSettingsFlags(model.defaults ?? {}, values, stores.library),
      });
      if (model.apiKeyRef !== null && edited.apiKeyRef === null) {
        io.stderr(
          `aivory: the saved key was for ${originOf(model.baseUrl)}; it was removed (pass --api-key, or --keep-key to keep it).\n`,
        );
      }
      io.stdout(`${edited.id}\t${edited.label}${describeDefaults(edited) || '\tdefaults: none'}\n`);
      return EXIT_OK;
    }
    case 'remove':
      await service.remove(id);
      return EXIT_OK;
    case 'default': {
      const model = service.require(id);
      await service.save({ ...savedFields(model), isDefault: true });
      return EXIT_OK;
    }
    default:
      throw usageError(
        `Unknown action "${action}". Use list, add, edit ID, remove ID, default ID or mcp ID.`,
      );
  }
}

/** A saved model as a save that changes nothing (the key kept as it is). */
function savedFields(model: ModelConfig): ModelSaveInput {
  return {
    id: model.id,
    label: model.label,
    baseUrl: model.baseUrl,
    model: model.model,
    toolMode: model.toolMode,
    contextWindow: model.contextWindow,
    defaultTools: model.defaultTools,
    defaultMcpServices: model.defaultMcpServices ?? null,
    isDefault: model.isDefault,
    vision: model.vision === true,
    defaults: model.defaults ?? {},
  };
}

/**
 * `\tdefaults: temperature 0.2, top_p 0.9, max tokens 512, instructions, context last:20`, or ''
 * for a model without defaults.
 */
function describeDefaults(model: ModelConfig): string {
  const defaults = model.defaults ?? {};
  const parts = [
    defaults.systemPrompt === undefined
      ? null
      : defaults.systemPrompt.kind === 'text'
        ? 'instructions (own text)'
        : `instructions (saved prompt ${defaults.systemPrompt.promptId})`,
    defaults.contextPolicy === undefined
      ? null
      : `context ${formatContextPolicy(defaults.contextPolicy)}`,
    defaults.temperature === undefined ? null : `temperature ${defaults.temperature}`,
    defaults.topP === undefined ? null : `top_p ${defaults.topP}`,
    defaults.maxOutputTokens === undefined ? null : `max tokens ${defaults.maxOutputTokens}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? '' : `\tdefaults: ${parts.join(', ')}`;
}

/** `--mcp a,b` (service names or ids) → ids; "none" → []; absent → null (every enabled one). */
function mcpServiceIds(context: AppContext, text: string | undefined): string[] | null {
  const names = parseServiceList(text);
  if (names === undefined) return null;
  return names.map((name) => context.mcp.get(name).id);
}
