/**
 * The scripted model of the MCP e2e test: asked to echo, it calls `everything__echo` in prompt
 * mode; once the tool result (or error) is back, it answers with what it saw.
 */
import type { RecordedRequest, ScriptedResponse } from '../../support/scripted-llm-server';

export const ECHO_PROMPT = 'Please echo a greeting through the everything service';
export const ECHO_ARGUMENTS = { message: 'hello from the e2e test' };
const ECHO_CALL = `<tool_call>${JSON.stringify({ name: 'everything__echo', arguments: ECHO_ARGUMENTS })}</tool_call>`;

type Message = { role: string; content: string };

/** The scripted server's response for one request. */
export function mcpScript(request: RecordedRequest): ScriptedResponse {
  const messages = (request.body.messages ?? []) as Message[];
  const last = messages.at(-1);
  if (last?.role === 'user' && /^<tool_(result|error)/.test(last.content.trim())) {
    const output = /^<tool_\w+[^>]*>\s*([\s\S]*?)\s*<\/tool_/.exec(last.content.trim())?.[1];
    return { content: `The everything service answered: **${output ?? '?'}**.`, delayMs: 10 };
  }
  if (last?.content.includes(ECHO_PROMPT)) {
    return { content: `Calling the echo tool.${ECHO_CALL}`, delayMs: 10 };
  }
  return { content: 'Hello from the scripted model.' };
}
