/** 主题设置与键盘快捷键的简体中文文字（并入 ZH_MESSAGES）。 */
import type { UI_EN } from './messages-ui-en';

/** Simplified Chinese text of the theme setting and the keyboard shortcuts. */
export const UI_ZH: Record<keyof typeof UI_EN, string> = {
  'ui.theme': '主题',
  'ui.theme.system': '跟随系统',
  'ui.theme.light': '浅色',
  'ui.theme.dark': '深色',

  'layout.showSidebar': '显示侧栏',
  'layout.hideSidebar': '隐藏侧栏',

  'shortcuts.title': '键盘快捷键',
  'shortcuts.close': '关闭',
  'shortcuts.new-chat': '新对话',
  'shortcuts.search': '搜索对话',
  'shortcuts.focus-composer': '跳到输入框',
  'shortcuts.previous-conversation': '上一个对话',
  'shortcuts.next-conversation': '下一个对话',
  'shortcuts.toggle-sidebar': '显示或隐藏侧栏',
  'shortcuts.stop': '停止正在生成的回答（在对话框中按 Esc 则关闭对话框）',
  'shortcuts.help': '显示此列表（焦点不在输入框时）',
  'shortcuts.browserNote':
    '在浏览器标签页中，浏览器会占用部分按键：例如 Ctrl+N 可能会打开新窗口，Ctrl+Shift+R 可能会刷新页面而不是重新生成。',
};
