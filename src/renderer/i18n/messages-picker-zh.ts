/** 输入框模型选择器的中文文本（并入 ZH_MESSAGES）。 */
export const PICKER_ZH = {
  'composer.modelSearch': '搜索模型',
  'composer.modelNone': '没有匹配的模型',
  'composer.modelGroupDefault': '默认',
  'composer.badgeVision': '视觉',
  'composer.badgeVisionHint': '可以接收图片',
  'composer.badgeTools': '工具',
  'composer.badgeToolsHint': '原生调用工具',
  'composer.badgePromptTools': '提示词工具',
  'composer.badgePromptToolsHint': '通过提示词调用工具（适用于不支持原生工具调用的模型）',
  'composer.badgeContextHint': '上下文窗口（token 数）',
} as const;
