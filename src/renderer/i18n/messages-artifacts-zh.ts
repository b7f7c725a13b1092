/** 文件查看器的简体中文文字（并入 ZH_MESSAGES）。 */
import type { ARTIFACTS_EN } from './messages-artifacts-en';

/** Simplified Chinese text of the artifact viewer. */
export const ARTIFACTS_ZH: Record<keyof typeof ARTIFACTS_EN, string> = {
  'artifact.view': '查看 {name}',
  'artifact.panel': '查看器：{name}',
  'artifact.position': '第 {index} 个，共 {count} 个',
  'artifact.previous': '上一个文件（[）',
  'artifact.next': '下一个文件（]）',
  'artifact.close': '关闭查看器（Esc）',
  'artifact.resize': '调整查看器宽度（← →）',
  'artifact.download': '下载',
  'artifact.open': '打开',
  'artifact.loading': '正在读取 {name}…',
  'artifact.tooLarge': '文件太大，无法预览（{size}；查看器最多显示 {limit}）。请打开或下载。',
  'artifact.noPreview': '这类文件没有预览。请打开或下载。',
  'artifact.failed': '无法读取此文件：{reason}',
  'artifact.showSource': '显示源代码',
  'artifact.showPage': '显示页面',
  'artifact.frameTitle': '页面 {name}，隔离运行：无网络，无法访问本应用',
  'artifact.isolated': '隔离运行：无网络，无法访问 Aivory。',
  'artifact.rows': '{rows} 行 × {columns} 列',
  'artifact.rowsCut': '仅显示 {columns} 列中的前 {shown} 列。',
  'artifact.parsing': '正在读取表格…',
  'artifact.csvError': '第 {row} 行：{message}',
  'artifact.plainText': '未高亮显示（超过 {limit}）。',
  'artifact.jsonInvalid': '不是有效的 JSON，按文本显示。',
  'artifact.keysStep': '文件查看器中的上一个 / 下一个文件',
  'artifact.keysClose': '关闭文件查看器（优先于停止回答）',
  'artifact.table': '表格 {name}',
};
