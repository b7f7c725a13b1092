/**
 * The keyboard shortcuts' key → action mapping (⌘ on a Mac, Ctrl elsewhere; text fields, dialogs,
 * IME), the conversation neighbours, the help sheet's static markup and the theme resolution
 * (the palettes are checked in theme-palette.test.ts).
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { KeyContext, KeyPress } from '../../../src/renderer/features/shortcuts/shortcut-keys';
import {
  isMacPlatform,
  neighbourConversation,
  SHORTCUT_ORDER,
  shortcutFor,
  shortcutKeys,
} from '../../../src/renderer/features/shortcuts/shortcut-keys';
import { ShortcutHelp } from '../../../src/renderer/features/shortcuts/shortcut-help';
import { asThemeSetting, resolveTheme } from '../../../src/renderer/features/theme/theme';
import { sidebarView } from '../../../src/renderer/features/layout/sidebar-state';

function press(key: string, modifiers: Partial<KeyPress> = {}): KeyPress {
  const code = /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : key;
  return {
    key,
    code,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...modifiers,
  };
}

const LINUX: KeyContext = {
  mac: false,
  inTextField: false,
  textFieldHasText: false,
  dialogOpen: false,
};
const MAC: KeyContext = { ...LINUX, mac: true };

describe('shortcut keys', () => {
  it('Ctrl elsewhere, ⌘ on a Mac: N, K, L, ↑, ↓, B', () => {
    const cases: [string, string][] = [
      ['n', 'new-chat'],
      ['k', 'search'],
      ['l', 'focus-composer'],
      ['ArrowUp', 'previous-conversation'],
      ['ArrowDown', 'next-conversation'],
      ['b', 'toggle-sidebar'],
    ];
    for (const [key, action] of cases) {
      expect(shortcutFor(press(key, { ctrlKey: true }), LINUX), key).toBe(action);
      expect(shortcutFor(press(key, { metaKey: true }), MAC), key).toBe(action);
      // The other platform's command key is not a shortcut (Ctrl+N on a Mac, Win+N elsewhere).
      expect(shortcutFor(press(key, { metaKey: true }), LINUX), key).toBeNull();
      expect(shortcutFor(press(key, { ctrlKey: true }), MAC), key).toBeNull();
      expect(shortcutFor(press(key, { ctrlKey: true, metaKey: true }), MAC), key).toBeNull();
      // Added Shift or Alt: some other command (Ctrl+Shift+N is the browser's private window).
      expect(shortcutFor(press(key, { ctrlKey: true, shiftKey: true }), LINUX), key).toBeNull();
      expect(shortcutFor(press(key, { ctrlKey: true, altKey: true }), LINUX), key).toBeNull();
      // A bare letter is typing.
      expect(shortcutFor(press(key), LINUX), key).toBeNull();
    }
    expect(shortcutFor(press('N', { ctrlKey: true }), LINUX)).toBe('new-chat');
    expect(shortcutFor(press('j', { ctrlKey: true }), LINUX)).toBeNull();
  });

  it('a non-Latin layout uses the physical key; IME composition is never a shortcut', () => {
    expect(shortcutFor({ ...press('т', { ctrlKey: true }), code: 'KeyN' }, LINUX)).toBe('new-chat');
    expect(shortcutFor(press('k', { ctrlKey: true, isComposing: true }), LINUX)).toBeNull();
    expect(shortcutFor({ ...press('Process', { ctrlKey: true }), code: 'KeyK' }, LINUX)).toBeNull();
  });

  it('Esc stops only when no dialog is open; ? opens the help outside text fields', () => {
    expect(shortcutFor(press('Escape'), LINUX)).toBe('stop');
    expect(shortcutFor(press('Escape'), { ...LINUX, inTextField: true })).toBe('stop');
    expect(shortcutFor(press('Escape'), { ...LINUX, dialogOpen: true })).toBeNull();
    expect(shortcutFor(press('Escape', { shiftKey: true }), LINUX)).toBeNull();
    expect(shortcutFor(press('?', { shiftKey: true }), LINUX)).toBe('help');
    expect(shortcutFor(press('?', { shiftKey: true }), MAC)).toBe('help');
    expect(shortcutFor(press('?', { shiftKey: true }), { ...LINUX, inTextField: true })).toBeNull();
    expect(shortcutFor(press('?', { ctrlKey: true }), LINUX)).toBeNull();
  });

  it('no shortcut while a dialog is open; arrows in a field with text move the caret', () => {
    for (const key of ['n', 'k', 'l', 'ArrowUp', '?'])
      expect(shortcutFor(press(key, { ctrlKey: true }), { ...LINUX, dialogOpen: true })).toBeNull();
    const typing: KeyContext = { ...LINUX, inTextField: true, textFieldHasText: true };
    expect(shortcutFor(press('ArrowUp', { ctrlKey: true }), typing)).toBeNull();
    expect(shortcutFor(press('ArrowDown', { ctrlKey: true }), typing)).toBeNull();
    expect(shortcutFor(press('n', { ctrlKey: true }), typing)).toBe('new-chat');
    const empty: KeyContext = { ...LINUX, inTextField: true };
    expect(shortcutFor(press('ArrowDown', { ctrlKey: true }), empty)).toBe('next-conversation');
  });

  it('the platform: userAgentData first, navigator.platform else', () => {
    expect(isMacPlatform({ userAgentData: { platform: 'macOS' } })).toBe(true);
    expect(isMacPlatform({ platform: 'MacIntel' })).toBe(true);
    expect(isMacPlatform({ platform: 'iPad' })).toBe(true);
    expect(isMacPlatform({ userAgentData: { platform: 'Windows' }, platform: 'Win32' })).toBe(
      false,
    );
    expect(isMacPlatform({ userAgentData: { platform: '' }, platform: 'Linux x86_64' })).toBe(
      false,
    );
    expect(isMacPlatform(undefined)).toBe(false);
  });

  it('the keys as the sheet shows them', () => {
    expect(shortcutKeys('new-chat', true)).toEqual(['⌘', 'N']);
    expect(shortcutKeys('new-chat', false)).toEqual(['Ctrl', 'N']);
    expect(shortcutKeys('previous-conversation', false)).toEqual(['Ctrl', '↑']);
    expect(shortcutKeys('stop', true)).toEqual(['Esc']);
    expect(shortcutKeys('regenerate', false)).toEqual(['Ctrl', 'Shift', 'R']);
    expect(shortcutKeys('regenerate', true)).toEqual(['⌘', 'Shift', 'R']);
    expect(shortcutKeys('toggle-sidebar', false)).toEqual(['Ctrl', 'B']);
    expect(shortcutKeys('toggle-sidebar', true)).toEqual(['⌘', 'B']);
    expect(SHORTCUT_ORDER).toHaveLength(9);
  });

  it('⌘/Ctrl+B shows or hides the sidebar also while typing, never in a dialog', () => {
    const typing = { ...LINUX, inTextField: true, textFieldHasText: true };
    expect(shortcutFor(press('b', { ctrlKey: true }), typing)).toBe('toggle-sidebar');
    expect(shortcutFor(press('b', { ctrlKey: true }), { ...LINUX, dialogOpen: true })).toBeNull();
    // A Russian layout: the key says "и", the physical key is B.
    expect(shortcutFor({ ...press('и', { ctrlKey: true }), code: 'KeyB' }, LINUX)).toBe(
      'toggle-sidebar',
    );
  });

  it('the sidebar: a column in a wide window (open unless collapsed), a drawer in a narrow one', () => {
    expect(sidebarView(false, false, false)).toEqual({ narrow: false, open: true });
    expect(sidebarView(false, true, true)).toEqual({ narrow: false, open: false });
    // Narrow: the drawer decides; the wide preference does not open it.
    expect(sidebarView(true, false, false)).toEqual({ narrow: true, open: false });
    expect(sidebarView(true, true, true)).toEqual({ narrow: true, open: true });
  });

  it('⌘/Ctrl+Shift+R regenerates (any layout), also from a text field, never in a dialog', () => {
    expect(shortcutFor(press('R', { ctrlKey: true, shiftKey: true }), LINUX)).toBe('regenerate');
    expect(shortcutFor(press('R', { metaKey: true, shiftKey: true }), MAC)).toBe('regenerate');
    expect(shortcutFor(press('К', { ctrlKey: true, shiftKey: true, code: 'KeyR' }), LINUX)).toBe(
      'regenerate',
    );
    expect(
      shortcutFor(press('R', { ctrlKey: true, shiftKey: true }), { ...LINUX, inTextField: true }),
    ).toBe('regenerate');
    expect(
      shortcutFor(press('R', { ctrlKey: true, shiftKey: true }), { ...LINUX, dialogOpen: true }),
    ).toBeNull();
    expect(shortcutFor(press('R', { ctrlKey: true, shiftKey: true }), MAC)).toBeNull();
    expect(
      shortcutFor(press('R', { ctrlKey: true, shiftKey: true, altKey: true }), LINUX),
    ).toBeNull();
    expect(shortcutFor(press('r', { ctrlKey: true }), LINUX)).toBeNull();
  });

  it('previous / next conversation: a new chat sits above the list; the ends do not wrap', () => {
    const ids = ['c3', 'c2', 'c1'];
    expect(neighbourConversation(ids, null, 'next')).toBe('c3');
    expect(neighbourConversation(ids, null, 'previous')).toBeNull();
    expect(neighbourConversation(ids, 'c3', 'next')).toBe('c2');
    expect(neighbourConversation(ids, 'c2', 'previous')).toBe('c3');
    expect(neighbourConversation(ids, 'c3', 'previous')).toBeNull();
    expect(neighbourConversation(ids, 'c1', 'next')).toBeNull();
    expect(neighbourConversation(ids, 'gone', 'next')).toBe('c3');
    expect(neighbourConversation([], null, 'next')).toBeNull();
  });

  it('the help sheet is a labelled modal dialog listing every shortcut', () => {
    const html = renderToStaticMarkup(
      <ShortcutHelp mac={false} browser={true} onClose={() => undefined} />,
    );
    expect(html).toContain('role="dialog"');
    expect(html).toContain('aria-modal="true"');
    // Labelled by its own title.
    const labelledBy = /aria-labelledby="([^"]+)"/.exec(html)?.[1] ?? 'none';
    expect(html).toMatch(new RegExp(`<h1 id="${labelledBy}">Keyboard shortcuts</h1>`));
    for (const action of SHORTCUT_ORDER)
      expect(html).toContain(`data-testid="shortcut-row-${action}"`);
    expect(html).toContain('<kbd>Ctrl</kbd><kbd>K</kbd>');
    // The artifact viewer's keys.
    expect(html).toContain('<kbd>[</kbd><kbd>]</kbd>');
    expect(html).toContain('Close the file viewer');
    expect(html).toContain('Ctrl+N may open a new window');
    const mac = renderToStaticMarkup(
      <ShortcutHelp mac={true} browser={true} onClose={() => undefined} />,
    );
    expect(mac).toContain('<kbd>⌘</kbd><kbd>K</kbd>');
    expect(mac).not.toContain('Ctrl+N may open');
  });
});

describe('theme', () => {
  it('system follows prefers-color-scheme; light and dark are fixed', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(asThemeSetting('dark')).toBe('dark');
    expect(asThemeSetting('sepia')).toBe('system');
    expect(asThemeSetting(null)).toBe('system');
  });
});
