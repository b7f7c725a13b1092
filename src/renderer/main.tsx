/** Renderer entry: picks the bridge (Electron preload or WebSocket), starts the store, mounts. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { createBridge } from './bridge/create-bridge';
import { appStore } from './state/store';
import './styles/base.css';
import './styles/chat.css';
import './styles/content.css';
import './styles/panels.css';
import './styles/composer.css';
import './styles/settings.css';

const root = document.getElementById('root');
if (root) {
  void appStore.getState().start(createBridge());
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
