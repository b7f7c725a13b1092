/** 多个模型回答同一个问题的简体中文文字（并入 ZH_MESSAGES）。 */
import type { COMPARE_EN } from './messages-compare-en';

/** Simplified Chinese text of several models answering one question. */
export const COMPARE_ZH: Record<keyof typeof COMPARE_EN, string> = {
  'compare.toggle': '对比',
  'compare.toggleCount': '对比：+{count}',
  'compare.title': '同时问这些模型',
  'compare.hint': '下一个问题还会发给最多 {max} 个已保存的模型，它们的回答并排显示。',
  'compare.clear': '只问一个模型',
  'compare.group': '{count} 个模型的回答',
  'compare.answerOf': '{model} 的回答',
  'compare.writing': '正在回答…',
  'compare.stopOne': '停止 {model} 的回答',
  'compare.keep': '保留这个回答',
  'compare.keepNote': '保留一个回答后从它继续对话；其他回答作为它的版本保留，并标注各自的模型。',
  'compare.askedBy': '由 {model} 的回答发起',
};
