/** 设置“数据”页的简体中文文字（并入 ZH_MESSAGES）。 */
import type { DATA_EN } from './messages-data-en';

/** Simplified Chinese text of the settings' Data page. */
export const DATA_ZH: Record<keyof typeof DATA_EN, string> = {
  'set.nav.data': '数据',
  'data.export.title': '导出全部对话',
  'data.export.intro':
    '所有对话连同附件和生成的文件，打包成一个 ZIP：每个对话一个文件夹，另附索引。',
  'data.export.format': '格式',
  'data.export.markdown': 'Markdown（便于阅读）',
  'data.export.json': 'JSON（便于程序处理）',
  'data.export.start': '导出全部对话',
  'data.export.cancel': '取消',
  'data.export.preparing': '准备中…',
  'data.export.progress': '{done} / {total} 个对话',
  'data.export.done': '已导出：{conversations} 个对话，{files} 个文件，{size}。',
  'data.export.download': '再次下载',
  'data.export.missing': '对话引用的 {count} 个文件未找到（已被删除），未包含在压缩包中。',
};
