import { describe, expect, it } from 'vitest';
import {
  CONTINUE_LINE,
  FINAL_ANSWER_BUDGET_INSTRUCTION,
  FINAL_ANSWER_NO_PROGRESS_INSTRUCTION,
  formatParseRetry,
  formatPromptTool,
  formatToolError,
  formatToolResult,
  PROMPT_PREAMBLE_HEAD,
  PROMPT_STOP_SEQUENCE,
  PUBLIC_ERROR_CANCELED,
  PUBLIC_ERROR_FAILED,
  PUBLIC_ERROR_TIMEOUT,
  TOOL_OUTPUT_BUDGET_EXHAUSTED,
  TOOL_OUTPUT_SKIPPED,
} from '../../../src/main/core/orchestrator/protocol-text';
import { readSeed, readSharedSeed, seedBetween, TOOL_PROTOCOL_SEED } from '../../support/seed';

const seed = readSeed(TOOL_PROTOCOL_SEED);

describe('protocol text is the seed, byte for byte', () => {
  it('the project copy of the seed equals the shared original when it is present', () => {
    const shared = readSharedSeed(TOOL_PROTOCOL_SEED);
    if (shared !== null) expect(seed).toBe(shared);
    expect(seed).toContain('提示词模式前导');
  });

  it('preamble: head, tool section format, and nothing else', () => {
    const block = seedBetween(
      seed,
      '以下内容追加到普通 system prompt；<工具定义> 只包含本轮实际允许的工具。',
      '服务商停止序列准确为：',
    );
    const expected = `${PROMPT_PREAMBLE_HEAD}${formatPromptTool('<工具名称>', '<工具描述>', '<JSON_SCHEMA>')}`;
    expect(expected).toBe(block);
  });

  it('stop sequence', () => {
    expect(seedBetween(seed, '服务商停止序列准确为：', '模型每轮只能发出一个调用')).toBe(
      PROMPT_STOP_SEQUENCE,
    );
  });

  it('tool_result and tool_error wrappers', () => {
    expect(formatToolResult('<工具名称>', '<不可信工具输出>')).toBe(
      seedBetween(seed, '调用成功后，下一条用户层消息准确为：', '执行错误使用 tool_error：'),
    );
    expect(formatToolError('<工具名称>', '<公开错误输出>')).toBe(
      seedBetween(seed, '执行错误使用 tool_error：', '主 system prompt 的信任边界'),
    );
    expect(CONTINUE_LINE).toBe('Continue from here.');
  });

  it('bounded retry message', () => {
    expect(formatParseRetry('<解析错误>')).toBe(
      seedBetween(
        seed,
        '模型输出的调用 JSON 无法解析时，收到以下有界重试消息：',
        '两次重试仍失败后',
      ),
    );
  });

  it('final-answer instructions and tool-output versions', () => {
    expect(FINAL_ANSWER_BUDGET_INSTRUCTION).toBe(
      seedBetween(
        seed,
        '调用次数、时间或轮数预算耗尽时，最后一次无工具请求收到：',
        '编排器检测到重复或无进展调用时使用：',
      ),
    );
    expect(FINAL_ANSWER_NO_PROGRESS_INSTRUCTION).toBe(
      seedBetween(seed, '编排器检测到重复或无进展调用时使用：', '最终回答轮会移除工具声明。'),
    );
    const outputs = seedBetween(
      seed,
      '发给模型的工具输出版本为：',
      '清理后的公开执行错误固定为',
    ).split('\n\n');
    expect(outputs).toEqual([TOOL_OUTPUT_BUDGET_EXHAUSTED, TOOL_OUTPUT_SKIPPED]);
  });

  it('the three public errors', () => {
    const line = seedBetween(seed, '清理后的公开执行错误固定为 ', '。\n');
    expect(line).toBe(
      `${PUBLIC_ERROR_CANCELED}、${PUBLIC_ERROR_TIMEOUT} 或 ${PUBLIC_ERROR_FAILED}`,
    );
  });
});
