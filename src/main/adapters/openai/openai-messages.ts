/**
 * Our provider-neutral messages and tool definitions → the chat-completions wire format, and
 * the streaming request body.
 */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatImage, ChatMessage, LlmRequest, ToolSpec } from '../../core/ports';

/** An image as a `data:` URL, the form every OpenAI-compatible vision server takes. */
export function imageDataUrl(image: ChatImage): string {
  return `data:${image.mime};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}

/** Maps provider-neutral messages to the chat-completions wire format. */
export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user': {
        const images = message.images ?? [];
        if (images.length === 0) return { role: 'user', content: message.content };
        // Vision input: the text (naming the files), then each image as a data URL.
        return {
          role: 'user',
          content: [
            { type: 'text', text: message.content },
            ...images.map((image) => ({
              type: 'image_url' as const,
              image_url: { url: imageDataUrl(image) },
            })),
          ],
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
      case 'assistant': {
        const toolCalls = message.toolCalls ?? [];
        if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // A call without text is sent as null content, the shape servers themselves produce.
          content: message.content === '' ? null : message.content,
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.argumentsJson },
          })),
        };
      }
    }
  });
}

/** Maps tool definitions to `tools` entries; their description and schema pass through verbatim. */
export function toOpenAiTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** The request body. `tools` and `stop` are omitted when empty: some servers reject `[]`. */
export function toStreamParams(request: LlmRequest): ChatCompletionCreateParamsStreaming {
  const tools = toOpenAiTools(request.tools ?? []);
  const stop = request.stop ?? [];
  return {
    model: request.model,
    messages: toOpenAiMessages(request.messages),
    stream: true,
    // Token counts in a last chunk; servers that do not know the option ignore it.
    stream_options: { include_usage: true },
    ...(tools.length > 0 ? { tools } : {}),
    ...(stop.length > 0 ? { stop } : {}),
    // Only what the user set (the conversation's or the model's defaults); the server decides the rest.
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.topP === undefined ? {} : { top_p: request.topP }),
    ...(request.maxOutputTokens === undefined ? {} : { max_tokens: request.maxOutputTokens }),
  };
}
