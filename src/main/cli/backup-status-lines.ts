/**
 * How the backups stand, in words: `aivory backup status [--json]` and `aivory doctor`'s backup
 * line say the same — the last verified backup and its age, the schedule, and a warning when the
 * last attempt failed, when automatic backups are overdue (the last good one older than twice the
 * interval) or when they are on and none was ever made.
 */
import { formatBytes } from '../../shared/byte-size';
import type { AppContext } from '../composition/app-context';
import {
  type BackupAttempt,
  type BackupHealth,
  backupHealth,
  formatAge,
} from '../services/backup-status';

export interface BackupReport {
  health: BackupHealth;
  /** The last verified backup, in one line (or that there is none). */
  lastGood: string;
  /** The schedule, in one line. */
  schedule: string;
  json: Record<string, unknown>;
}

/** The backups of `context` at `now`. */
export function backupReport(
  context: Pick<AppContext, 'settings' | 'backupStatus' | 'backups'>,
  now = Date.now(),
): BackupReport {
  const { passphraseRef, ...settings } = context.settings.get('backups');
  const status = context.backupStatus.read();
  const health = backupHealth(status, settings, now);
  const folder = settings.folder ?? context.backups.defaultFolder;
  return {
    health,
    lastGood:
      status.lastGood === null ? 'no verified backup yet' : `${goodLine(status.lastGood, now)}`,
    schedule: settings.auto
      ? `automatic backups every ${settings.intervalHours} h to ${folder}, keeping ${settings.keep}, secrets ${settings.includeSecrets ? 'sealed with the saved passphrase' : 'left out'}`
      : 'automatic backups are off (aivory settings set backups.auto true)',
    json: {
      schedule: { ...settings, folder, passphraseSaved: passphraseRef !== null },
      last: status.last,
      lastGood: status.lastGood,
      health: health.state,
      warning: health.warning,
      running: context.backupStatus.running(),
    },
  };
}

function goodLine(good: BackupAttempt, now: number): string {
  const secrets =
    good.secrets === 'encrypted'
      ? 'secrets sealed with a passphrase'
      : good.secrets === 'left-out'
        ? 'secrets left out'
        : 'no secrets stored';
  const size = good.size === null ? '' : ` (${formatBytes(good.size)})`;
  return `${good.file ?? good.folder}${size}, verified ${formatAge(now - (good.verifiedAt ?? good.at))} ago, ${secrets}`;
}
