/**
 * Every protocol string the seed (docs/seeds/000_67077f376ad9eee3.txt) gives as 准确为 ("exactly"),
 * byte for byte, in one place. test/unit/core/protocol-text.test.ts compares each to the seed.
 * Placeholders in angle brackets are filled by the functions below, never by editing the text.
 */

/** The provider stop sequence for prompt mode. */
export const PROMPT_STOP_SEQUENCE = '</tool_call>';

export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';

/** The prompt-mode preamble up to and including the `Tools:` heading and its blank line. */
export const PROMPT_PREAMBLE_HEAD = [
  '## Available tools',
  'You can call any of the tools below by emitting EXACTLY this format and then STOPPING:',
  '',
  '<tool_call>{"name": "<tool>", "arguments": <args>}</tool_call>',
  '',
  'Important rules:',
  '- After emitting `</tool_call>` STOP. Do not write anything else and do not invent the result.',
  '- The orchestrator will execute the tool and reply with a `<tool_result>` block. Continue from there.',
  '- Never repeat a tool call with the same arguments. If the available evidence is sufficient, answer immediately.',
  '- When a tool schema offers a queries or urls array, batch independent requests that are already known.',
  "- If you don't need a tool, just answer the user directly.",
  '',
  'Tools:',
  '',
  '',
].join('\n');

/** One tool in the preamble: `### <name>` / description / `Input schema: <JSON>`. */
export function formatPromptTool(name: string, description: string, schemaJson: string): string {
  return `### ${name}\n${description}\nInput schema: ${schemaJson}`;
}

/** The line that ends every tool result or error message. */
export const CONTINUE_LINE = 'Continue from here.';

/** The user-layer message after a successful prompt-mode call. */
export function formatToolResult(name: string, output: string): string {
  return `<tool_result name="${name}">\n${output}\n</tool_result>\n${CONTINUE_LINE}`;
}

/** The user-layer message after a failed prompt-mode call. */
export function formatToolError(name: string, publicError: string): string {
  return `<tool_error name="${name}">\n${publicError}\n</tool_error>\n${CONTINUE_LINE}`;
}

/** The bounded retry message for call JSON that does not parse. */
export function formatParseRetry(parseError: string): string {
  return [
    '<tool_error>',
    `Your <tool_call> JSON failed to parse: ${parseError}`,
    'Re-emit the tool call as ONE valid JSON object: <tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>',
    '</tool_error>',
  ].join('\n');
}

/** Instruction for the last, tool-less request after a budget ran out. */
export const FINAL_ANSWER_BUDGET_INSTRUCTION =
  'The tool execution budget is exhausted. Do not call or request any tools. Based only on the conversation and tool results already available, provide the best possible final answer now. Do not discuss the tool budget unless it prevents you from answering.';

/** Instruction for the last, tool-less request after repeated calls stopped adding evidence. */
export const FINAL_ANSWER_NO_PROGRESS_INSTRUCTION =
  'Further tool calls would not add new evidence. Do not call or request any tools. Based only on the conversation and tool results already available, provide the best possible final answer now. Do not discuss this internal stopping condition unless it prevents you from answering.';

/** The tool-output version of the budget message (a call past its tool's cap). */
export const TOOL_OUTPUT_BUDGET_EXHAUSTED =
  'Tool execution budget exhausted. Do not call any more tools. Use the tool results already available to provide the best possible final answer.';

/** The tool-output text of a skipped duplicate or no-progress call. */
export const TOOL_OUTPUT_SKIPPED =
  'This tool request was skipped because it duplicates an earlier request, repeats a failed path, or would add no new evidence. Do not repeat this request. Use the other results already available, and call a different tool only if decisive information is still missing.';

/** The three public execution errors; nothing else from a thrown error reaches the model or UI. */
export const PUBLIC_ERROR_CANCELED = 'The operation was canceled.';
export const PUBLIC_ERROR_TIMEOUT = 'The tool timed out. Please try again.';
export const PUBLIC_ERROR_FAILED = 'Tool execution failed. Please try again.';
