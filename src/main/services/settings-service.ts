/**
 * Typed settings over the store's key/value table. Every key has a zod schema with defaults; a
 * write is validated whole (current value + patch) and refused with a message naming the field.
 * A stored value that no longer fits the schema (hand-edited, older version) falls back to the
 * defaults for that key instead of breaking start-up. The sandbox's memory per session is bounded
 * by the machine's, which the composition root hands in (`adapters/machine-memory.ts`).
 */
// zod's functional build: a settings group's schema costs a quarter of the classic API's to build
// and parse, and every start reads several groups (issue 24).
import { isAbsolute } from 'node:path';
import * as z from 'zod/mini';
import { endpointUrlSchema } from '../../shared/endpoint-url';
import { AivoryError } from '../../shared/errors';
import { isClientMetadataUrl } from '../../shared/mcp';
import { MCP_LOG_LEVELS } from '../core/ports';
import type { Logger, SettingsStore } from '../core/ports';

const searchSettings = () =>
  z.object({
    /** SearXNG is self-hosted and needs no key; Serper and Brave are paid and need one. */
    provider: z._default(z.enum(['disabled', 'searxng', 'serper', 'brave']), 'disabled'),
    /** The model editor's rule for URLs (`shared/endpoint-url.ts`); empty: the provider's own. */
    baseUrl: z._default(endpointUrlSchema("the provider's default address"), ''),
    /** Comma- or space-separated engine names, sent to SearXNG as `engines`; empty = instance default. */
    engines: z._default(z.string(), ''),
    apiKeyRef: z._default(z.nullable(z.string()), null),
  });

/** Below this, numpy + pandas + matplotlib have too little room under the worker's cap. */
export const MIN_SANDBOX_MEMORY_MIB = 512;

/** An integer from `min` to `max`, `fallback` when absent. */
const integer = (min: number, max: number, fallback: number) =>
  z._default(z.number().check(z.int(), z.minimum(min), z.maximum(max)), fallback);

/** The sandbox's settings on a machine with `machineMiB` MiB of memory: a session may not get more. */
const sandboxSettings = (machineMiB: number) =>
  z.object({
    /** An external sidecar (`SANDBOX_BASE_URL`'s setting); empty: the local one. */
    baseUrl: z._default(endpointUrlSchema('the local sandbox'), ''),
    apiKeyRef: z._default(z.nullable(z.string()), null),
    /** Seed: 执行超时 10–600 s, empty = 120. */
    execTimeoutSeconds: integer(10, 600, 120),
    /** Seed: 闲置回收 60–86400 s, default 1800. */
    idleReapSeconds: integer(60, 86_400, 1800),
    /**
     * Memory per session in MiB (the local sidecar's SANDBOX_MEMORY; seed: 2g). The container's
     * limit; Python gets a MemoryError a margin below it (sandbox/runner/worker.py).
     */
    memoryMiB: z._default(
      z.number().check(
        z.int(),
        z.minimum(MIN_SANDBOX_MEMORY_MIB),
        z.refine((mib) => mib <= machineMiB, {
          message: `must be at most this machine's memory (${machineMiB} MiB)`,
        }),
      ),
      Math.min(2048, machineMiB),
    ),
    /** Local sidecar: runc, runsc (gVisor) or auto (runsc when the engine lists it, else runc). */
    runtime: z._default(z.enum(['runc', 'runsc', 'auto']), 'auto'),
  });

const imageSettings = () =>
  z.object({
    /** image_generate is offered only when this is `openai` (any OpenAI-compatible Images API). */
    provider: z._default(z.enum(['disabled', 'openai']), 'disabled'),
    baseUrl: z._default(endpointUrlSchema(), 'https://api.openai.com/v1'),
    model: z._default(z.string().check(z.minLength(1)), 'gpt-image-1'),
    apiKeyRef: z._default(z.nullable(z.string()), null),
  });

const chatSettings = () =>
  z.object({
    defaultMode: z._default(z.enum(['fast', 'normal', 'deep']), 'normal'),
  });

const webSettings = () =>
  z.object({
    /** web_fetch / fetch_image: refuse ports other than 80/443 (off: any port of a public address). */
    refuseNonDefaultPorts: z._default(z.boolean(), false),
    /** Largest decoded body fetched, in megabytes. */
    maxBodyMegabytes: integer(1, 50, 5),
    /** Wall-clock bound for one fetch, redirects included. */
    deadlineSeconds: integer(5, 120, 20),
  });

const mcpSettings = () =>
  z.object({
    /** stdio MCP servers run a local command with the user's permissions: off until switched on. */
    allowLocalCommands: z._default(z.boolean(), false),
    /** What servers are asked to log (`logging/setLevel`) into their service's log file. */
    logLevel: z._default(z.enum(MCP_LOG_LEVELS), 'warning'),
    /** The same per service (by name), over `logLevel`. */
    serviceLogLevels: z._default(z.record(z.string(), z.enum(MCP_LOG_LEVELS)), {}),
    /** Services (ids) whose sampling requests run without asking ("Always for this server"). */
    samplingAlwaysAllow: z._default(
      z.array(z.string().check(z.maxLength(200))).check(z.maxLength(1000)),
      [],
    ),
    /**
     * OAuth: an https URL where the user publishes Aivory's Client ID Metadata Document; servers
     * that accept such documents then need no registration. Empty: dynamic registration.
     */
    oauthClientMetadataUrl: z._default(
      z.string().check(
        z.maxLength(2000),
        z.refine((text) => text === '' || isClientMetadataUrl(text), {
          message: 'must be an https:// URL with a path (or empty)',
        }),
      ),
      '',
    ),
  });

/**
 * Automatic backups (Settings → Data → Backups): off until switched on. The passphrase that seals
 * the secrets of an automatic backup is in the secret store; the group holds its reference only.
 * The last attempt and the claim of a running backup are other rows (`backup-status.ts`).
 */
const backupSettings = () =>
  z.object({
    auto: z._default(z.boolean(), false),
    /** An absolute folder (a synced folder, an external disk); null: `backups/` in the data folder. */
    folder: z._default(
      z.nullable(
        z.string().check(
          z.maxLength(4096),
          z.refine((path) => isAbsolute(path), { message: 'must be an absolute path (or null)' }),
        ),
      ),
      null,
    ),
    /** How old the last good backup may get before the next is made. */
    intervalHours: integer(1, 24 * 30, 24),
    /** How many backups the folder keeps; older `aivory-backup-*.tar` files are removed. */
    keep: integer(1, 100, 7),
    /** Seal the secrets with the saved passphrase; off: they are left out, said plainly. */
    includeSecrets: z._default(z.boolean(), false),
    passphraseRef: z._default(z.nullable(z.string()), null),
  });

const uiSettings = () =>
  z.object({
    language: z._default(z.enum(['system', 'zh-CN', 'en']), 'system'),
    /** Light, dark, or follow the system's `prefers-color-scheme` (live). */
    theme: z._default(z.enum(['system', 'light', 'dark']), 'system'),
  });

/**
 * Every settings key's schema, on a machine with `machineMiB` MiB of memory, each built when its
 * key is first read: a command reads only some (building a zod schema costs ~50 µs a node, and
 * these are a hundred; issue 24).
 */
export function settingsSchemas(machineMiB: number) {
  return {
    search: searchSettings,
    sandbox: () => sandboxSettings(machineMiB),
    images: imageSettings,
    chat: chatSettings,
    web: webSettings,
    mcp: mcpSettings,
    ui: uiSettings,
    backups: backupSettings,
  } as const;
}

type SettingsSchemas = { [K in keyof SchemaBuilders]: ReturnType<SchemaBuilders[K]> };
type SchemaBuilders = ReturnType<typeof settingsSchemas>;
export type SettingsKey = keyof SettingsSchemas;
export type Settings = { [K in SettingsKey]: z.infer<SettingsSchemas[K]> };

/** Each key once (the compiler checks the list against the schemas), in `settings show`'s order. */
const KEYS = {
  search: true,
  sandbox: true,
  images: true,
  chat: true,
  web: true,
  mcp: true,
  ui: true,
  backups: true,
} as const satisfies Record<SettingsKey, true>;

export const SETTINGS_KEYS = Object.keys(KEYS) as readonly SettingsKey[];

export function isSettingsKey(key: string): key is SettingsKey {
  return Object.hasOwn(KEYS, key);
}

export class SettingsService {
  private readonly builders: SchemaBuilders;
  private readonly schemas: Partial<SettingsSchemas> = {};

  /** `machineMemoryMiB`: this machine's memory, the bound of the sandbox's memory per session. */
  constructor(
    private readonly store: Pick<SettingsStore, 'getSetting' | 'setSetting'>,
    private readonly logger: Logger,
    machineMemoryMiB: number,
  ) {
    this.builders = settingsSchemas(machineMemoryMiB);
  }

  /** The key's schema, built on first use. */
  private schema<K extends SettingsKey>(key: K): SettingsSchemas[K] {
    return (this.schemas[key] ??= this.builders[key]() as SettingsSchemas[K]);
  }

  get<K extends SettingsKey>(key: K): Settings[K] {
    const schema = this.schema(key);
    const stored = this.store.getSetting(key);
    const parsed = schema.safeParse(stored ?? {});
    if (parsed.success) return parsed.data as Settings[K];
    // A value stored under an older, looser rule (a URL the shared rule now refuses) costs only
    // its own field, never the group: the API key reference and the rest stay as the user set them.
    const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')))];
    const kept = isRecord(stored)
      ? Object.fromEntries(Object.entries(stored).filter(([field]) => !fields.includes(field)))
      : {};
    const retried = schema.safeParse(kept);
    this.logger.warn('stored settings do not fit the schema; those fields use their defaults', {
      key,
      fields: retried.success ? fields : 'all',
    });
    return (retried.success ? retried.data : schema.parse({})) as Settings[K];
  }

  /** Validates `current + patch` and stores it; returns the stored value. */
  update<K extends SettingsKey>(key: K, patch: Partial<Settings[K]>): Settings[K] {
    const schema = this.schema(key);
    const parsed = schema.safeParse({ ...this.get(key), ...patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue ? [key, ...issue.path.map(String)].join('.') : key;
      throw new AivoryError(
        'invalid-input',
        `Invalid setting ${field}: ${issue?.message ?? 'invalid value'}.`,
      );
    }
    this.store.setSetting(key, parsed.data);
    return parsed.data as Settings[K];
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
