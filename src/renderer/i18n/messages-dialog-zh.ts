/** 应用内确认与就地重命名的中文文本（并入 ZH_MESSAGES）。 */
export const DIALOG_ZH = {
  'dialog.cancel': '取消',
  'dialog.deleteConversationTitle': '删除对话？',
  'dialog.deleteConversation':
    '将删除“{title}”及其全部消息。它保存的文件仍留在磁盘上。此操作无法撤销。',
  'dialog.removeTitle': '删除？',
  'rename.label': '对话标题',
  'rename.hint': '回车保存，Esc 取消',
} as const;
