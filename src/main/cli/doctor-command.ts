/**
 * `aivory doctor [--model NAME]`: the seed's troubleshooting table (运行与故障检查 / 工具类故障速查)
 * as a diagnostic. Checks the data directory, the model server, and for every tool whether it
 * reaches models and, if not, which layer stops it (global switch > model defaults > backend).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { toPublicError } from '../../shared/errors';
import { oneLine } from '../../shared/untrusted-text';
import type { StorageError } from '../../shared/errors';
import { formatBytes } from '../../shared/byte-size';
import type { UpgradeSnapshot } from '../adapters/sqlite/sqlite-store';
import { listServerModels } from '../adapters/lazy-clients';
import type { AppContext } from '../composition/app-context';
import { mergeOverrides, modelOverridesFromEnv } from '../services/model-resolution';
import { PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { MAX_TURN_TOOLS } from '../services/tool-selection';
import { backupReport } from './backup-status-lines';
import { EXIT_FAILED, EXIT_OK } from './cli-errors';
import { shellWord } from './cli-args';
import type { CliIo } from './cli-io';

/** A model server that does not answer `GET /models` in this long is reported as unreachable. */
const MODEL_CHECK_TIMEOUT_MS = 10_000;

export interface DoctorCheck {
  subject: string;
  ok: boolean;
  detail: string;
}

export async function doctorCommand(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const damage = context.database.checkIntegrity();
  const checks: DoctorCheck[] = [
    {
      subject: 'data directory',
      ok: true,
      detail: `${context.dataDir} (schema version ${context.database.connectionInfo().schemaVersion})`,
    },
    damage === null
      ? { subject: 'database', ok: true, detail: 'every page reads back intact' }
      : storageCheck(damage),
    snapshotsCheck(context.database.upgradeSnapshots()),
    backupCheck(context),
  ];
  checks.push(
    await modelCheck(context, io, {
      model: values.model,
      baseUrl: values['base-url'],
      apiKey: values['api-key'],
    }),
  );
  const tools = await toolChecks(context);
  checks.push(...tools.checks);
  // The sandbox's own list when it answered (any sandbox: local, external, S3-backed); else the
  // local sidecar's session index, read without starting it.
  checks.push(
    ...(tools.unsaved === null
      ? await keptWorkspaceChecks(context.dataDir, io.env)
      : unsavedWorkspaceChecks(tools.unsaved, archiveFolder(context.dataDir, io.env), tools.url)),
  );
  checks.push(...(await mcpChecks(context)));
  const limit = await toolLimitCheck(context);
  if (limit !== null) checks.push(limit);
  if (values.json) io.stdout(`${JSON.stringify(checks, null, 2)}\n`);
  else
    for (const check of checks)
      io.stdout(`${check.ok ? '✓' : '✗'} ${check.subject}: ${check.detail}\n`);
  return checks.every(
    (check) => check.ok || check.subject.startsWith('tool ') || check.subject.startsWith('mcp '),
  )
    ? EXIT_OK
    : EXIT_FAILED;
}

/** The last verified backup and its age; a warning when it failed or the schedule is behind. */
function backupCheck(context: AppContext): DoctorCheck {
  const report = backupReport(context);
  const detail =
    report.health.warning === null
      ? `${report.lastGood}; ${report.schedule}`
      : `${report.health.warning}\n  Last verified backup: ${report.lastGood}; ${report.schedule}`;
  return { subject: 'backup', ok: report.health.state === 'ok', detail };
}

/**
 * `aivory doctor` when the app could not open (the database is damaged, locked, on a full disk,
 * the folder read-only): the one check that failed, with what to do. Returns the exit code.
 */
export function doctorWithoutStore(error: StorageError, io: CliIo, json: boolean): number {
  const check = storageCheck(error);
  if (json) io.stdout(`${JSON.stringify([check], null, 2)}\n`);
  else io.stdout(`✗ ${check.subject}: ${check.detail}\n`);
  return EXIT_FAILED;
}

/** A storage failure as a doctor check; a damaged database gets the steps to recover it. */
function storageCheck(error: StorageError): DoctorCheck {
  if (error.problem !== 'damaged') return { subject: 'database', ok: false, detail: error.message };
  const database = error.path;
  const folder = dirname(database);
  const name = basename(database);
  const files = `${name}, ${name}-wal and ${name}-shm (those that exist)`;
  const recovered = join(folder, `${name.replace(/\.db$/, '')}-recovered.db`);
  const copy =
    error.copyPath === null
      ? 'No copy could be made: copy it somewhere safe before you try anything.'
      : `A copy of it as found is at ${error.copyPath}.`;
  return {
    subject: 'database',
    ok: false,
    detail: [
      `${error.what}. Aivory has not changed it. ${copy}`,
      `  To recover what can still be read (needs the sqlite3 command): sqlite3 ${shellWord(database)} .recover | sqlite3 ${shellWord(recovered)}`,
      `  then move ${files} out of ${folder}, and rename ${basename(recovered)} to ${name}.`,
      `  To start afresh instead: move ${files} out of ${folder}; Aivory creates an empty database at its next start (your keys in secrets.json stay).`,
    ].join('\n'),
  };
}

/** The copies of the database kept from before schema upgrades: where, how large, when. */
function snapshotsCheck(snapshots: readonly UpgradeSnapshot[]): DoctorCheck {
  const subject = 'copies before upgrades';
  if (snapshots.length === 0)
    return { subject, ok: true, detail: 'none yet (one is saved before every schema upgrade)' };
  const lines = snapshots.map(
    (snapshot) =>
      `  ${snapshot.path} (${formatBytes(snapshot.bytes)}, ${new Date(snapshot.madeAt).toISOString().slice(0, 16).replace('T', ' ')} UTC, schema version ${snapshot.fromVersion} before the upgrade to ${snapshot.toVersion})`,
  );
  return {
    subject,
    ok: true,
    detail: [`the last ${snapshots.length} kept, newest first:`, ...lines].join('\n'),
  };
}

async function modelCheck(
  context: AppContext,
  io: CliIo,
  flags: { model: string | undefined; baseUrl: string | undefined; apiKey: string | undefined },
): Promise<DoctorCheck> {
  try {
    const model = await context.models.resolve(
      mergeOverrides(flags, modelOverridesFromEnv(io.env)),
    );
    const served = await listServerModels({
      baseUrl: model.baseUrl,
      apiKey: model.apiKey,
      maxRetries: 0,
      signal: AbortSignal.timeout(MODEL_CHECK_TIMEOUT_MS),
    });
    const listed = served.includes(model.model);
    return {
      subject: 'model',
      ok: true,
      detail: `${model.model} @ ${model.baseUrl} (${model.toolMode} tool mode) — server reachable, ${listed ? 'model listed' : `model not in its list of ${served.length} (it may still work)`}`,
    };
  } catch (error) {
    return { subject: 'model', ok: false, detail: toPublicError(error).message };
  }
}

/**
 * One check per tool; with the sandbox's report when python_execute is checked: the workspaces it
 * says could not be saved (null when it was not asked or did not answer) and its address.
 */
async function toolChecks(
  context: AppContext,
): Promise<{ checks: DoctorCheck[]; unsaved: UnsavedEntry[] | null; url: string | null }> {
  const defaults = context.models.defaultModel()?.defaultTools ?? null;
  const checks: DoctorCheck[] = [];
  let sandbox: SandboxReport | null = null;
  for (const { name, enabled, tool, reason } of await context.tools.list()) {
    const subject = `tool ${name}`;
    if (!enabled) {
      checks.push({
        subject,
        ok: false,
        detail: 'switched off globally (settings → tools): removed from every model',
      });
      continue;
    }
    if (!tool) {
      checks.push({ subject, ok: false, detail: reason ?? 'not available' });
      continue;
    }
    if (defaults !== null && !defaults.includes(name)) {
      checks.push({
        subject,
        ok: true,
        detail:
          "available, but not in the default model's default tools (use --tools to include it)",
      });
      continue;
    }
    if (name === PYTHON_EXECUTE_NAME) sandbox = await sandboxReport(context);
    const extra = name === PYTHON_EXECUTE_NAME && sandbox ? ` — ${sandbox.detail}` : '';
    checks.push({ subject, ok: true, detail: `available${extra}` });
  }
  return { checks, unsaved: sandbox?.unsaved ?? null, url: sandbox?.url ?? null };
}

/** What the sandbox said: a line for the python_execute check, and its unsaved workspaces. */
interface SandboxReport {
  detail: string;
  /** Null when it did not answer, or is older and lists them among its warnings. */
  unsaved: UnsavedEntry[] | null;
  /** Its address when it is not the local sidecar. */
  url: string | null;
}

async function sandboxReport(context: AppContext): Promise<SandboxReport> {
  const { client, status } = await context.sandbox.resolve();
  if (!client || status.state === 'unavailable') {
    return { detail: 'no sandbox', unsaved: null, url: null };
  }
  const url = status.state === 'local' ? null : client.url;
  try {
    const health = await client.health();
    const warnings = health.warnings?.length
      ? `; warnings: ${health.warnings.map((warning) => oneLine(warning, 300)).join(' ')}`
      : '';
    const engine = health.engine
      ? `, engine ${health.engine} ${health.engine_version ?? ''}`.trimEnd()
      : '';
    const runtime = health.runtime
      ? `, runtime ${health.runtime} — ${health.isolation ?? 'isolation unknown'}`
      : '';
    // A local sidecar started on first use has its address once health() started it.
    return {
      detail: `${status.state} sandbox at ${client.url ?? 'loopback'}: docker ${health.docker ? 'ok' : 'unreachable'}${engine}, image ${health.image}${runtime}${warnings}`,
      unsaved: unsavedEntries(health.unsaved),
      url,
    };
  } catch (error) {
    const where = client.url === null ? '' : ` at ${client.url}`;
    return {
      detail: `${status.state} sandbox${where} does not answer: ${toPublicError(error).message}`,
      unsaved: null,
      url,
    };
  }
}

/** A workspace the sandbox could not save, as doctor lists it. */
interface UnsavedEntry {
  conversation: string;
  containerId: string;
  /** Since when its container is kept after its session ended; null while the session lives. */
  since: string | null;
  error: string;
}

/** Most workspaces listed from one report (what a sandbox sends is not trusted to be sane). */
const MAX_UNSAVED_LISTED = 50;

/** The report's `unsaved` list, checked entry by entry (null: the sandbox does not send one). */
function unsavedEntries(value: unknown): UnsavedEntry[] | null {
  if (!Array.isArray(value)) return null;
  return value.slice(0, MAX_UNSAVED_LISTED).flatMap((item: unknown): UnsavedEntry[] => {
    if (item === null || typeof item !== 'object') return [];
    const entry = item as Record<string, unknown>;
    const { conversation_id: conversation, container_id: containerId, error } = entry;
    const since = entry.kept_since ?? null;
    if (typeof conversation !== 'string' || typeof containerId !== 'string') return [];
    if (typeof error !== 'string' || (since !== null && typeof since !== 'string')) return [];
    return [
      {
        conversation: oneLine(conversation, 128),
        containerId: oneLine(containerId, 64),
        since: since === null ? null : oneLine(since, 40),
        error: oneLine(error, 300),
      },
    ];
  });
}

/** The local sidecar's archive folder (where a full disk must be freed). */
function archiveFolder(dataDir: string, env: NodeJS.ProcessEnv): string {
  return env.SANDBOX_ARCHIVE_DIR ?? join(dataDir, 'sandbox', 'archives');
}

/**
 * One check per workspace whose files could not be saved, with what to do: the files exist only
 * in a container. `url` names a sandbox that is not the local sidecar (its store is its own).
 */
function unsavedWorkspaceChecks(
  entries: readonly UnsavedEntry[],
  archives: string,
  url: string | null,
): DoctorCheck[] {
  const store =
    url === null
      ? `disk space for ${archives}`
      : `space where the sandbox at ${url} saves workspaces`;
  return entries.map((entry) => {
    const container = entry.containerId.slice(0, 12);
    const lines =
      entry.since === null
        ? [
            `not saved; only the sandbox's running container ${container} holds them (${entry.error}).`,
            `  Free ${store} (or fix the archive store): saving is tried again after each run and when the session ends.`,
          ]
        : [
            `not saved; kept in the running container ${container} since ${entry.since} (${entry.error}).`,
            `  The files exist only in that container: do not remove it (docker rm) or restart Docker until they are saved.`,
            `  Free ${store} (or fix the archive store), then start ${url === null ? 'Aivory' : 'the sandbox'} again: it saves them at start,`,
            `  and opening the conversation takes the container over with its files.`,
          ];
    return {
      subject: `sandbox files of conversation ${entry.conversation}`,
      ok: false,
      detail: lines.join('\n'),
    };
  });
}

/**
 * Sandbox workspaces that could not be saved when their session ended (a full disk, an
 * unreachable store) and whose containers were kept running with the files: listed in the local
 * sidecar's session index (`sessions.json` beside the archives; its entries are described by
 * `IndexEntry` in sandbox/src/archive-store.ts). One check each, with what to do.
 */
export async function keptWorkspaceChecks(
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<DoctorCheck[]> {
  const archives = archiveFolder(dataDir, env);
  let text: string;
  try {
    text = await readFile(join(archives, 'sessions.json'), 'utf8');
  } catch {
    return [];
  }
  return unsavedWorkspaceChecks(keptWorkspaces(text), archives, null);
}

/**
 * The kept containers in a session index's JSON text: `{ <container id>: { conversation,
 * started_at, kept?: { since, error } } }`; anything malformed is left out.
 */
function keptWorkspaces(text: string): UnsavedEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  return Object.entries(parsed).flatMap(([containerId, entry]: [string, unknown]) => {
    if (entry === null || typeof entry !== 'object') return [];
    const { conversation, kept } = entry as { conversation?: unknown; kept?: unknown };
    if (typeof conversation !== 'string' || kept === null || typeof kept !== 'object') return [];
    const { since, error } = kept as { since?: unknown; error?: unknown };
    if (typeof since !== 'string' || typeof error !== 'string') return [];
    return [{ containerId, conversation, since, error }];
  });
}

/**
 * More tools than one request carries (built-in + every callable MCP tool): a turn that offers
 * them all keeps the built-ins and the services it chose, and leaves the rest out (logged).
 */
async function toolLimitCheck(context: AppContext): Promise<DoctorCheck | null> {
  const candidates = await context.tools.candidates();
  if (candidates.length <= MAX_TURN_TOOLS) return null;
  const mcp = candidates.filter((candidate) => candidate.source === 'mcp').length;
  return {
    subject: 'tool limit',
    ok: false,
    detail: `${candidates.length} tools (${candidates.length - mcp} built-in, ${mcp} MCP), but one request carries at most ${MAX_TURN_TOOLS}: a turn keeps the built-in tools and the services it chose (--mcp, a model's MCP defaults) and leaves the others out (see the log); narrow them with aivory models mcp MODEL_ID --mcp …`,
  };
}

/** Each MCP service: whether models can use it now, and if not, the next step. */
async function mcpChecks(context: AppContext): Promise<DoctorCheck[]> {
  const services = await context.mcp.list();
  return services.map((service) => {
    const subject = `mcp ${service.name}`;
    if (service.syncedAt === null)
      return { subject, ok: false, detail: `never synced: aivory mcp sync ${service.name}` };
    if (!service.enabled)
      return { subject, ok: false, detail: `disabled: aivory mcp enable ${service.name}` };
    if (service.testState === 'error')
      return { subject, ok: false, detail: `last test failed: ${service.testMessage ?? ''}` };
    const pending =
      service.pendingChanges > 0
        ? `; ${service.pendingChanges} changes wait for review (aivory mcp diff ${service.name})`
        : '';
    const stale = service.stale ? '; the server reported changed tools: sync again' : '';
    return {
      subject,
      ok: service.callableCount > 0,
      detail: `${service.callableCount} of ${service.toolCount} ${service.toolCount === 1 ? 'tool' : 'tools'} callable${pending}${stale}`,
    };
  });
}
