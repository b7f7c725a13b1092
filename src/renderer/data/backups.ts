/** Backups (Settings → Data → Backups), over the bridge. */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest } from '../../shared/ipc-contract';
import type { BackupStatusView } from '../../shared/ipc/backup-methods';

export type { BackupStatusView };

/** The last verified backup, the last attempt, the schedule. */
export function backupStatus(bridge: AivoryBridge): Promise<BackupStatusView> {
  return bridge.invoke('backups.status');
}

/** Changes the schedule; answers with the new status. */
export function setBackupSchedule(
  bridge: AivoryBridge,
  patch: InvokeRequest<'backups.setSchedule'>,
): Promise<BackupStatusView> {
  return bridge.invoke('backups.setSchedule', patch);
}

/** Saves (or with null removes) the passphrase of the automatic backups. */
export function setBackupPassphrase(
  bridge: AivoryBridge,
  passphrase: string | null,
): Promise<BackupStatusView> {
  return bridge.invoke('backups.setPassphrase', { passphrase });
}

/** Makes the schedule's backup now; resolves once it is written and verified. */
export function backUpNow(bridge: AivoryBridge): Promise<BackupStatusView> {
  return bridge.invoke('backups.create', {});
}

/** Stops the backup "Back up now" started (its call then fails as canceled). */
export async function cancelBackup(bridge: AivoryBridge): Promise<void> {
  await bridge.invoke('backups.cancel', {});
}

/** The desktop's folder dialog: the chosen folder, or null. */
export async function pickBackupFolder(bridge: AivoryBridge): Promise<string | null> {
  return (await bridge.invoke('backups.pickFolder')).path;
}
