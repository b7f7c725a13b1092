/**
 * Automatic backups, made by the long-running hosts (the desktop app, `aivory serve`), never by a
 * one-shot command. The schedule is checked when a host starts and then every few minutes (an
 * unref'd timer, so it keeps no process alive): when automatic backups are on and the last good
 * backup is older than the interval, one is made to the chosen folder (the secrets sealed with the
 * saved passphrase when the user chose so, else left out), then the folder keeps the newest N
 * backups — only files named like a backup are ever removed.
 *
 * Nothing fails silently: a failure is recorded in the status every process reads (`backup-
 * status.ts`), the host tells the windows, and the next attempt waits — longer after each failure
 * in a row — instead of retrying in a tight loop. A folder that is gone (an external disk not
 * plugged in) is a failure that says so; the default folder in the data folder is created.
 */
import { existsSync, statSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AivoryError } from '../../shared/errors';
import type { Clock, Logger, SecretStore } from '../core/ports';
import { type BackupStatusBook, busyError, type MadeBackup } from './backup-status';
import type { SettingsService } from './settings-service';

/** How often the schedule is checked by default. */
export const BACKUP_CHECK_MS = 5 * 60_000;
/** The longest wait after failures in a row. */
const MAX_BACKOFF_MS = 6 * 3_600_000;
/** The backup file names the writer gives (`aivory-backup-YYYYMMDD-HHMMSS.tar`). */
const BACKUP_FILE = /^aivory-backup-\d{8}-\d{6}\.tar$/;
/** Where the automatic backup's passphrase is in the secret store. */
export const BACKUP_PASSPHRASE_REF = 'settings:backups:passphrase';

/** How far a backup is (the database copied, then bytes of files written). */
export type BackupProgressListener = (progress: {
  phase: 'database' | 'files';
  done: number;
  total: number;
}) => void;

/** What the scheduler needs of the backup service. */
export interface BackupMaker {
  readonly defaultFolder: string;
  create(options: {
    destination: string;
    passphrase: string | null;
    signal?: AbortSignal;
    onProgress?: BackupProgressListener;
  }): Promise<MadeBackup>;
}

export interface BackupSchedulerOptions {
  settings: Pick<SettingsService, 'get'>;
  secrets: SecretStore;
  book: BackupStatusBook;
  backups: BackupMaker;
  clock: Clock;
  logger: Logger;
  /** How often to check (`BACKUP_CHECK_MS`); also the first wait after a failure. */
  checkEveryMs?: number;
}

export class BackupScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: { controller: AbortController; done: Promise<unknown> } | null = null;
  private readonly checkEveryMs: number;

  constructor(private readonly options: BackupSchedulerOptions) {
    this.checkEveryMs = options.checkEveryMs ?? BACKUP_CHECK_MS;
  }

  /** Checks now and then every `checkEveryMs` until `stop`. */
  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.check(), this.checkEveryMs);
    this.timer.unref();
    void this.check();
  }

  /** Checks now (the schedule was just switched on) when this process makes automatic backups. */
  checkSoon(): void {
    if (this.timer !== null) void this.check();
  }

  /** Stops the checks and cancels a backup under way (nothing of it is kept). */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const running = this.running;
    if (running === null) return;
    running.controller.abort();
    await running.done.catch(() => undefined);
  }

  /**
   * The backup the schedule makes, now (Settings → Data's "Back up now"): to the schedule's
   * folder, with its secrets rule, keeping its newest N. Throws `busy` while another runs.
   */
  async backUpNow(options: {
    signal?: AbortSignal;
    onProgress?: BackupProgressListener;
  }): Promise<MadeBackup> {
    const made = await this.run(() => true, options);
    if (made === null) throw busyError();
    return made;
  }

  /** Makes the backup when `due` still holds under the claim; null when it did not. */
  private async run(
    due: () => boolean,
    options: { signal?: AbortSignal; onProgress?: BackupProgressListener },
  ): Promise<MadeBackup | null> {
    if (this.running !== null) throw busyError();
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    const done = this.make(due, controller.signal, options.onProgress);
    this.running = { controller, done };
    try {
      return await done;
    } finally {
      this.running = null;
      options.signal?.removeEventListener('abort', abort);
    }
  }

  /** One check: tells the windows of another process's backup; makes one when it is due. */
  private async check(): Promise<void> {
    try {
      this.options.book.refresh();
      if (this.running !== null || !this.due()) return;
      const made = await this.run(() => this.due(), {});
      if (made !== null) this.options.logger.info('scheduled backup made', { file: made.file });
    } catch (error) {
      // Recorded and announced by the status book; a busy claim is another process's backup.
      if (error instanceof AivoryError && error.code === 'busy') {
        this.options.logger.debug('scheduled backup skipped: another backup is being made');
      } else {
        this.options.logger.warn('scheduled backup failed', { error: (error as Error).message });
      }
    }
  }

  /** Whether automatic backups are on, the last good one is old enough and no backoff waits. */
  private due(): boolean {
    const settings = this.options.settings.get('backups');
    if (!settings.auto) return false;
    const now = this.options.clock.now();
    const { last, lastGood, failures } = this.options.book.read();
    if (last !== null && !last.ok) {
      const backoff = Math.min(this.checkEveryMs * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
      if (now < last.at + backoff) return false;
    }
    return lastGood === null || now - lastGood.at >= settings.intervalHours * 3_600_000;
  }

  private async make(
    due: () => boolean,
    signal: AbortSignal,
    onProgress: BackupProgressListener | undefined,
  ): Promise<MadeBackup | null> {
    const settings = this.options.settings.get('backups');
    const folder = settings.folder ?? this.options.backups.defaultFolder;
    const made = await this.options.book.attemptIfDue(folder, due, async () => {
      if (settings.folder !== null) checkFolder(settings.folder);
      const passphrase = await this.passphrase(settings.includeSecrets);
      return this.options.backups.create({
        destination: folder,
        passphrase,
        signal,
        ...(onProgress === undefined ? {} : { onProgress }),
      });
    });
    if (made !== null) await this.prune(folder, settings.keep);
    return made;
  }

  /** The saved passphrase when the secrets are to be sealed; a missing one is a failure. */
  private async passphrase(includeSecrets: boolean): Promise<string | null> {
    if (!includeSecrets) return null;
    const passphrase = await this.options.secrets.get(BACKUP_PASSPHRASE_REF);
    if (passphrase !== null && passphrase !== '') return passphrase;
    throw new AivoryError(
      'config',
      'Backups are to include your secrets, but no passphrase is saved: set one in Settings → Data → Backups (or aivory settings set-key backups.passphrase VALUE), or leave the secrets out.',
    );
  }

  /** Removes all but the newest `keep` backup files of `folder`; nothing else is touched. */
  private async prune(folder: string, keep: number): Promise<void> {
    try {
      const backups = (await readdir(folder)).filter((name) => BACKUP_FILE.test(name)).sort();
      for (const name of backups.slice(0, Math.max(0, backups.length - keep))) {
        const path = join(folder, name);
        if ((await lstat(path)).isFile()) await rm(path);
      }
    } catch (error) {
      this.options.logger.warn('old backups could not be removed', {
        folder,
        error: (error as Error).message,
      });
    }
  }
}

/** The chosen folder exists and is a folder (a disk not plugged in is said to be). */
function checkFolder(folder: string): void {
  if (!existsSync(folder)) {
    throw new AivoryError(
      'config',
      `The backup folder ${folder} is not there: if it is on an external or network disk, connect it; or choose another folder in Settings → Data → Backups.`,
    );
  }
  if (!statSync(folder).isDirectory()) {
    throw new AivoryError(
      'config',
      `The backup folder ${folder} is a file, not a folder: choose a folder in Settings → Data → Backups.`,
    );
  }
}
