/**
 * The elicitation card's state, pure: the queue of requests a window shows (oldest first), the
 * form's draft (what the inputs hold: text for text and number inputs, booleans, chosen values)
 * and its conversion into the content sent on Accept, each field checked by the shared rules
 * (an empty input takes the field's default). Also the URL's origin, shown prominently.
 */
import type { EventPayload } from '../../../shared/ipc-contract';
import { fieldError } from '../../../shared/mcp-elicitation';
import type {
  McpElicitationField,
  McpElicitationProblem,
  McpElicitationValue,
} from '../../../shared/mcp-elicitation';

/** One request as the host sent it. */
export type ElicitationRequestView = EventPayload<'elicitation.request'>;

/** What one input holds. */
export type DraftValue = string | boolean | string[];
export type Draft = Record<string, DraftValue>;

/** The queue after a request arrived (a repeated id is ignored). */
export function enqueueElicitation(
  queue: readonly ElicitationRequestView[],
  request: ElicitationRequestView,
): ElicitationRequestView[] {
  if (queue.some((item) => item.elicitationId === request.elicitationId)) return [...queue];
  return [...queue, request];
}

/** The queue without `elicitationId`. */
export function settleElicitation(
  queue: readonly ElicitationRequestView[],
  elicitationId: string,
): ElicitationRequestView[] {
  return queue.filter((item) => item.elicitationId !== elicitationId);
}

/** The inputs as first shown: each field's default, else empty. */
export function initialDraft(fields: readonly McpElicitationField[]): Draft {
  const draft: Draft = {};
  for (const field of fields) {
    switch (field.type) {
      case 'boolean':
        draft[field.name] = field.default ?? false;
        break;
      case 'multi-enum':
        draft[field.name] = field.default ?? [];
        break;
      case 'number':
      case 'integer':
        draft[field.name] = field.default === undefined ? '' : String(field.default);
        break;
      default:
        draft[field.name] = field.default ?? '';
    }
  }
  return draft;
}

/** The draft as content, and the problem of each field that is wrong (none: ready to send). */
export function draftContent(
  fields: readonly McpElicitationField[],
  draft: Readonly<Draft>,
): {
  content: Record<string, McpElicitationValue>;
  problems: Record<string, McpElicitationProblem>;
} {
  const content: Record<string, McpElicitationValue> = {};
  const problems: Record<string, McpElicitationProblem> = {};
  for (const field of fields) {
    const raw = draft[field.name];
    let value: McpElicitationValue | undefined;
    if (field.type === 'number' || field.type === 'integer') {
      const text = typeof raw === 'string' ? raw.trim() : '';
      value = text === '' ? field.default : Number(text);
      if (typeof value === 'number' && !Number.isFinite(value)) {
        problems[field.name] = { kind: 'type' };
        continue;
      }
    } else if (field.type === 'multi-enum') {
      value =
        Array.isArray(raw) && (raw.length > 0 || field.default === undefined) ? raw : field.default;
      if (Array.isArray(value) && value.length === 0 && !field.required) value = undefined;
    } else if (field.type === 'boolean') {
      value = typeof raw === 'boolean' ? raw : field.default;
    } else {
      value = typeof raw === 'string' && raw !== '' ? raw : field.default;
    }
    const problem = fieldError(field, value);
    if (problem !== null) problems[field.name] = problem;
    else if (value !== undefined) content[field.name] = value;
  }
  return { content, problems };
}

/** The URL's origin (scheme, host, port) as the card shows it, or null when it has none. */
export function urlOrigin(url: string | null): string | null {
  if (url === null) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
