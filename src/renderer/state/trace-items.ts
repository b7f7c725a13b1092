/**
 * What a message shows, in order: text, reasoning, one trace card per tool call (the call paired
 * with its result by id), files. Pure, shared by live turns and stored messages.
 */
import type { MessagePart } from '../../shared/dto';
import type { ArtifactReference, StructuredToolOutput } from '../../shared/turn-events';

/** The four states a trace card shows (`budget` results are shown as skipped). */
export type TraceStatus = 'running' | 'ok' | 'error' | 'skipped';

/** One tool call with its result, as a card shows it. */
export interface ToolTrace {
  toolCallId: string;
  name: string;
  arguments: unknown;
  status: TraceStatus;
  /** True when the call was refused because its budget ran out. */
  overBudget: boolean;
  durationMs: number | null;
  output: string | null;
  /** An MCP tool's structured result, checked against its output schema (absent: none). */
  structured?: StructuredToolOutput;
}

/** One visible piece of a message. */
export type DisplayItem =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; durationMs: number | null }
  | { kind: 'tool'; trace: ToolTrace }
  | { kind: 'file'; artifact: ArtifactReference; attached: boolean };

/**
 * The display items of `parts`. A call without a result is `running` while the turn runs and
 * `error` once it has ended (the process stopped before the tool answered).
 */
export function displayItems(parts: readonly MessagePart[], turnRunning: boolean): DisplayItem[] {
  const items: DisplayItem[] = [];
  const traces = new Map<string, ToolTrace>();
  for (const part of parts) {
    switch (part.kind) {
      case 'text':
        if (part.text.trim() !== '') items.push({ kind: part.kind, text: part.text });
        break;
      case 'reasoning':
        if (part.text.trim() !== '') {
          items.push({ kind: 'reasoning', text: part.text, durationMs: part.durationMs ?? null });
        }
        break;
      case 'tool-call': {
        const trace: ToolTrace = {
          toolCallId: part.toolCallId,
          name: part.name,
          arguments: part.arguments,
          status: turnRunning ? 'running' : 'error',
          overBudget: false,
          durationMs: null,
          output: null,
        };
        traces.set(part.toolCallId, trace);
        items.push({ kind: 'tool', trace });
        break;
      }
      case 'tool-result': {
        const known = traces.get(part.toolCallId);
        const result = {
          status: part.status === 'budget' ? ('skipped' as const) : part.status,
          overBudget: part.status === 'budget',
          durationMs: part.durationMs,
          output: part.output,
          ...(part.structured === undefined ? {} : { structured: part.structured }),
        };
        if (known) Object.assign(known, result);
        else {
          const trace = {
            toolCallId: part.toolCallId,
            name: part.name,
            arguments: null,
            ...result,
          };
          items.push({ kind: 'tool', trace });
        }
        break;
      }
      case 'artifact':
        items.push({ kind: 'file', artifact: part.artifact, attached: false });
        break;
      case 'attachment':
        items.push({ kind: 'file', artifact: part.attachment, attached: true });
        break;
    }
  }
  return items;
}
