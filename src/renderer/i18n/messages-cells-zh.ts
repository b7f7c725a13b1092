/** 回答各部分的简体中文文字（并入 ZH_MESSAGES）。 */
import type { CELLS_EN } from './messages-cells-en';

/** Simplified Chinese text of an answer's parts. */
export const CELLS_ZH: Record<keyof typeof CELLS_EN, string> = {
  'duration.underTenth': '< 0.1 秒',
  'duration.seconds': '{seconds} 秒',
  'duration.minutes': '{minutes} 分 {seconds} 秒',
  'duration.hours': '{hours} 小时 {minutes} 分',

  'cell.stdout': '输出',
  'cell.stderr': '错误输出',
  'cell.error': '错误',
  'cell.notes': '备注',
  'cell.noArguments': '无参数',

  'workspaceReset.button': '以空工作区重新开始',
  'workspaceReset.title': '以空工作区重新开始？',
  'workspaceReset.question':
    '此对话的沙盒文件没有任何可读取的存档。下一次运行将从空的 /workspace 开始；损坏的存档会被移到一旁保留，不会删除。',
  'workspaceReset.confirm': '从空开始',
  'workspaceReset.done': '下一次运行将从空的 /workspace 开始。损坏的存档保留在：{where}',

  'reasoning.live': '思考中… {seconds} 秒',
  'reasoning.done': '已思考 {duration}',
  'reasoning.doneUnknown': '推理过程',

  'budget.meter': '工具调用：已用 {used} / {limit}',

  'taint.icon': '已读取不受信任的内容：{sources}。{help}',
  'taint.cardNote': '此调用读取了不受信任的内容：{sources}。',

  'image.notLoadedHttp': '图片未加载：已阻止通过 http 加载的图片（只能加载 https 图片）。',
  'image.notLoadedData': '图片未加载：已阻止内嵌（data:）图片。',
  'image.notLoadedOther': '图片未加载：只能加载 https 图片。',
  'image.alt': '图片：{alt}',

  'toolLabel.python_execute': '运行 Python',
  'toolLabel.aivory_web_search': '联网搜索',
  'toolLabel.web_fetch': '读取网页',
  'toolLabel.fetch_image': '下载图片',
  'toolLabel.image_generate': '生成图片',
  'toolLabel.save_memory': '保存到记忆',
  'toolLabel.use_skill': '使用技能',
  'skillLabel.document-generation': '文档生成',
  'skillAbout.document-generation':
    '助手在制作 PDF、PowerPoint、Word 或 Excel 文件前遵循的做法与检查清单。',
};
