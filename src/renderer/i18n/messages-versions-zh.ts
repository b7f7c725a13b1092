/** 消息版本的中文：重新生成、编辑后重发、‹ 2/3 ›（并入 ZH_MESSAGES）。 */
import type { VERSIONS_EN } from './messages-versions-en';

export const VERSIONS_ZH: Record<keyof typeof VERSIONS_EN, string> = {
  'message.regenerate': '重新生成',
  'message.regenerateHelp': '生成这条回答的新版本（其他版本保留）',
  'message.regenerateIn': '选择模式或其他模型重新生成…',
  'message.regenerateWith': '用 {model} 重新生成',
  'message.regenerateMode': '重新生成：{mode}',
  'message.edit': '编辑',
  'message.editHelp': '编辑这条提问并重新发送（对话从这里分支）',
  'message.editLabel': '编辑你的提问',
  'message.editSend': '发送',
  'message.editCancel': '取消',
  'message.editNote': '这条提问之后的回答保留在原来的版本中。',
  'message.versionPrevious': '上一个版本',
  'message.versionNext': '下一个版本',
  'message.versionOf': '第 {index} 个版本，共 {count} 个',
  'markdown.tableMore': '显示其余 {count} 行',
  'markdown.earlier': '显示此回答的更多内容（上方还有 {size} 未显示）',
  'shortcuts.regenerate': '重新生成最后一条回答',
};
