/** Renderer entry: picks the bridge (Electron preload or WebSocket), starts the store, mounts. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createBridge } from './bridge/create-bridge';
import { readRecovery } from './features/layout/recovery-notice';
import { applyCachedTheme } from './features/theme/theme';
import { appStore } from './state/store';
import './styles/base.css';
import './styles/chat.css';
import './styles/content.css';
import './styles/panels.css';
import './styles/composer.css';
import './styles/settings.css';
import './styles/versions.css';
import './styles/cells.css';
import './styles/controls.css';
import './styles/conversations.css';
import './styles/dialogs.css';
import './styles/artifacts.css';
import './styles/shell.css';

const root = document.getElementById('root');
if (root) {
  // Before the first render, so the first frame is already in the right theme.
  applyCachedTheme();
  // What a page that died left to say (before the viewer could mark another file).
  readRecovery();
  void appStore.getState().start(createBridge());
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
