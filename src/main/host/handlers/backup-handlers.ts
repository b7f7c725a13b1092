/**
 * `backups.*` (Settings → Data → Backups): the status every process reads, the schedule (the
 * `backups` settings group), the passphrase in the secret store, and "Back up now" — the backup
 * the schedule makes, one at a time, progress on `backups.progress`, cancelled by
 * `backups.cancel`. The desktop shows its folder dialog; the browser host asks for a typed path.
 */
import { AivoryError } from '../../../shared/errors';
import type { BackupStatusView } from '../../../shared/ipc/backup-methods';
import { BACKUP_PASSPHRASE_REF } from '../../services/backup-scheduler';
import { backupHealth } from '../../services/backup-status';
import type { ApiHandlers } from '../dispatcher';
import { type HostContext, pickFolder } from '../host-context';

type BackupMethod = Extract<keyof ApiHandlers, `backups.${string}`>;
type BackupHandlers = Pick<ApiHandlers, BackupMethod>;

/** The backup handlers over the host context. */
export function createBackupHandlers(context: HostContext): BackupHandlers {
  const { app } = context;
  let running: AbortController | null = null;
  const view = (): Promise<BackupStatusView> => backupView(context);
  return {
    'backups.status': view,
    'backups.setSchedule': async (patch) => {
      app.settings.update('backups', patch);
      // Switched on, a first backup is made at once if none is recent (not at the next check).
      if (patch.auto === true) app.backupScheduler.checkSoon();
      return view();
    },
    'backups.setPassphrase': async ({ passphrase }) => {
      if (passphrase === null) {
        await app.secrets.delete(BACKUP_PASSPHRASE_REF);
        app.settings.update('backups', { passphraseRef: null });
      } else {
        await app.secrets.set(BACKUP_PASSPHRASE_REF, passphrase);
        app.settings.update('backups', { passphraseRef: BACKUP_PASSPHRASE_REF });
      }
      return view();
    },
    'backups.create': async () => {
      if (running) {
        throw new AivoryError(
          'busy',
          'A backup is being made already (by this app or another Aivory process); wait for it to finish.',
        );
      }
      const controller = new AbortController();
      running = controller;
      try {
        await app.backupScheduler.backUpNow({
          signal: controller.signal,
          onProgress: (progress) => context.events.publish('backups.progress', progress),
        });
        return await view();
      } finally {
        running = null;
      }
    },
    'backups.cancel': () => {
      running?.abort();
      return { ok: true };
    },
    'backups.pickFolder': async () => {
      return { path: await pickFolder(context) };
    },
  };
}

/** The backups as the Data page shows them. */
export async function backupView(context: HostContext): Promise<BackupStatusView> {
  const { app } = context;
  const { passphraseRef, ...schedule } = app.settings.get('backups');
  const status = app.backupStatus.read();
  const passphrase = passphraseRef === null ? null : await app.secrets.get(passphraseRef);
  return {
    schedule: { ...schedule, passphraseSaved: passphrase !== null && passphrase !== '' },
    defaultFolder: app.backups.defaultFolder,
    last: status.last,
    lastGood: status.lastGood,
    health: backupHealth(status, schedule, Date.now()).state,
    running: app.backupStatus.running(),
    canPickFolder: context.desktop?.pickFolder !== undefined,
  };
}
