/**
 * "The window stopped and was reloaded": after the desktop window reloaded a page that died
 * (`src/main/electron/crash-recovery.ts` loads the entry with `?stopped=<reason>`), or after a
 * browser tab that died while the viewer was opening a file is loaded again (a crashed tab runs
 * no code, so the viewer's sessionStorage mark, `opening-marker.ts`, is what tells). The notice
 * names the reason and the file; the file is not opened again (the viewer opens nothing by
 * itself), and the conversation comes back as after any reload (`aivory.lastConversation`).
 */
import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import { stripInvisibleCharacters } from '../../../shared/untrusted-text';
import type { MessageKey } from '../../i18n/i18n';
import { useT } from '../../i18n/use-t';
import { takeInterruptedOpening } from '../artifacts/opening-marker';

/** What the last page's end left to say. */
export interface Recovery {
  /** The desktop's reason (`?stopped=`), or null in the browser. */
  reason: string | null;
  /** The file the viewer was opening, or null. */
  file: string | null;
}

const REASONS: Readonly<Record<string, MessageKey>> = {
  oom: 'recovery.reason.oom',
  crashed: 'recovery.reason.crashed',
  killed: 'recovery.reason.killed',
  unresponsive: 'recovery.reason.unresponsive',
};

let recovery: Recovery | null = null;
const listeners = new Set<() => void>();

/**
 * Reads what the last page left (the `stopped` parameter, removed from the address bar, and the
 * viewer's mark, cleared): once, before the first render.
 */
export function readRecovery(): Recovery | null {
  let reason: string | null = null;
  try {
    const url = new URL(window.location.href);
    const stopped = url.searchParams.get('stopped');
    if (stopped !== null) {
      reason = /^[a-z-]{1,32}$/.test(stopped) ? stopped : 'crashed';
      url.searchParams.delete('stopped');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }
  } catch {
    // No usable location (tests): nothing to say.
  }
  const opening = takeInterruptedOpening();
  recovery =
    reason === null && opening === null
      ? null
      : { reason, file: opening === null ? null : stripInvisibleCharacters(opening.name) };
  for (const listener of listeners) listener();
  return recovery;
}

function dismiss(): void {
  recovery = null;
  for (const listener of listeners) listener();
}

/** The notice, while there is one to show. */
export function RecoveryNotice(): ReactNode {
  const t = useT();
  const shown = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => recovery,
  );
  if (shown === null) return null;
  const parts: string[] = [];
  if (shown.reason !== null) {
    const key = REASONS[shown.reason];
    parts.push(t('recovery.stopped', { reason: key === undefined ? shown.reason : t(key) }));
  } else parts.push(t('recovery.pageStopped'));
  if (shown.file !== null) parts.push(t('recovery.file', { name: shown.file }));
  return (
    <div className="banner recovery" role="status" data-testid="recovery-notice">
      <span>{parts.join(' ')}</span>
      <button type="button" className="button ghost" onClick={dismiss}>
        {t('app.dismiss')}
      </button>
    </div>
  );
}
