/**
 * `aivory backup create [--to DIR] [--passphrase-file F | --no-secrets]`, `aivory backup verify
 * FILE`, `aivory backup status [--json]` (the last verified backup, the schedule, a warning) and `aivory backup restore FILE [--passphrase-file F | --no-secrets] [--yes]`. A backup is
 * one file: the database (a consistent copy), the files, the saved workspaces and — only sealed
 * with a passphrase the user chose — the secrets; it is read back whole before it is reported
 * written. A restore runs without the app context (it replaces the database the context holds).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatBytes } from '../../shared/byte-size';
import { MIN_PASSPHRASE_LENGTH } from '../../shared/ipc/limits';
import type { AppContext } from '../composition/app-context';
import type { CheckedBackup, RestoreResult } from '../composition/backups';
import { joinOptionValues } from './cli-args';
import { backupReport } from './backup-status-lines';
import { EXIT_FAILED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';

const USAGE =
  'Usage: aivory backup create [--to DIR] [--passphrase-file F | --no-secrets] | verify FILE | restore FILE [--passphrase-file F | --no-secrets] [--yes] | status [--json]';

const OPTIONS = {
  to: { type: 'string' },
  'passphrase-file': { type: 'string' },
  'no-secrets': { type: 'boolean', default: false },
  yes: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

/** The environment variable a script may hold the passphrase in instead of a file. */
const PASSPHRASE_VARIABLE = 'AIVORY_BACKUP_PASSPHRASE';

type Values = ReturnType<typeof parse>['values'];

/** A folder or file as given: an s3:// address as it is, a path made absolute. */
function place(text: string): string {
  return text.startsWith('s3://') ? text : resolve(text);
}

function parse(argv: string[]) {
  return parseArgs({
    args: joinOptionValues(argv, OPTIONS),
    allowPositionals: true,
    options: OPTIONS,
  });
}

/** `backup create` and `backup verify`, with the app open. */
export async function backupCommand(
  argv: string[],
  context: AppContext,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parse(argv);
  const [action, file, ...rest] = positionals;
  if (rest.length > 0) throw usageError(`Unexpected argument "${rest.join(' ')}". ${USAGE}`);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  io.onInterrupt(interrupt);
  try {
    if (action === 'create') {
      if (file !== undefined) throw usageError(`Unexpected argument "${file}". ${USAGE}`);
      return await create(values, context, io, controller.signal);
    }
    if (action === 'status') {
      if (file !== undefined) throw usageError(`Unexpected argument "${file}". ${USAGE}`);
      return status(values.json, context, io);
    }
    if (action === 'verify') {
      if (file === undefined) throw usageError('Usage: aivory backup verify FILE');
      const where = place(file);
      const checked = await context.backups.verify(where, controller.signal);
      if (values.json) io.stdout(`${JSON.stringify(summary(where, checked))}\n`);
      else io.stdout(`${where} is a good backup of ${describe(checked)}.\n`);
      return EXIT_OK;
    }
    throw usageError(action === undefined ? USAGE : `Unknown action "${action}". ${USAGE}`);
  } finally {
    io.offInterrupt(interrupt);
  }
}

async function create(
  values: Values,
  context: AppContext,
  io: CliIo,
  signal: AbortSignal,
): Promise<number> {
  const secretCount = (await context.secrets.refs()).length;
  const passphrase =
    secretCount === 0 || values['no-secrets']
      ? null
      : await passphraseFor('create', values, io, signal, secretCount);
  const progress = progressLine(io);
  const created = await context.backups.create({
    destination: values.to === undefined ? undefined : place(values.to),
    passphrase,
    signal,
    onProgress: progress.show,
  });
  progress.clear();
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ file: created.file, size: created.size, verified: true, ...created.manifest, files: fileCount(created.manifest.files) })}\n`,
    );
    return EXIT_OK;
  }
  io.stdout(`Backed up and verified: ${created.file} (${formatBytes(created.size)})\n`);
  io.stdout(
    `  ${countsLine(created.manifest.counts)}, ${fileCount(created.manifest.files)} files\n`,
  );
  io.stdout(`  ${secretsLine(created.manifest.secrets, secretCount)}\n`);
  if (created.manifest.workspacesElsewhere !== undefined) {
    io.stdout(
      `  Workspaces are kept in the ${created.manifest.workspacesElsewhere}, not in this backup.\n`,
    );
  }
  return EXIT_OK;
}

/** `backup status`: exits 1 when the last backup failed or automatic backups are behind. */
function status(json: boolean, context: AppContext, io: CliIo): number {
  const report = backupReport(context);
  if (json) io.stdout(`${JSON.stringify(report.json, null, 2)}\n`);
  else {
    io.stdout(`Last verified backup: ${report.lastGood}\n`);
    io.stdout(`Schedule: ${report.schedule}\n`);
    if (report.health.warning !== null) io.stdout(`Warning: ${report.health.warning}\n`);
  }
  return report.health.state === 'ok' ? EXIT_OK : EXIT_FAILED;
}

/** `backup restore FILE`, run before (and instead of) opening the app. */
export async function restoreCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv);
  const [action, file, ...rest] = positionals;
  if (action !== 'restore' || file === undefined || rest.length > 0) {
    throw usageError(
      'Usage: aivory backup restore FILE [--passphrase-file F | --no-secrets] [--yes]',
    );
  }
  const [{ restoreFromBackup }, { resolveDataDir }] = await Promise.all([
    import('../composition/backups'),
    import('../adapters/data-dir'),
  ]);
  const dataDir = resolveDataDir(io.env);
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  io.onInterrupt(interrupt);
  try {
    if (existsSync(join(dataDir, 'aivory.db')) && !values.yes) {
      if (io.ask === undefined) {
        throw usageError(
          `${dataDir} already holds Aivory data. Add --yes to replace it with the backup (the current data is backed up first).`,
        );
      }
      const answer = await io.ask(
        `Replace the data in ${dataDir} with this backup? The current data is backed up first. [y/N] `,
        controller.signal,
      );
      if (!/^y(es)?$/i.test(answer.trim())) {
        io.stdout('Nothing was changed.\n');
        return EXIT_OK;
      }
    }
    const result = await restoreFromBackup({
      env: io.env,
      file: place(file),
      signal: controller.signal,
      passphrase: () =>
        values['no-secrets']
          ? Promise.resolve(null)
          : passphraseFor('restore', values, io, controller.signal, 0),
    });
    io.stdout(restoredText(place(file), dataDir, result));
    return EXIT_OK;
  } finally {
    io.offInterrupt(interrupt);
  }
}

function restoredText(file: string, dataDir: string, result: RestoreResult): string {
  const lines = [`Restored ${file} into ${dataDir}.`, `  ${countsLine(result.manifest.counts)}`];
  if (result.manifest.secrets === 'encrypted') {
    lines.push(
      result.secretsRestored > 0
        ? `  ${secretsWord(result.secretsRestored)} restored.`
        : '  Its secrets were left out: enter your API keys again (aivory models edit, aivory mcp edit).',
    );
  } else if (result.manifest.secrets === 'left-out') {
    lines.push('  The backup was made without its secrets: enter your API keys again.');
  }
  if (result.previous !== null)
    lines.push(`  The data it replaced was backed up to ${result.previous}.`);
  if (result.kept !== null) {
    lines.push(`  The files the folder held (without a database) were moved to ${result.kept}.`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The passphrase, from `--passphrase-file` (its first line), `AIVORY_BACKUP_PASSPHRASE` or the
 * terminal (asked twice for a new backup). Without any, a backup with secrets is refused with
 * the ways to give one or to leave them out.
 */
async function passphraseFor(
  purpose: 'create' | 'restore',
  values: Values,
  io: CliIo,
  signal: AbortSignal,
  secretCount: number,
): Promise<string> {
  const file = values['passphrase-file'];
  let passphrase: string | undefined;
  if (file !== undefined) {
    try {
      passphrase = readFileSync(resolve(file), 'utf8').split(/\r?\n/)[0];
    } catch {
      throw usageError(`The passphrase file ${resolve(file)} cannot be read.`);
    }
  } else if (io.env[PASSPHRASE_VARIABLE] !== undefined) {
    passphrase = io.env[PASSPHRASE_VARIABLE];
  } else if (io.askHidden !== undefined) {
    const what = purpose === 'create' ? 'to seal your secrets' : "that opens this backup's secrets";
    passphrase = await io.askHidden(`Passphrase ${what}: `, signal);
    if (
      purpose === 'create' &&
      (await io.askHidden('The same passphrase again: ', signal)) !== passphrase
    ) {
      throw usageError('The two passphrases differ; nothing was written.');
    }
  } else {
    throw usageError(
      purpose === 'create'
        ? `Your data holds ${secretsWord(secretCount)} (API keys, tokens). Seal them with a passphrase (--passphrase-file F or ${PASSPHRASE_VARIABLE}) or leave them out with --no-secrets.`
        : `This backup holds secrets sealed with a passphrase: give it with --passphrase-file F or ${PASSPHRASE_VARIABLE}, or restore without them with --no-secrets.`,
    );
  }
  if (purpose === 'create' && (passphrase ?? '').length < MIN_PASSPHRASE_LENGTH) {
    throw usageError(`The passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters long.`);
  }
  if (passphrase === undefined || passphrase === '') throw usageError('The passphrase is empty.');
  return passphrase;
}

/** A progress line on a terminal's stderr (nothing elsewhere). */
function progressLine(io: CliIo): {
  show: (p: { phase: string; done: number; total: number }) => void;
  clear: () => void;
} {
  if (io.stderrTerminal !== true) return { show: () => {}, clear: () => {} };
  let shown = false;
  return {
    show: ({ phase, done, total }) => {
      shown = true;
      const text =
        phase === 'database'
          ? 'Copying the database…'
          : `Writing files… ${formatBytes(done)} of ${formatBytes(total)}`;
      io.stderr(`\r\u001b[2K${text}`);
    },
    clear: () => {
      if (shown) io.stderr('\r\u001b[2K');
    },
  };
}

function countsLine(counts: Record<string, number>): string {
  const part = (table: string, one: string, many: string): string | null => {
    const count = counts[table];
    return count === undefined
      ? null
      : `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
  };
  return [
    part('conversations', 'conversation', 'conversations'),
    part('messages', 'message', 'messages'),
    part('memories', 'memory', 'memories'),
    part('mcp_services', 'MCP service', 'MCP services'),
    part('models', 'model', 'models'),
  ]
    .filter((text) => text !== null)
    .join(', ');
}

function secretsLine(state: string, count: number): string {
  if (state === 'encrypted') return `${secretsWord(count)}, sealed with your passphrase.`;
  if (state === 'left-out') {
    return `${secretsWord(count)} left out: after a restore, enter your API keys again.`;
  }
  return 'No secrets stored.';
}

function describe(checked: CheckedBackup): string {
  return `${checked.header.createdAt} (schema ${checked.header.schemaVersion}): ${countsLine(checked.manifest.counts)}, ${fileCount(checked.manifest.files)} files`;
}

function summary(file: string, checked: CheckedBackup): Record<string, unknown> {
  return {
    file,
    ok: true,
    createdAt: checked.header.createdAt,
    schemaVersion: checked.header.schemaVersion,
    counts: checked.manifest.counts,
    files: fileCount(checked.manifest.files),
    secrets: checked.manifest.secrets,
  };
}

/** The files a backup carries (artifacts, uploads, workspaces), not its database or secrets. */
function fileCount(files: readonly { path: string }[]): number {
  return files.filter((file) => file.path.startsWith('files/')).length;
}

function secretsWord(count: number): string {
  return `${count} ${count === 1 ? 'secret' : 'secrets'}`;
}
