/** MCP 服务器采样请求卡片的简体中文文字（并入 ZH_MESSAGES）。 */
import type { SAMPLING_EN } from './messages-sampling-en';

/** Simplified Chinese text of an MCP server's sampling card. */
export const SAMPLING_ZH: Record<keyof typeof SAMPLING_EN, string> = {
  'sampling.title': '一个 MCP 服务器请你的模型写一段回复',
  'sampling.intro': '“{service}” 是第三方 MCP 服务器，不是 Aivory。它想让模型回答下面的消息。',
  'sampling.model': '模型：{model} · 最多 {tokens} 个 token',
  'sampling.systemPrompt': '它的系统提示词（原话）：',
  'sampling.messages': '它的消息（原话）：',
  'sampling.role.user': '用户（来自服务器）',
  'sampling.role.assistant': '助手（来自服务器）',
  'sampling.private':
    '回复只发给这个服务器，不带工具，也不含你对话中的任何内容；所用 token 计入本轮。',
  'sampling.once': '允许一次',
  'sampling.always': '始终允许此服务器',
  'sampling.deny': '拒绝',
  'sampling.more': '还有 {count} 个在等待',
};
