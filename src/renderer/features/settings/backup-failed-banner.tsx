/**
 * A banner when a backup fails (`backups.status` pushed by the host, or found failed when the
 * window opens): an automatic backup that did not happen is never silent. Dismissed, it stays
 * away until the next failure.
 */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import type { BackupStatusView } from '../../data/backups';
import { backupStatus } from '../../data/backups';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';

/** Shows the last failed backup's reason until dismissed. */
export function BackupFailedBanner(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [failure, setFailure] = useState<{ at: number; message: string } | null>(null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  useEffect(() => {
    if (!bridge) return;
    const show = (view: BackupStatusView): void =>
      setFailure(
        view.health === 'failed' && view.last !== null
          ? { at: view.last.at, message: view.last.message ?? '' }
          : null,
      );
    let live = true;
    void backupStatus(bridge).then(
      (view) => live && show(view),
      () => undefined,
    );
    const off = bridge.onEvent('backups.status', show);
    return () => {
      live = false;
      off();
    };
  }, [bridge]);
  if (failure === null || failure.at === dismissed) return null;
  return (
    <div className="banner offline" role="alert" data-testid="backup-failed-banner">
      <span>{t('data.backup.banner', { message: failure.message })}</span>
      <button type="button" className="button ghost" onClick={() => setDismissed(failure.at)}>
        {t('app.dismiss')}
      </button>
    </div>
  );
}
