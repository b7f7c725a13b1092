/**
 * save_memory: stores a durable fact about the user. Definition verbatim from the seed
 * (docs/seeds/000_67077f376ad9eee3.txt, 注入提示词的内置工具定义); checked by a test.
 */
import type { Memory } from '../../shared/dto';
import type { IdGenerator, Tool } from '../core/ports';

export const SAVE_MEMORY_NAME = 'save_memory';

export const SAVE_MEMORY_DESCRIPTION =
  'Save a durable fact about the user into long-term memory. Use ONLY when the user explicitly says "remember…" or asks you to. Status defaults to ACTIVE.';

export const SAVE_MEMORY_SCHEMA_JSON =
  '{"type":"object","properties":{"memory_text":{"type":"string"},"slot":{"type":"string"},"value":{"type":"string"}},"required":["memory_text"]}';

/** Longest memory text kept; a memory is a fact, not a document. */
export const MAX_MEMORY_TEXT_CHARS = 2000;
/** Longest slot or value. */
const MAX_FIELD_CHARS = 200;

export interface MemoryWriter {
  saveMemory(input: Omit<Memory, 'createdAt' | 'status'>): Memory;
}

interface SaveMemoryArguments {
  memory_text: string;
  slot?: string;
  value?: string;
}

function validate(args: unknown): string | null {
  if (args === null || typeof args !== 'object') return 'expected an object';
  const record = Object.fromEntries(Object.entries(args));
  const text = record.memory_text;
  if (typeof text !== 'string' || text.trim() === '')
    return '"memory_text" must be a non-empty string';
  if (text.length > MAX_MEMORY_TEXT_CHARS) {
    return `"memory_text" is longer than ${MAX_MEMORY_TEXT_CHARS} characters`;
  }
  for (const field of ['slot', 'value']) {
    const item = record[field];
    if (item === undefined) continue;
    if (typeof item !== 'string') return `"${field}" must be a string`;
    if (item.length > MAX_FIELD_CHARS)
      return `"${field}" is longer than ${MAX_FIELD_CHARS} characters`;
  }
  return null;
}

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
      const memory = dependencies.memories.saveMemory({
        id: dependencies.ids.next('mem'),
        memoryText: input.memory_text,
        slot: input.slot ?? null,
        value: input.value ?? null,
        conversationId: context.conversationId,
      });
      return { content: `Saved to long-term memory (${memory.status}): ${memory.memoryText}` };
    },
  };
}
