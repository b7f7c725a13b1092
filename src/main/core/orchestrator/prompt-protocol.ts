/**
 * Prompt mode (tool_mode=prompt): tools are described in the system prompt with the seed's
 * preamble, and results come back as user-layer `<tool_result>` / `<tool_error>` messages.
 */
import type { ChatMessage, ToolSpec } from '../ports';
import {
  formatPromptTool,
  formatToolError,
  formatToolResult,
  PROMPT_PREAMBLE_HEAD,
  TOOL_CALL_CLOSE,
  TOOL_CALL_OPEN,
} from './protocol-text';

/**
 * The preamble listing exactly `tools` (those allowed this round). Descriptions and schemas of
 * MCP tools come from their servers: protocol markup in them is neutralised like tool output, so a
 * description cannot close the preamble's frame or show the model a forged call.
 */
export function buildPromptPreamble(tools: readonly ToolSpec[]): string {
  const sections = tools.map((tool) =>
    formatPromptTool(
      tool.name,
      neutraliseProtocolMarkup(tool.description),
      neutraliseProtocolMarkup(JSON.stringify(tool.inputSchema)),
    ),
  );
  return PROMPT_PREAMBLE_HEAD + sections.join('\n\n');
}

/**
 * Appends the preamble to the system prompt (the first message when it is a system message;
 * otherwise a system message is inserted first). With no tools the messages are returned as is.
 */
export function withPromptPreamble(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): ChatMessage[] {
  if (tools.length === 0) return [...messages];
  const preamble = buildPromptPreamble(tools);
  const [first, ...rest] = messages;
  if (first?.role === 'system') {
    return [{ role: 'system', content: `${first.content}\n\n${preamble}` }, ...rest];
  }
  return [{ role: 'system', content: preamble }, ...messages];
}

/**
 * Tool output is untrusted reference material. Any protocol tag inside it (`<tool_call`,
 * `<tool_result`, `<tool_error`, their closing forms, with stray spaces or any letter case) gets
 * its `<` escaped, so a fetched page cannot close our wrapper or forge a call or a result.
 */
export function neutraliseProtocolMarkup(text: string): string {
  return text.replace(/<(\s*\/?\s*tool_(?:call|result|error))/gi, '&lt;$1');
}

/** The user-layer message after a prompt-mode call (result or error form). */
export function promptModeResultMessage(name: string, output: string, isError: boolean): string {
  const safe = neutraliseProtocolMarkup(output);
  return isError ? formatToolError(name, safe) : formatToolResult(name, safe);
}

/** The assistant's own turn as the model wrote it, with the call closed (the stop sequence ate it). */
export function promptModeAssistantContent(visibleText: string, callBody: string): string {
  return `${visibleText}${TOOL_CALL_OPEN}${callBody}${TOOL_CALL_CLOSE}`;
}
