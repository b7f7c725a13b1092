/**
 * Mounts the shortcuts (`use-shortcuts.ts`) while the chat screen shows, and the help sheet when
 * `?` asks for it. Renders nothing else.
 */
import type { ReactNode } from 'react';
import { useCallback, useState } from 'react';
import { useApp } from '../../state/store';
import { ShortcutHelp } from './shortcut-help';
import { platformIsMac, useShortcuts } from './use-shortcuts';

/** The app's keyboard shortcuts and their help sheet. */
export function KeyboardShortcuts(): ReactNode {
  const ready = useApp((state) => state.phase === 'ready');
  const browser = useApp((state) => state.bridge?.host === 'browser');
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  useShortcuts(ready, openHelp);
  if (!helpOpen) return null;
  return (
    <ShortcutHelp mac={platformIsMac()} browser={browser} onClose={() => setHelpOpen(false)} />
  );
}
