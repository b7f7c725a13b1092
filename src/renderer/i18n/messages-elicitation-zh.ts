/** MCP 服务器提问卡片的简体中文文字（并入 ZH_MESSAGES）。 */
import type { ELICITATION_EN } from './messages-elicitation-en';

/** Simplified Chinese text of an MCP server's question card. */
export const ELICITATION_ZH: Record<keyof typeof ELICITATION_EN, string> = {
  'elicitation.title': '一个 MCP 服务器请你提供信息',
  'elicitation.urlTitle': '一个 MCP 服务器请你打开一个网页',
  'elicitation.intro': '“{service}” 是第三方 MCP 服务器，不是 Aivory。它的原话：',
  'elicitation.noMessage': '（没有说明）',
  'elicitation.urlIntro': '它想让你打开这个网站上的页面：',
  'elicitation.badUrl': '（不是网址）',
  'elicitation.private': '你的回答只发给这个服务器，不会交给模型。在你选择之前什么都不会发送。',
  'elicitation.retryTitle': '一个 MCP 服务器需要你先打开一个网页',
  'elicitation.retryIntro': '在你访问这个网站之前，工具无法运行。打开它，在那里完成后再回来：',
  'elicitation.waiting':
    '已打开。在 {origin} 上完成后，请选择“完成”：工具会再试一次。（服务器也可能自己告知已完成。）',
  'elicitation.done': '完成',
  'elicitation.accept': '提交',
  'elicitation.open': '在浏览器中打开',
  'elicitation.decline': '拒绝',
  'elicitation.cancel': '取消',
  'elicitation.more': '还有 {count} 个在等待',
  'elicitation.required': '（必填）',
  'elicitation.choose': '— 请选择 —',
  'elicitation.problem.required': '必须填写。',
  'elicitation.problem.type': '这不是有效的值。',
  'elicitation.problem.email': '请输入电子邮件地址。',
  'elicitation.problem.uri': '请输入完整地址（例如 https://…）。',
  'elicitation.problem.date': '请输入日期（YYYY-MM-DD）。',
  'elicitation.problem.date-time': '请输入日期和时间（YYYY-MM-DDTHH:MM:SSZ）。',
  'elicitation.problem.min-length': '至少 {limit} 个字符。',
  'elicitation.problem.max-length': '最多 {limit} 个字符。',
  'elicitation.problem.minimum': '不能小于 {limit}。',
  'elicitation.problem.maximum': '不能大于 {limit}。',
  'elicitation.problem.integer': '请输入整数。',
  'elicitation.problem.choice': '请从选项中选择。',
  'elicitation.problem.min-items': '至少选择 {limit} 项。',
  'elicitation.problem.max-items': '最多选择 {limit} 项。',
};
