/**
 * save_memory: stores a durable fact about the user. Definition verbatim from the seed
 * (docs/seeds/000_67077f376ad9eee3.txt, 注入提示词的内置工具定义); checked by a test.
 *
 * In a tainted turn (docs/architecture/turn-taint.md) the memory is stored PENDING with its origin
 * (the turn and what tainted it) and stays out of system prompts until the user confirms it
 * (`aivory memories confirm`). The model is told so (`pendingText`), so that its answer does not
 * tell the user that a fact is remembered; knowing it gives a page no way around the hold.
 */
import type { MemoryOrigin } from '../../shared/dto';
import type { TaintReason } from '../../shared/turn-events';
import type { IdGenerator, MemoryWriter, Tool } from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';

export const SAVE_MEMORY_NAME = 'save_memory';

export const SAVE_MEMORY_DESCRIPTION =
  'Save a durable fact about the user into long-term memory. Use ONLY when the user explicitly says "remember…" or asks you to. Status defaults to ACTIVE.';

export const SAVE_MEMORY_SCHEMA_JSON =
  '{"type":"object","properties":{"memory_text":{"type":"string"},"slot":{"type":"string"},"value":{"type":"string"}},"required":["memory_text"]}';

/** Longest memory text kept; a memory is a fact, not a document. */
export const MAX_MEMORY_TEXT_CHARS = 2000;
/** Longest slot or value. */
const MAX_FIELD_CHARS = 200;
/** Longest origin reason kept with a pending memory. */
const MAX_ORIGIN_REASON_CHARS = 2000;

interface SaveMemoryArguments {
  memory_text: string;
  slot?: string;
  value?: string;
}

const validate = builtInArgumentCheck(SAVE_MEMORY_SCHEMA_JSON, {
  properties: {
    memory_text: { nonBlank: true, maxLength: MAX_MEMORY_TEXT_CHARS },
    slot: { maxLength: MAX_FIELD_CHARS },
    value: { maxLength: MAX_FIELD_CHARS },
  },
});

function toArguments(args: unknown): SaveMemoryArguments {
  const record = Object.fromEntries(Object.entries(args ?? {}));
  return {
    memory_text: String(record.memory_text).trim(),
    ...(typeof record.slot === 'string' ? { slot: record.slot } : {}),
    ...(typeof record.value === 'string' ? { value: record.value } : {}),
  };
}

export function createSaveMemoryTool(dependencies: {
  memories: MemoryWriter;
  ids: IdGenerator;
}): Tool {
  return {
    name: SAVE_MEMORY_NAME,
    description: SAVE_MEMORY_DESCRIPTION,
    inputSchema: JSON.parse(SAVE_MEMORY_SCHEMA_JSON) as Record<string, unknown>,
    timeoutMs: 5_000,
    validate,
    execute: async (args, context) => {
      const input = toArguments(args);
      const tainted = context.taint?.tainted === true;
      const memory = dependencies.memories.saveMemory({
        id: dependencies.ids.next('mem'),
        memoryText: input.memory_text,
        slot: input.slot ?? null,
        value: input.value ?? null,
        conversationId: context.conversationId,
        ...(tainted
          ? {
              status: 'PENDING' as const,
              origin: memoryOrigin(context.turnId ?? null, context.taint?.reasons ?? []),
            }
          : {}),
      });
      return {
        content: tainted ? pendingText(memory.memoryText) : savedText(memory.memoryText),
      };
    },
  };
}

/** What the model reads after a save. */
export function savedText(memoryText: string): string {
  return `Saved to long-term memory (ACTIVE): ${memoryText}`;
}

/**
 * What the model reads after a save in a tainted turn: the truth, so its answer does not tell the
 * user a fact is remembered when it waits for the user's confirmation. Knowing this gives a page
 * no way around the hold: only the user can confirm.
 */
export function pendingText(memoryText: string): string {
  return `Held for the user's confirmation (PENDING; this turn read untrusted content, so it is not used until the user confirms it under Memories): ${memoryText}`;
}

/** `web_fetch https://…; aivory_web_search`: what tainted the turn, cut to a bounded length. */
function memoryOrigin(turnId: string | null, reasons: readonly TaintReason[]): MemoryOrigin {
  const reason =
    reasons
      .map((item) => (item.detail === null ? item.tool : `${item.tool} ${item.detail}`))
      .join('; ') || 'untrusted content';
  return {
    turnId,
    reason:
      reason.length > MAX_ORIGIN_REASON_CHARS
        ? `${reason.slice(0, MAX_ORIGIN_REASON_CHARS - 1)}…`
        : reason,
  };
}
