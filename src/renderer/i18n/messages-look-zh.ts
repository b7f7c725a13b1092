/** 侧栏分组、置顶、菜单与消息工具栏的简体中文文字（并入 ZH_MESSAGES）。 */
import type { LOOK_EN } from './messages-look-en';

/** Simplified Chinese text of the sidebar groups, pins, menus and toolbars. */
export const LOOK_ZH: Record<keyof typeof LOOK_EN, string> = {
  'sidebar.group.pinned': '已置顶',
  'sidebar.group.today': '今天',
  'sidebar.group.yesterday': '昨天',
  'sidebar.group.previous7': '过去 7 天',
  'sidebar.group.previous30': '过去 30 天',
  'sidebar.conversationMenu': '“{title}”的操作',
  'sidebar.pin': '置顶',
  'sidebar.unpin': '取消置顶',
  'sidebar.pinnedMark': '已置顶',
  'chat.moreActions': '更多对话操作',
  'message.toolbar': '消息操作',
};
