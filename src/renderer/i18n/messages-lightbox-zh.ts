/** 图片查看器的简体中文文字（并入 ZH_MESSAGES）。 */
import type { LIGHTBOX_EN } from './messages-lightbox-en';

/** Simplified Chinese text of the image lightbox. */
export const LIGHTBOX_ZH: Record<keyof typeof LIGHTBOX_EN, string> = {
  'lightbox.open': '查看图片：{name}',
  'lightbox.title': '图片：{name}',
  'lightbox.zoomIn': '放大（+）',
  'lightbox.zoomOut': '缩小（−）',
  'lightbox.fit': '适合窗口（0）',
  'lightbox.scale': '缩放：{percent}%',
  'lightbox.download': '下载',
  'lightbox.reveal': '在文件夹中显示',
  'lightbox.close': '关闭（Esc）',
  'lightbox.image': '图片',
};
