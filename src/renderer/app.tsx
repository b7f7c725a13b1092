/** The app shell: loading, first-run setup, or the sidebar + chat; settings over it; errors. */
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { ApprovalPrompt } from './features/approval/approval-prompt';
import { ChatView } from './features/chat/chat-view';
import { McpStaleBanner } from './features/mcp/mcp-stale-banner';
import { ConversationList } from './features/conversations/conversation-list';
import { SettingsPanel } from './features/settings/settings-panel';
import { SetupScreen } from './features/setup/setup-screen';
import { useT } from './i18n/use-t';
import { useApp } from './state/store';

/** The whole UI. */
export function App(): ReactNode {
  const t = useT();
  const phase = useApp((state) => state.phase);
  const connected = useApp((state) => state.connected);
  const settingsOpen = useApp((state) => state.settingsOpen);
  const locale = useApp((state) => state.locale);
  useEffect(() => {
    document.documentElement.lang = locale;
    document.title = t('app.title');
  }, [locale, t]);
  return (
    <div className="app" data-locale={locale}>
      {!connected && <div className="banner offline">{t('app.offline')}</div>}
      <ErrorBanner />
      <McpStaleBanner />
      {phase === 'loading' && <div className="loading">{t('app.loading')}</div>}
      {phase === 'setup' && <SetupScreen />}
      {phase === 'ready' && (
        <div className="layout">
          <ConversationList />
          <ChatView />
        </div>
      )}
      {settingsOpen && <SettingsPanel />}
      <ApprovalPrompt />
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
