/** 简体中文界面文字；键与英文一一对应（类型检查保证没有遗漏）。 */
import type { MessageKey } from './messages-en';
import { KEYCHAIN_ZH } from './messages-keychain-zh';
import { LIGHTBOX_ZH } from './messages-lightbox-zh';
import { ARTIFACTS_ZH } from './messages-artifacts-zh';
import { LOOK_ZH } from './messages-look-zh';
import { ELICITATION_ZH } from './messages-elicitation-zh';
import { SAMPLING_ZH } from './messages-sampling-zh';
import { COMPOSER_ZH } from './messages-composer-zh';
import { MCP_ZH } from './messages-mcp-zh';
import { MODELS_ZH } from './messages-models-zh';
import { SETTINGS_ZH } from './messages-settings-zh';
import { UI_ZH } from './messages-ui-zh';
import { VERSIONS_ZH } from './messages-versions-zh';
import { COMPARE_ZH } from './messages-compare-zh';
import { CONV_SETTINGS_ZH } from './messages-convsettings-zh';
import { DIALOG_ZH } from './messages-dialog-zh';
import { PICKER_ZH } from './messages-picker-zh';
import { EMPTY_ZH } from './messages-empty-zh';
import { CELLS_ZH } from './messages-cells-zh';
import { DATA_ZH } from './messages-data-zh';

/** Simplified Chinese UI text. */
export const ZH_MESSAGES: Record<MessageKey, string> = {
  ...CELLS_ZH,
  ...SETTINGS_ZH,
  ...MCP_ZH,
  ...KEYCHAIN_ZH,
  ...MODELS_ZH,
  ...UI_ZH,
  ...VERSIONS_ZH,
  ...COMPARE_ZH,
  ...CONV_SETTINGS_ZH,
  ...DIALOG_ZH,
  ...PICKER_ZH,
  ...EMPTY_ZH,
  ...LIGHTBOX_ZH,
  ...ARTIFACTS_ZH,
  ...LOOK_ZH,
  ...ELICITATION_ZH,
  ...SAMPLING_ZH,
  ...COMPOSER_ZH,
  ...DATA_ZH,
  'app.title': 'Aivory',
  'app.loading': '加载中…',
  'app.offline': '未连接到 Aivory，正在重连…（若持续如此，请重新打开 aivory serve 打印的网址）',
  'app.error': '出错了：{message}',
  'app.dismiss': '关闭',

  'sidebar.newChat': '新对话',
  'sidebar.search': '搜索对话',
  'sidebar.empty': '还没有对话。',
  'sidebar.noHits': '没有找到。',
  'sidebar.settings': '设置',

  'chat.empty': '随便问。工具在你眼前运行。',
  'chat.rename': '重命名',
  'chat.delete': '删除',
  'chat.exportMarkdown': '导出 Markdown',
  'chat.exportJson': '导出 JSON',
  'chat.you': '你',
  'chat.taintHelp': '此后，MCP 调用和会发送数据的网页请求都会先询问，记忆需要你确认后才会生效。',
  'chat.assistant': 'Aivory',
  'chat.thinking': '思考中…',
  'chat.emptyReply': '模型返回了空回答。',
  'chat.retry': '重试',
  'chat.jumpToLatest': '↓ 跳到最新',
  'message.copy': '复制',
  'chat.usage': '输入 {input} tokens · 输出 {output}',
  'message.copyText': '复制为纯文本',
  'message.delete': '删除',
  'message.deleteConfirm': '删除这条提问及其回答？',
  'sidebar.running': '正在回答…',
  'chat.protocolRetry': '模型写出的工具调用无法解析，已请它重写（第 {attempt} 次，共 2 次）。',
  'chat.modelWait': '模型服务器返回 HTTP {status}；{seconds} 秒后重试（点“停止”可放弃）。',
  'chat.modelWaitNetwork': '无法连接模型服务器；{seconds} 秒后重试（点“停止”可放弃）。',
  'chat.retryHelp': '让模型重新回答（替换这次失败的回答）。',
  'chat.attachment': '附件：{name}（{size}）',
  'chat.artifact': '文件：{name}（{size}）',

  'composer.placeholder': '给 Aivory 发消息（Enter 发送，Shift+Enter 换行）',
  'composer.send': '发送',
  'composer.stop': '停止',
  'composer.mode': '模式',
  'composer.attach': '添加附件',
  'composer.dropHint': '松开即可添加附件',
  'composer.attachmentChip': '{name}（{size}）',
  'composer.removeAttachment': '移除 {name}',
  'composer.model': '模型',
  'composer.modelDefault': '默认：{name}',
  'composer.tools': '工具',
  'composer.prompts': '提示词',

  'file.download': '下载',
  'file.open': '打开',
  'file.reveal': '在文件夹中显示',

  'tools.title': '本对话可用的工具',
  'tools.newChatHint': '用于新对话：它的第一条消息就按这些开关执行。',
  'tools.loading': '加载中…',
  'tools.reset': '恢复为模型的默认设置',
  'tools.unavailable': '不可用',
  'tools.layer.global-off': '已在设置中关闭',
  'tools.layer.conversation-on': '本对话已开启',
  'tools.layer.conversation-off': '本对话已关闭',
  'tools.layer.model-default': '模型默认开启',
  'tools.layer.not-model-default': '不在模型默认工具中',

  'prompts.title': '插入提示词',
  'prompts.empty': '还没有提示词模板（可在“设置 → 提示词”中添加）。',
  'prompts.insert': '插入',
  'prompts.back': '返回',
  'prompts.insertHint': '插入（Ctrl/⌘+Enter）',
  'prompts.slashHint': '提示：在输入框中键入 / 即可选择提示词。',
  'prompts.noMatch': '没有匹配的提示词。',

  'code.copy': '复制',
  'code.copied': '已复制',
  'code.copyFailed': '复制失败',
  'mode.fast': '快速',
  'mode.normal': '标准',
  'mode.deep': '深度研究',

  'trace.running': '运行中',
  'trace.ok': '成功',
  'trace.progress': '进度',
  'trace.tainted': '⚠ 不受信任的内容',
  'trace.taintedHelp':
    '此调用返回的内容来自外部（网页、服务器或程序）。此后，MCP 调用和会向新网站发送数据的网页请求都会先询问，记忆需要你确认后才会生效。',
  'trace.error': '出错',
  'trace.skipped': '已跳过',
  'trace.budget': '超出预算',
  'trace.arguments': '参数',
  'trace.result': '结果',
  'trace.showFull': '显示完整输出',
  'trace.structured': '结构化内容',
  'trace.structured.valid': '符合该工具的输出 schema。',
  'trace.structured.invalid': '不符合该工具的输出 schema：{problem}',
  'trace.structured.unchecked': '未检查：无法使用该工具的输出 schema。',
  'trace.structured.none': '该工具未声明输出 schema。',

  'budget.total': '总计',
  'budget.rounds': '轮次',

  'stop.completed': '已完成',
  'stop.tool_budget_exceeded': '工具预算已用完，已根据现有结果作答。',
  'stop.tool_no_progress': '继续调用工具不会有新进展，已根据现有结果作答。',
  'stop.tool_parse_failure': '模型多次写出格式错误的工具调用。',
  'stop.length': '回答达到了模型的长度上限。',
  'stop.canceled': '已停止。',
  'stop.error': '本轮出错：{message}',
  'stop.errorUnknown': '本轮出错（没有记录原因）。',
  'stop.interrupted': '已中断：写这条回答时应用被关闭了。',

  'markdown.loadImage': '加载来自 {host} 的图片',
  'markdown.diagram': '图表',
  'markdown.diagramFailed': '无法绘制此图表，其代码如下：',

  'setup.title': '设置模型',
  'setup.intro': 'Aivory 需要一个兼容 OpenAI 接口的模型：本地服务，或带 API 密钥的服务商。',
  'setup.discover': '查找本地服务',
  'setup.discovering': '正在默认端口上查找…',
  'setup.noneFound':
    '没有本地服务响应（Ollama 11434、LM Studio 1234、llama.cpp 8080、vLLM 8000、Jan 1337）。',
  'setup.found': '{name}：{url}',
  'setup.manual': '或者填写服务商',
  'setup.baseUrl': '接口地址（Base URL）',
  'setup.apiKey': 'API 密钥（本地服务可不填）',
  'setup.model': '模型',
  'setup.toolMode': '工具调用方式',
  'setup.toolMode.native': '原生（函数调用）',
  'setup.toolMode.prompt': '提示词模式（<tool_call> 文本）',
  'setup.testing': '检查中…',
  'setup.testOk': '已连接，服务列出了 {count} 个模型。',
  'setup.testOkUnlisted': '已连接，但列表里没有“{model}”（也许仍可使用）。',
  'setup.testFailed': '无法连接：{message}',
  'setup.save': '保存并开始',

  'settings.title': '设置',
  'settings.close': '关闭',
  'settings.language': '语言',
  'settings.language.system': '跟随系统',
  'settings.version': 'Aivory {version}',
};
