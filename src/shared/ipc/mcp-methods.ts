/**
 * The MCP part of the IPC contract (settings → MCP services): list, add, test, sync with a diff,
 * accept, enable, per-tool approval policy, remove, and the service's prompts and resources. Views
 * never carry a header or environment value in clear: `headers` / `env` values are masks.
 */
import { z } from 'zod';
import { idSchema, MAX_URL_CHARS } from './dto-schemas';
import { mcpToolInfoSchema } from './mcp-tool-info-schema';

export { mcpToolInfoSchema };

/** How the app reaches a service. */
export const mcpTransportSchema = z.enum(['streamable-http', 'sse', 'stdio']);
/**
 * Per tool: `default` asks unless the tool says it is read-only; `allow` is "always allow" (but a
 * turn that read untrusted content asks); `allow-even-after-web` is "always, even after web content".
 */
export const mcpApprovalPolicySchema = z.enum([
  'default',
  'ask',
  'allow',
  'allow-even-after-web',
  'deny',
]);
/** The three states of the seed's test button. */
export const mcpTestStateSchema = z.enum(['untested', 'connected', 'error']);

/** A header or environment variable as views show it: the value masked. */
const maskedEntrySchema = z.object({ name: z.string(), value: z.string() });

/** The OAuth sign-in of an HTTP service, as the card shows it. */
export const mcpSignInStatusSchema = z.object({
  signedIn: z.boolean(),
  authServer: z.string().nullable(),
  expiresAt: z.number().nullable(),
  scope: z.string().nullable(),
  refreshable: z.boolean(),
});

/** A service as the settings page shows it. */
export const mcpServiceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string(),
  description: z.string(),
  transport: mcpTransportSchema,
  url: z.string().nullable(),
  command: z.string().nullable(),
  args: z.array(z.string()),
  headers: z.array(maskedEntrySchema),
  env: z.array(maskedEntrySchema),
  enabled: z.boolean(),
  timeoutMs: z.number(),
  maxTimeoutMs: z.number(),
  testState: mcpTestStateSchema,
  testMessage: z.string().nullable(),
  testedAt: z.number().nullable(),
  syncedAt: z.number().nullable(),
  /** The server announced changed tools since the last sync. */
  stale: z.boolean(),
  toolCount: z.number(),
  callableCount: z.number(),
  pendingChanges: z.number(),
  /** OAuth: null for stdio services. */
  signIn: mcpSignInStatusSchema.nullable(),
  /** A client registered beforehand (its id; the secret never leaves the main process). */
  oauthClientId: z.string().nullable(),
  /** Other origins of the service's local host the user trusts for its sign-in. */
  trustedSignInOrigins: z.array(z.string()),
  /**
   * The last sign-in was refused for going to this other origin of the service's local host:
   * the card asks whether to trust it. Null otherwise.
   */
  refusedSignInOrigin: z.string().nullable(),
  /**
   * The resource moved its sign-in from the authorization server the service is bound to
   * (`from`) to another one (`to`), and nothing was sent there: the card asks whether to sign in
   * there (`mcp.approveAuthServer`). Null otherwise.
   */
  movedSignIn: z.object({ from: z.string(), to: z.string() }).nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

/** One line of a sync diff (accepted → latest). */
export const mcpToolChangeSchema = z.object({
  tool: z.string(),
  kinds: z.array(z.enum(['added', 'removed', 'description', 'schema', 'annotations'])),
  before: mcpToolInfoSchema.nullable(),
  after: mcpToolInfoSchema.nullable(),
});

/** A tool of a service: accepted and latest snapshots, approval policy, callable now. */
export const mcpToolRecordSchema = z.object({
  name: z.string(),
  accepted: mcpToolInfoSchema.nullable(),
  latest: mcpToolInfoSchema.nullable(),
  approval: mcpApprovalPolicySchema,
  callable: z.boolean(),
});

const byId = z.object({ id: idSchema }).strict();
const ok = z.object({ ok: z.literal(true) });
const secretEntry = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(100),
    value: z.string().min(1, 'a value is required').max(8192),
  })
  .strict();

/** A new service as the form sends it (the service validates it further). */
export const mcpAddRequestSchema = z
  .object({
    name: z.string().trim().min(1, 'a name is required').max(64, 'at most 64 characters'),
    icon: z.string().trim().min(1, 'an icon is required').max(32, 'at most 32 characters'),
    description: z
      .string()
      .trim()
      .min(1, 'a tool description is required (it tells the model when to use the service)')
      .max(1000, 'at most 1000 characters'),
    transport: mcpTransportSchema,
    url: z.string().trim().min(1, 'a URL is required').max(MAX_URL_CHARS).optional(),
    headers: z.array(secretEntry).max(50).optional(),
    timeoutSeconds: z.number().int().min(1).max(3600).optional(),
    maxTimeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(24 * 3600)
      .optional(),
    /** stdio only. */
    command: z.string().trim().min(1, 'a command is required').max(4096).optional(),
    args: z.array(z.string().max(4096)).max(100).optional(),
    env: z.array(secretEntry).max(100).optional(),
    /**
     * stdio only: the loader variables of `env` (NODE_OPTIONS, LD_PRELOAD…: `loader-env.ts`) the
     * user allowed for this service, each ticked; any other is refused.
     */
    allowLoaderEnv: z.array(z.string().max(100)).max(100).optional(),
    /** stdio only: the user confirmed the exact command line shown to them. */
    confirmCommand: z.literal(true).optional(),
  })
  .strict();

const libraryPromptSchema = z.object({
  name: z.string(),
  description: z.string(),
  arguments: z.array(
    z.object({ name: z.string(), description: z.string(), required: z.boolean() }),
  ),
});
const libraryResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  description: z.string(),
  mimeType: z.string().nullable(),
});

/** The `mcp.*` methods, spread into `invokeContract`. */
export const mcpMethods = {
  'mcp.list': {
    request: z.object({}).strict().optional(),
    response: z.object({
      services: z.array(mcpServiceViewSchema),
      /** settings → mcp.allowLocalCommands: stdio services may be added. */
      allowLocalCommands: z.boolean(),
    }),
  },
  /** Adds a service; header/env values go to the secret store. `notice` for local hosts. */
  'mcp.add': {
    request: mcpAddRequestSchema,
    response: z.object({ service: mcpServiceViewSchema, notice: z.string().nullable() }),
  },
  /**
   * Changes a service: only the fields given. Headers / env given replace the saved ones (their
   * values are never sent back, so absent keeps them); a new address makes it untested again.
   */
  'mcp.update': {
    request: mcpAddRequestSchema
      .partial()
      .extend({
        id: idSchema,
        /** A URL on another origin drops the saved headers unless this is true. */
        keepHeaders: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ service: mcpServiceViewSchema, notice: z.string().nullable() }),
  },
  'mcp.remove': { request: byId, response: ok },
  /**
   * Signs in with OAuth: the sign-in page opens in the browser (and `mcp.signInPage` carries its
   * link); resolves when the user has finished there (or the sign-in failed / timed out).
   */
  'mcp.login': {
    request: byId,
    response: z.object({ ok: z.boolean(), message: z.string(), service: mcpServiceViewSchema }),
  },
  /**
   * Trusts (`trusted: true`) or stops trusting another origin (scheme://host:port) of the
   * service's local host for its sign-in; the service checks it (its own host, which must be local).
   */
  'mcp.trustSignInOrigin': {
    request: z
      .object({ id: idSchema, origin: z.string().min(1).max(300), trusted: z.boolean() })
      .strict(),
    response: mcpServiceViewSchema,
  },
  /**
   * Binds the service's sign-in to an authorization server (the user's answer to `movedSignIn`):
   * the sign-in made with another one is dropped; the next test signs in there.
   */
  'mcp.approveAuthServer': {
    request: z.object({ id: idSchema, issuer: z.string().min(1).max(300) }).strict(),
    response: mcpServiceViewSchema,
  },
  /** Signs out: the saved tokens are deleted. */
  'mcp.logout': { request: byId, response: mcpServiceViewSchema },
  /** Connect + initialize + list tools; records connected / error with the reason. */
  'mcp.test': {
    request: byId,
    response: z.object({ ok: z.boolean(), message: z.string(), service: mcpServiceViewSchema }),
  },
  /** Fetches the tool list as the latest snapshot; the diff against the accepted one. */
  'mcp.sync': {
    request: z.object({ id: idSchema, accept: z.boolean().optional() }).strict(),
    response: z.object({
      toolCount: z.number(),
      changes: z.array(mcpToolChangeSchema),
      service: mcpServiceViewSchema,
    }),
  },
  'mcp.diff': { request: byId, response: z.array(mcpToolChangeSchema) },
  /** Accepts the latest snapshot: new and changed tools become callable. */
  'mcp.accept': { request: byId, response: mcpServiceViewSchema },
  /** "Available to me"; refused until the service has been synced. */
  'mcp.setEnabled': {
    request: z.object({ id: idSchema, enabled: z.boolean() }).strict(),
    response: mcpServiceViewSchema,
  },
  'mcp.tools': { request: byId, response: z.array(mcpToolRecordSchema) },
  'mcp.setApproval': {
    request: z
      .object({ id: idSchema, tool: z.string().min(1).max(200), policy: mcpApprovalPolicySchema })
      .strict(),
    response: z.array(mcpToolRecordSchema),
  },
  /** The service's prompts and resources (for inserting into the composer). */
  'mcp.library': {
    request: byId,
    response: z.object({
      prompts: z.array(libraryPromptSchema),
      resources: z.array(libraryResourceSchema),
      /** Resource templates (RFC 6570): filled in by the user, then read like a resource. */
      templates: z.array(
        z.object({
          uriTemplate: z.string(),
          name: z.string(),
          description: z.string(),
          mimeType: z.string().nullable(),
        }),
      ),
      /** The server suggests argument values as the user types (`mcp.complete`). */
      completions: z.boolean(),
      /** Its resources can be watched for changes (`mcp.watchResource`). */
      subscribe: z.boolean(),
    }),
  },
  /**
   * The server's suggestions for an argument of a prompt (`name`) or resource template (`uri`,
   * the template) as the user types `value`; `context` holds the other arguments' values. None
   * when the server does not offer completions. Values are the server's text: shown as text.
   */
  'mcp.complete': {
    request: z
      .object({
        id: idSchema,
        ref: z.discriminatedUnion('type', [
          z.object({ type: z.literal('prompt'), name: z.string().min(1).max(200) }).strict(),
          z
            .object({ type: z.literal('resource'), uri: z.string().min(1).max(MAX_URL_CHARS) })
            .strict(),
        ]),
        argument: z
          .object({ name: z.string().min(1).max(100), value: z.string().max(1000) })
          .strict(),
        context: z.record(z.string().max(100), z.string().max(1000)).optional(),
      })
      .strict(),
    response: z.object({
      values: z.array(z.string()),
      hasMore: z.boolean(),
      total: z.number().nullable(),
    }),
  },
  /**
   * Watches a resource for changes (`resources/subscribe` on the service's shared session): each
   * change is an `mcp.resourceUpdated` event with the watch's id (read it again); the watch ends
   * with `mcp.unwatchResource`, when the last window leaves, or (`mcp.watchEnded`) when it cannot
   * be made again after the session was replaced.
   */
  'mcp.watchResource': {
    request: z.object({ id: idSchema, uri: z.string().min(1).max(MAX_URL_CHARS) }).strict(),
    response: z.object({ watchId: z.string() }),
  },
  'mcp.unwatchResource': {
    request: z.object({ watchId: z.string().min(1).max(100) }).strict(),
    response: z.object({ ok: z.boolean() }),
  },
  'mcp.getPrompt': {
    request: z
      .object({
        id: idSchema,
        name: z.string().min(1).max(200),
        arguments: z.record(z.string().max(100), z.string().max(10_000)).optional(),
      })
      .strict(),
    response: z.object({ text: z.string() }),
  },
  'mcp.readResource': {
    request: z.object({ id: idSchema, uri: z.string().min(1).max(MAX_URL_CHARS) }).strict(),
    response: z.object({ text: z.string() }),
  },
  /**
   * Reads a resource for attaching it to the next message: its text parts as text files, its
   * binary parts as files (typed from their bytes), named from the URI, within the upload caps.
   * The files come back to the composer and are sent with `chat.send` like uploads.
   */
  'mcp.attachResource': {
    request: z.object({ id: idSchema, uri: z.string().min(1).max(MAX_URL_CHARS) }).strict(),
    response: z.object({
      /** The service's name, for the chips. */
      service: z.string(),
      files: z.array(
        z.object({
          name: z.string(),
          mime: z.string(),
          size: z.number(),
          dataBase64: z.string(),
        }),
      ),
    }),
  },
};

/** MCP events, spread into `eventContract`. */
export const mcpEvents = {
  /** A server announced changed tools (tools/list_changed): the user should re-sync. */
  'mcp.stale': z.object({ serviceId: z.string(), name: z.string() }),
  /** A server's prompts or resources changed: an open list of them reloads. */
  'mcp.libraryChanged': z.object({ serviceId: z.string() }),
  /** A watched resource changed (the server said so): read it again. */
  'mcp.resourceUpdated': z.object({ watchId: z.string(), serviceId: z.string(), uri: z.string() }),
  /** A watch ended by itself (its subscription could not be made again), with why. */
  'mcp.watchEnded': z.object({
    watchId: z.string(),
    serviceId: z.string(),
    uri: z.string(),
    reason: z.string(),
  }),
  /** A sign-in page was opened in the browser (its link, for when it did not open). */
  'mcp.signInPage': z.object({ serviceId: z.string(), name: z.string(), url: z.string() }),
};
