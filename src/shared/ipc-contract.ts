/**
 * The one contract between the renderer and the main process: every request/response method the
 * renderer may call and every event the main process pushes. Both transports use it unchanged:
 * Electron IPC (the preload exposes `window.aivory`) and the WebSocket of `aivory serve`.
 *
 * Every payload has a zod schema and its TypeScript type is inferred from it. Requests are
 * validated by the host (`src/main/host/`) before any service runs; a response is
 * `{ ok: true, value }` or `{ ok: false, error: { code, message } }`, never a thrown stack.
 *
 * To add a domain, add one `…Methods` map below, spread it into `invokeContract`,
 * add its handlers under `src/main/host/handlers/`, and add any events to `eventContract`.
 */
import { z } from 'zod';
import { endpointUrlSchema } from './endpoint-url';
import {
  connectionCheckSchema,
  conversationSchema,
  discoveredServerSchema,
  environmentModelSchema,
  idSchema,
  MAX_MESSAGE_CHARS,
  MAX_TITLE_CHARS,
  memorySchema,
  messageSchema,
  modelViewSchema,
  promptTemplateSchema,
  searchHitSchema,
  settingsViewSchema,
  skillSummarySchema,
  toolModeSchema,
  toolStatusSchema,
  turnModeSchema,
  turnSummarySchema,
} from './ipc/dto-schemas';
import { publicErrorSchema, turnEventSchema } from './ipc/turn-event-schema';
import { modelDefaultsSchema } from './ipc/conversation-settings-schema';
import { attachmentsSchema, chatExtrasMethods, toolTogglesSchema } from './ipc/chat-extras-methods';
import { approvalEvents, approvalMethods } from './ipc/approval-methods';
import { elicitationEvents, elicitationMethods } from './ipc/elicitation-methods';
import { samplingEvents, samplingMethods } from './ipc/sampling-methods';
import { libraryEditMethods } from './ipc/library-methods';
import { mcpEvents, mcpMethods } from './ipc/mcp-methods';
import { mcpImportMethods } from './ipc/mcp-import-methods';
import { mcpRootsMethods } from './ipc/mcp-roots-methods';
import { settingsPageMethods } from './ipc/settings-methods';
import { secretsMethods } from './ipc/secrets-methods';
import { sandboxMethods } from './ipc/sandbox-methods';
import { conversationSettingsMethods } from './ipc/conversation-settings-methods';
import { exportEvents, exportMethods } from './ipc/export-methods';
import { backupEvents, backupMethods } from './ipc/backup-methods';

/** A request schema and the schema of its successful response. */
export interface MethodSchema {
  request: z.ZodType;
  response: z.ZodType;
}

function method<Request extends z.ZodType, Response extends z.ZodType>(
  request: Request,
  response: Response,
): { request: Request; response: Response } {
  return { request, response };
}

/** Requests without parameters are `{}` (or omitted); unknown keys are refused. */
const empty = z.object({}).strict().optional();
const ok = z.object({ ok: z.literal(true) });
const byId = z.object({ id: idSchema }).strict();
/** A model server's base URL: the rule every endpoint URL follows (`endpoint-url.ts`). */
const httpUrl = endpointUrlSchema();
const modelName = z.string().trim().min(1).max(300);
/** An API key as typed by the user; null clears a saved one. */
const apiKeyInput = z.string().trim().min(1).max(4096);

const appMethods = {
  /** What the first screen needs: is a model configured, and which host is this. */
  'app.status': method(
    empty,
    z.object({
      needsSetup: z.boolean(),
      environmentModel: environmentModelSchema.nullable(),
      version: z.string(),
    }),
  ),
};

/** A page of a conversation's shown path with what its messages show. */
const messagePageSchema = z.object({
  /** Part of the path the conversation shows, first message first. */
  messages: z.array(messageSchema),
  turns: z.array(turnSummarySchema),
  /** For each message of the page with other versions: all their ids, oldest first. */
  versions: z.record(z.string(), z.array(z.string())),
  /** The message before this page (pass it as `from` to `conversations.older`); null: none. */
  older: z.string().nullable(),
});

/** The messages after a loaded window opened around a search hit, towards the path's end. */
const newerPageSchema = messagePageSchema.omit({ older: true }).extend({
  /** The page's last message when more follow (pass it as `after` to `conversations.newer`); null: the page reaches the end. */
  newer: z.string().nullable(),
});

const conversationMethods = {
  'conversations.list': method(empty, z.array(conversationSchema)),
  /** Full-text search over message text (SQLite FTS5); best match first. */
  'conversations.search': method(
    z
      .object({
        query: z.string().trim().min(1).max(500),
        limit: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
    z.array(searchHitSchema),
  ),
  /**
   * A conversation with the latest page of the path it shows (or, with `through`, as far back as
   * that message: a search hit); `conversations.older` reads the pages before it.
   */
  'conversations.get': method(
    z.object({ id: idSchema, through: idSchema.optional() }).strict(),
    messagePageSchema.extend({ conversation: conversationSchema }),
  ),
  /** The page of the shown path that ends at `from` (a page's `older`), or reaches `through`. */
  'conversations.older': method(
    z.object({ id: idSchema, from: idSchema, through: idSchema.optional() }).strict(),
    messagePageSchema,
  ),
  /**
   * A window of the shown path around `messageId` (a search hit far back): a page up to it and a
   * page after it, so opening it never reads everything from there to the end;
   * `conversations.older` and `conversations.newer` read on from either side.
   */
  'conversations.around': method(
    z.object({ id: idSchema, messageId: idSchema }).strict(),
    messagePageSchema.extend({
      conversation: conversationSchema,
      newer: newerPageSchema.shape.newer,
    }),
  ),
  /** The page of the shown path right after `after` (a window's `newer`). */
  'conversations.newer': method(
    z.object({ id: idSchema, after: idSchema }).strict(),
    newerPageSchema,
  ),
  /** Shows another version of a message (and the newest path under it). */
  'conversations.showVersion': method(z.object({ id: idSchema, messageId: idSchema }).strict(), ok),
  'conversations.rename': method(
    z.object({ id: idSchema, title: z.string().trim().min(1).max(MAX_TITLE_CHARS) }).strict(),
    conversationSchema,
  ),
  /** Pins (true) or unpins a conversation; pinned ones head the list. Not activity. */
  'conversations.pin': method(
    z.object({ id: idSchema, pinned: z.boolean() }).strict(),
    conversationSchema,
  ),
  'conversations.delete': method(byId, ok),
  /** Deletes a question and its answer (given either); returns the ids removed. */
  'conversations.deleteExchange': method(
    z.object({ id: idSchema, messageId: idSchema }).strict(),
    z.object({ deleted: z.array(z.string()) }),
  ),
  /**
   * The export written to a file in the data directory's exports/ folder (kept an hour); the
   * renderer downloads it through the data-file route (`Bridge.fileUrl`).
   */
  'conversations.export': method(
    z.object({ id: idSchema, format: z.enum(['md', 'json']) }).strict(),
    z.object({
      fileName: z.string(),
      mime: z.string(),
      path: z.string(),
      bytes: z.number().int().nonnegative(),
    }),
  ),
};

const chatMethods = {
  /**
   * Starts a turn; resolves once it has started. Its events arrive on `turn.event` (they may
   * arrive before this response: the renderer keys them by `turnId`).
   */
  'chat.send': method(
    z
      .object({
        conversationId: idSchema.optional(),
        /** May be empty when files are attached. */
        text: z.string().trim().max(MAX_MESSAGE_CHARS),
        /** A saved model; absent: AIVORY_* start-up defaults, then the saved default model. */
        modelId: idSchema.optional(),
        /**
         * More saved models that answer the same question beside the turn's model, at once:
         * each answer its own turn and a version under the question (a new question or an edit).
         */
        compareModelIds: z.array(idSchema).min(1).max(3).optional(),
        mode: turnModeSchema.optional(),
        /** Tools for this turn; absent: the model's defaults, else every available tool. */
        tools: z.array(z.string().min(1).max(100)).max(100).optional(),
        /** Files attached to the message (see chat-extras-methods.ts for the caps). */
        attachments: attachmentsSchema.optional(),
        /** A new conversation's own tool switches, set in the composer before it existed. */
        toolToggles: toolTogglesSchema.optional(),
        /**
         * Answer the conversation's last question again, replacing its failed, stopped or empty
         * answer (`text` empty, no attachments; needs `conversationId`).
         */
        retry: z.boolean().optional(),
        /**
         * Write a new version of this answer (on the conversation's shown path) from the same
         * context (`text` empty, no attachments; needs `conversationId`).
         */
        regenerate: idSchema.optional(),
        /**
         * Ask this question (on the shown path) again with `text`: a new version of it, keeping
         * its files (plus `attachments`), answered anew. Needs `conversationId`.
         */
        editOf: idSchema.optional(),
      })
      .strict()
      .refine((request) => {
        const again = request.retry === true || request.regenerate !== undefined;
        const special = [request.retry === true, request.regenerate, request.editOf].filter(
          (value) => value !== undefined && value !== false,
        );
        if (special.length > 1) return false;
        if (special.length === 1 && request.conversationId === undefined) return false;
        if (request.toolToggles !== undefined && request.conversationId !== undefined) return false;
        if (request.compareModelIds !== undefined && again) return false;
        return again
          ? request.text === '' && (request.attachments?.length ?? 0) === 0
          : request.text !== '' || (request.attachments?.length ?? 0) > 0;
      }, 'a message needs text or an attached file (a retry or a new version: the conversation, and nothing else; an edit: the conversation and the new text; tool switches: only for a new conversation; other models: for a new or edited question)'),
    z.object({
      /** The turn (several models: the group's id, which `chat.cancel` stops them all by). */
      turnId: z.string(),
      conversationId: z.string(),
      /** The answer (several models: the first model's). */
      messageId: z.string(),
      /** Several models: each answer's turn and message, in the order of the models. */
      answers: z
        .array(z.object({ turnId: z.string(), messageId: z.string(), model: z.string() }))
        .optional(),
    }),
  ),
  'chat.cancel': method(
    z.object({ turnId: idSchema }).strict(),
    z.object({ canceled: z.boolean() }),
  ),
};

const modelFields = {
  label: z.string().trim().min(1).max(200).optional(),
  baseUrl: httpUrl,
  model: modelName,
  toolMode: toolModeSchema.optional(),
  contextWindow: z.number().int().min(1024).max(10_000_000).optional(),
  defaultTools: z.array(z.string().min(1).max(100)).max(100).nullable().optional(),
  /** MCP service ids checked by default; null: every enabled service. */
  defaultMcpServices: z.array(idSchema).max(100).nullable().optional(),
  isDefault: z.boolean().optional(),
  /** Takes images as input. */
  vision: z.boolean().optional(),
  /** Temperature / top_p / max output tokens for its conversations; absent keeps, {} clears. */
  defaults: modelDefaultsSchema.optional(),
};

const modelMethods = {
  'models.list': method(
    empty,
    z.object({
      models: z.array(modelViewSchema),
      environmentModel: environmentModelSchema.nullable(),
    }),
  ),
  /**
   * Creates (no `id`) or replaces a model; `apiKey` absent keeps the saved key, null clears it.
   * A base URL on another origin drops the saved key (it was for the old server) unless a new key
   * is given or `keepKey` is true. `keyFrom` (a saved model's id, with no `apiKey`) copies that
   * model's key, only to a base URL on the same origin ("another model from this provider").
   */
  'models.save': method(
    z
      .object({
        id: idSchema.optional(),
        ...modelFields,
        apiKey: apiKeyInput.nullable().optional(),
        keepKey: z.boolean().optional(),
        keyFrom: idSchema.optional(),
      })
      .strict(),
    modelViewSchema,
  ),
  'models.delete': method(byId, ok),
  /** Lists the server's models; `modelId` lets a saved model's key be used without sending it. */
  'models.test': method(
    z
      .object({
        baseUrl: httpUrl,
        apiKey: apiKeyInput.optional(),
        modelId: idSchema.optional(),
        model: modelName.optional(),
      })
      .strict(),
    connectionCheckSchema,
  ),
  /** Probes local servers on their default ports (Ollama, LM Studio, llama.cpp, vLLM, Jan). */
  'models.discover': method(empty, z.array(discoveredServerSchema)),
};

/** One settings group and the fields to change; the service validates the result whole. */
const settingsPatch = z.discriminatedUnion('key', [
  z
    .object({
      key: z.literal('search'),
      values: settingsViewSchema.shape.search.omit({ apiKeyMasked: true }).partial().strict(),
    })
    .strict(),
  z
    .object({
      key: z.literal('sandbox'),
      values: settingsViewSchema.shape.sandbox.omit({ apiKeyMasked: true }).partial().strict(),
    })
    .strict(),
  z
    .object({
      key: z.literal('images'),
      values: settingsViewSchema.shape.images.omit({ apiKeyMasked: true }).partial().strict(),
    })
    .strict(),
  z
    .object({ key: z.literal('chat'), values: settingsViewSchema.shape.chat.partial().strict() })
    .strict(),
  z
    .object({ key: z.literal('ui'), values: settingsViewSchema.shape.ui.partial().strict() })
    .strict(),
  z
    .object({ key: z.literal('web'), values: settingsViewSchema.shape.web.partial().strict() })
    .strict(),
  z
    .object({ key: z.literal('mcp'), values: settingsViewSchema.shape.mcp.partial().strict() })
    .strict(),
]);

const settingsMethods = {
  'settings.get': method(empty, settingsViewSchema),
  'settings.set': method(settingsPatch, settingsViewSchema),
  /** Stores (or, with null, removes) the key of a settings group in the secret store. */
  'settings.setKey': method(
    z
      .object({ key: z.enum(['search', 'sandbox', 'images']), apiKey: apiKeyInput.nullable() })
      .strict(),
    settingsViewSchema,
  ),
};

const libraryMethods = {
  'tools.status': method(empty, z.array(toolStatusSchema)),
  'memories.list': method(empty, z.array(memorySchema)),
  'skills.list': method(empty, z.array(skillSummarySchema)),
  'prompts.list': method(empty, z.array(promptTemplateSchema)),
};

/** Every request/response method, by name (`domain.verb`). */
export const invokeContract = {
  ...appMethods,
  ...conversationMethods,
  ...chatMethods,
  ...modelMethods,
  ...settingsMethods,
  ...libraryMethods,
  ...chatExtrasMethods,
  ...mcpMethods,
  ...mcpRootsMethods,
  ...mcpImportMethods,
  ...secretsMethods,
  ...sandboxMethods,
  ...conversationSettingsMethods,
  ...approvalMethods,
  ...elicitationMethods,
  ...samplingMethods,
  ...settingsPageMethods,
  ...libraryEditMethods,
  ...exportMethods,
  ...backupMethods,
} satisfies Record<string, MethodSchema>;

/** Every event the main process pushes to the renderer, by name. */
export const eventContract = {
  /** One TurnEvent of a running turn (all turns: a renderer filters by `turnId`). */
  'turn.event': z.object({ turnId: z.string(), event: turnEventSchema }),
  /**
   * A conversation changed outside the renderer's own calls: its model gave it a title after its
   * first answer (the sidebar and the header show the new title).
   */
  'conversations.updated': z.object({ conversation: conversationSchema }),
  ...mcpEvents,
  ...approvalEvents,
  ...elicitationEvents,
  ...samplingEvents,
  ...exportEvents,
  ...backupEvents,
} satisfies Record<string, z.ZodType>;

/** A method name of the contract. */
export type InvokeMethod = keyof typeof invokeContract;
/** An event name of the contract. */
export type EventName = keyof typeof eventContract;

/** What the renderer passes to a method (defaults not yet applied). */
export type InvokeRequest<M extends InvokeMethod> = z.input<(typeof invokeContract)[M]['request']>;
/** The request after validation (defaults applied), as handlers receive it. */
export type ParsedRequest<M extends InvokeMethod> = z.output<(typeof invokeContract)[M]['request']>;
/** A method's successful response. */
export type InvokeResponse<M extends InvokeMethod> = z.infer<
  (typeof invokeContract)[M]['response']
>;
/** An event's payload. */
export type EventPayload<E extends EventName> = z.infer<(typeof eventContract)[E]>;

/** The schema of `{ code, message }`. */
export const publicErrorPayloadSchema = publicErrorSchema;
/** A failed call's error. */
export type PublicErrorPayload = z.infer<typeof publicErrorSchema>;

/** The envelope every method call resolves to on both transports. */
export type InvokeResult<M extends InvokeMethod> =
  { ok: true; value: InvokeResponse<M> } | { ok: false; error: PublicErrorPayload };

/** True when `name` is a method of the contract (transports refuse every other name). */
export function isInvokeMethod(name: unknown): name is InvokeMethod {
  return typeof name === 'string' && Object.hasOwn(invokeContract, name);
}

/** Every method name, for the preload and the WebSocket client. */
export const INVOKE_METHODS = Object.keys(invokeContract) as InvokeMethod[];
