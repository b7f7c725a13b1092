/**
 * `aivory doctor [--model NAME]`: the seed's troubleshooting table (运行与故障检查 / 工具类故障速查)
 * as a diagnostic. Checks the data directory, the model server, and for every tool whether it
 * reaches models and, if not, which layer stops it (global switch > model defaults > backend).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { toPublicError } from '../../shared/errors';
import type { StorageError } from '../../shared/errors';
import { listServerModels } from '../adapters/lazy-clients';
import type { AppContext } from '../services/app-context';
import { mergeOverrides, modelOverridesFromEnv } from '../services/model-resolution';
import { PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { MAX_TURN_TOOLS } from '../services/tool-selection';
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
  ];
  checks.push(
    await modelCheck(context, io, {
      model: values.model,
      baseUrl: values['base-url'],
      apiKey: values['api-key'],
    }),
  );
  checks.push(...(await toolChecks(context)));
  checks.push(...(await keptWorkspaceChecks(context.dataDir, io.env)));
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

async function toolChecks(context: AppContext): Promise<DoctorCheck[]> {
  const defaults = context.models.defaultModel()?.defaultTools ?? null;
  const checks: DoctorCheck[] = [];
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
    const extra = name === PYTHON_EXECUTE_NAME ? ` — ${await sandboxDetail(context)}` : '';
    checks.push({ subject, ok: true, detail: `available${extra}` });
  }
  return checks;
}

async function sandboxDetail(context: AppContext): Promise<string> {
  const { client, status } = await context.sandbox.resolve();
  if (!client || status.state === 'unavailable') return 'no sandbox';
  try {
    const health = await client.health();
    const warnings = health.warnings?.length ? `; warnings: ${health.warnings.join(' ')}` : '';
    const engine = health.engine
      ? `, engine ${health.engine} ${health.engine_version ?? ''}`.trimEnd()
      : '';
    const runtime = health.runtime
      ? `, runtime ${health.runtime} — ${health.isolation ?? 'isolation unknown'}`
      : '';
    // A local sidecar started on first use has its address once health() started it.
    return `${status.state} sandbox at ${client.url ?? 'loopback'}: docker ${health.docker ? 'ok' : 'unreachable'}${engine}, image ${health.image}${runtime}${warnings}`;
  } catch (error) {
    const where = client.url === null ? '' : ` at ${client.url}`;
    return `${status.state} sandbox${where} does not answer: ${toPublicError(error).message}`;
  }
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
  const archives = env.SANDBOX_ARCHIVE_DIR ?? join(dataDir, 'sandbox', 'archives');
  let text: string;
  try {
    text = await readFile(join(archives, 'sessions.json'), 'utf8');
  } catch {
    return [];
  }
  return keptWorkspaces(text).map((kept) => ({
    subject: `sandbox files of conversation ${kept.conversation}`,
    ok: false,
    detail: [
      `not saved; kept in the running container ${kept.containerId.slice(0, 12)} since ${kept.since} (${kept.error}).`,
      `  The files exist only in that container: do not remove it (docker rm) or restart Docker until they are saved.`,
      `  Free disk space for ${archives} (or fix the archive store), then start Aivory again: it saves them at start,`,
      `  and opening the conversation takes the container over with its files.`,
    ].join('\n'),
  }));
}

/**
 * The kept containers in a session index's JSON text: `{ <container id>: { conversation,
 * started_at, kept?: { since, error } } }`; anything malformed is left out.
 */
function keptWorkspaces(
  text: string,
): { containerId: string; conversation: string; since: string; error: string }[] {
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
