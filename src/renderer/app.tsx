/**
 * The app shell: loading, first-run setup, or the sidebar + chat (`features/layout`); settings over it; errors; the
 * keyboard shortcuts; the saved theme applied once the bridge is up.
 */
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { ConfirmDialogHost } from './components/confirm-dialog';
import { ApprovalPrompt } from './features/approval/approval-prompt';
import { ElicitationPrompt } from './features/elicitation/elicitation-prompt';
import { SamplingPrompt } from './features/sampling/sampling-prompt';
import { McpStaleBanner } from './features/mcp/mcp-stale-banner';
import { BackupFailedBanner } from './features/settings/backup-failed-banner';
import { AppLayout } from './features/layout/app-layout';
import { RecoveryNotice } from './features/layout/recovery-notice';
import { SettingsPanel } from './features/settings/settings-panel';
import { SetupScreen } from './features/setup/setup-screen';
import { KeyboardShortcuts } from './features/shortcuts/keyboard-shortcuts';
import { loadThemeSetting } from './features/theme/theme';
import { useT } from './i18n/use-t';
import { useApp } from './state/store';

/** The whole UI. */
export function App(): ReactNode {
  const t = useT();
  const phase = useApp((state) => state.phase);
  const connected = useApp((state) => state.connected);
  const settingsOpen = useApp((state) => state.settingsOpen);
  const locale = useApp((state) => state.locale);
  const bridge = useApp((state) => state.bridge);
  useEffect(() => {
    // The cached theme painted the first frame (main.tsx); the saved setting decides.
    if (bridge) void loadThemeSetting(bridge).catch(() => undefined);
  }, [bridge]);
  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = t('app.title');
  }, [locale, t]);
  return (
    <div className="app" data-locale={locale}>
      {!connected && <div className="banner offline">{t('app.offline')}</div>}
      <ErrorBanner />
      <RecoveryNotice />
      <McpStaleBanner />
      <BackupFailedBanner />
      {phase === 'loading' && <div className="loading">{t('app.loading')}</div>}
      {phase === 'setup' && <SetupScreen />}
      {phase === 'ready' && <AppLayout />}
      {settingsOpen && <SettingsPanel />}
      <ApprovalPrompt />
      <ElicitationPrompt />
      <SamplingPrompt />
      <KeyboardShortcuts />
      <ConfirmDialogHost />
    </div>
  );
}

function ErrorBanner(): ReactNode {
  const t = useT();
  const error = useApp((state) => state.error);
  const dismiss = useApp((state) => state.dismissError);
  if (error === null) return null;
  return (
    <div className="banner error" role="alert" data-testid="error-banner">
      <span>{t('app.error', { message: error })}</span>
      <button type="button" className="button ghost" onClick={dismiss}>
        {t('app.dismiss')}
      </button>
    </div>
  );
}
