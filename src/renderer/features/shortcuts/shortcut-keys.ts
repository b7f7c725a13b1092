/**
 * The keyboard shortcuts as data: which key press is which action, and how each is written for
 * the help sheet. Pure (no DOM), so the mapping is unit-tested; `use-shortcuts.ts` feeds it real
 * events. The command key is ⌘ on a Mac and Ctrl elsewhere (decided from
 * `navigator.userAgentData.platform`, falling back to `navigator.platform`); a press with the
 * other one (Ctrl on a Mac, ⌘/Win elsewhere), Alt or Shift added is not a shortcut.
 */

/** What a shortcut does. */
export type ShortcutAction =
  | 'new-chat'
  | 'search'
  | 'focus-composer'
  | 'previous-conversation'
  | 'next-conversation'
  | 'toggle-sidebar'
  | 'stop'
  | 'regenerate'
  | 'help';

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyPress {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** An IME is composing (Chinese, Japanese input): never a shortcut. */
  isComposing?: boolean;
}

/** Where the press happened. */
export interface KeyContext {
  mac: boolean;
  /** Focus is in a text field (input, textarea, select, contenteditable). */
  inTextField: boolean;
  /** That text field holds text (the arrows then move the caret, not the conversation). */
  textFieldHasText: boolean;
  /** A dialog is open (settings, the approval card, the help sheet, a composer popover). */
  dialogOpen: boolean;
}

/** The command-key shortcuts: a letter or arrow with ⌘ (Mac) / Ctrl (elsewhere). */
const COMMAND_KEYS: Readonly<Record<string, ShortcutAction>> = {
  n: 'new-chat',
  k: 'search',
  l: 'focus-composer',
  ArrowUp: 'previous-conversation',
  ArrowDown: 'next-conversation',
  b: 'toggle-sidebar',
};

/** The shortcuts in the order the help sheet lists them. */
export const SHORTCUT_ORDER: readonly ShortcutAction[] = [
  'new-chat',
  'search',
  'focus-composer',
  'previous-conversation',
  'next-conversation',
  'toggle-sidebar',
  'stop',
  'regenerate',
  'help',
];

/** Whether the platform is a Mac (or an iPad/iPhone with a keyboard). */
export function isMacPlatform(
  nav: { platform?: string; userAgentData?: { platform?: string } } | undefined,
): boolean {
  const platform = nav?.userAgentData?.platform || nav?.platform || '';
  return /^(mac|iphone|ipad|ipod)/i.test(platform);
}

/** The letter a press means: `key` when it is a Latin letter, else the physical key (`KeyN`). */
function letterOf(press: KeyPress): string {
  if (/^[a-z]$/i.test(press.key)) return press.key.toLowerCase();
  const physical = /^Key([A-Z])$/.exec(press.code);
  return physical?.[1] ? physical[1].toLowerCase() : press.key;
}

/** The action of a key press in its context, or null when it is not a shortcut. */
export function shortcutFor(press: KeyPress, context: KeyContext): ShortcutAction | null {
  if (press.isComposing === true || press.key === 'Process') return null;
  if (press.key === 'Escape') {
    const bare = !press.ctrlKey && !press.metaKey && !press.altKey && !press.shiftKey;
    return bare && !context.dialogOpen ? 'stop' : null;
  }
  if (context.dialogOpen) return null;
  const command = context.mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (command) {
    // ⌘/Ctrl+Shift+R: a new version of the last answer (not the browser's hard reload).
    if (press.shiftKey && !press.altKey && letterOf(press) === 'r') return 'regenerate';
    if (press.altKey || press.shiftKey) return null;
    const action = COMMAND_KEYS[press.key.startsWith('Arrow') ? press.key : letterOf(press)];
    if (action === undefined) return null;
    // In a field with text, ⌘/Ctrl+arrows move the caret as usual.
    const arrow = action === 'previous-conversation' || action === 'next-conversation';
    if (arrow && context.inTextField && context.textFieldHasText) return null;
    return action;
  }
  if (press.key === '?' && !press.ctrlKey && !press.metaKey && !press.altKey) {
    return context.inTextField ? null : 'help';
  }
  return null;
}

/** The keys of an action as the help sheet shows them (one entry per key cap). */
export function shortcutKeys(action: ShortcutAction, mac: boolean): readonly string[] {
  const command = mac ? '⌘' : 'Ctrl';
  switch (action) {
    case 'new-chat':
      return [command, 'N'];
    case 'search':
      return [command, 'K'];
    case 'focus-composer':
      return [command, 'L'];
    case 'previous-conversation':
      return [command, '↑'];
    case 'next-conversation':
      return [command, '↓'];
    case 'toggle-sidebar':
      return [command, 'B'];
    case 'stop':
      return ['Esc'];
    case 'regenerate':
      return [command, 'Shift', 'R'];
    case 'help':
      return ['?'];
  }
}

/** The conversation to open for previous/next, or null to stay (ends do not wrap). */
export function neighbourConversation(
  ids: readonly string[],
  activeId: string | null,
  direction: 'previous' | 'next',
): string | null {
  if (ids.length === 0) return null;
  const index = activeId === null ? -1 : ids.indexOf(activeId);
  // A new chat sits above the list: "next" opens the newest, "previous" has nowhere to go.
  if (index === -1) return direction === 'next' ? (ids[0] ?? null) : null;
  const target = direction === 'next' ? index + 1 : index - 1;
  return ids[target] ?? null;
}
