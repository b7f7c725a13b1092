/**
 * Folds TurnEvents into the ordered parts of the assistant message. Pure, so the chat service
 * (which persists the parts) and the renderer (which shows them) build the same message.
 */
import type { MessagePart } from './dto';
import type { TurnEvent } from './turn-events';

/** Returns the parts after `event`; `parts` is not modified. */
export function applyEventToParts(parts: readonly MessagePart[], event: TurnEvent): MessagePart[] {
  switch (event.type) {
    case 'text-delta':
      return appendText(parts, 'text', event.text);
    case 'reasoning-delta':
      return appendText(parts, 'reasoning', event.text);
    case 'tool-call-end':
      return [
        ...parts,
        {
          kind: 'tool-call',
          toolCallId: event.toolCallId,
          name: event.name,
          arguments: event.arguments,
        },
      ];
    case 'tool-result':
      return [
        ...parts,
        {
          kind: 'tool-result',
          toolCallId: event.toolCallId,
          name: event.name,
          status: event.status,
          output: event.output,
          durationMs: event.durationMs,
          ...(event.structured === undefined ? {} : { structured: event.structured }),
        },
        ...event.artifacts.map((artifact): MessagePart => ({ kind: 'artifact', artifact })),
      ];
    default:
      return [...parts];
  }
}

/** Extends the last part when it is of the same kind, so a streamed answer stays one part. */
function appendText(
  parts: readonly MessagePart[],
  kind: 'text' | 'reasoning',
  text: string,
): MessagePart[] {
  const last = parts[parts.length - 1];
  if (last && last.kind === kind) {
    return [...parts.slice(0, -1), { ...last, text: last.text + text }];
  }
  return [...parts, { kind, text }];
}

/**
 * The visible answer text of a message: its text parts in order, separated by a blank line where
 * tool calls split them (each provider round writes its own part).
 */
export function messageText(parts: readonly MessagePart[]): string {
  return parts
    .filter((part): part is Extract<MessagePart, { kind: 'text' }> => part.kind === 'text')
    .map((part) => part.text.trim())
    .filter((text) => text !== '')
    .join('\n\n');
}
