import { describe, expect, it } from 'vitest';
import type { NewMemory } from '../../../src/main/core/ports';
import type { Memory } from '../../../src/shared/dto';
import {
  createSaveMemoryTool,
  SAVE_MEMORY_DESCRIPTION,
  SAVE_MEMORY_NAME,
  SAVE_MEMORY_SCHEMA_JSON,
} from '../../../src/main/tools/save-memory';
import { readSeed, seedToolDefinition, TOOL_PROTOCOL_SEED } from '../../support/seed';

function memoryWriter() {
  const saved: Memory[] = [];
  return {
    saved,
    saveMemory: (input: NewMemory): Memory => {
      const memory: Memory = {
        ...input,
        status: input.status ?? 'ACTIVE',
        origin: input.origin ?? null,
        createdAt: 1,
      };
      saved.push(memory);
      return memory;
    },
  };
}

describe('save_memory', () => {
  it('definition is the seed text, verbatim', () => {
    const seed = seedToolDefinition(readSeed(TOOL_PROTOCOL_SEED), SAVE_MEMORY_NAME);
    expect(SAVE_MEMORY_DESCRIPTION).toBe(seed.description);
    expect(SAVE_MEMORY_SCHEMA_JSON).toBe(seed.schema);
    const tool = createSaveMemoryTool({ memories: memoryWriter(), ids: { next: () => 'm1' } });
    expect(JSON.stringify(tool.inputSchema)).toBe(seed.schema);
    expect(tool.description).toBe(seed.description);
  });

  it('validates and saves with status ACTIVE', async () => {
    const writer = memoryWriter();
    const tool = createSaveMemoryTool({
      memories: writer,
      ids: { next: (prefix) => `${prefix}_1` },
    });
    expect(tool.validate?.({})).toBe('"memory_text" must be a non-empty string');
    expect(tool.validate?.({ memory_text: 'x'.repeat(5000) })).toMatch(/longer than/);
    expect(tool.validate?.({ memory_text: 'ok', slot: 3 })).toBe('"slot" must be a string');
    expect(tool.validate?.({ memory_text: 'Likes tea', slot: 'drink', value: 'tea' })).toBeNull();
    const output = await tool.execute(
      { memory_text: '  Likes green tea ', slot: 'drink', value: 'tea' },
      {
        conversationId: 'conv_1',
        signal: new AbortController().signal,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      },
    );
    expect(output.content).toBe('Saved to long-term memory (ACTIVE): Likes green tea');
    expect(writer.saved).toEqual([
      {
        id: 'mem_1',
        memoryText: 'Likes green tea',
        slot: 'drink',
        value: 'tea',
        conversationId: 'conv_1',
        status: 'ACTIVE',
        origin: null,
        createdAt: 1,
      },
    ]);
  });

  it('in a tainted turn saves PENDING with its origin, and tells the model it waits for the user', async () => {
    const writer = memoryWriter();
    const tool = createSaveMemoryTool({ memories: writer, ids: { next: (p) => `${p}_1` } });
    const base = {
      conversationId: 'conv_1',
      signal: new AbortController().signal,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      turnId: 'turn_4',
    };
    const untainted = await tool.execute(
      { memory_text: 'Likes tea' },
      { ...base, taint: { tainted: false, reasons: [] } },
    );
    const tainted = await tool.execute(
      { memory_text: 'Likes tea' },
      {
        ...base,
        taint: {
          tainted: true,
          reasons: [
            { tool: 'web_fetch', detail: 'https://evil.example/a' },
            { tool: 'python_execute', detail: null },
          ],
        },
      },
    );
    expect(untainted.content).toBe('Saved to long-term memory (ACTIVE): Likes tea');
    expect(tainted.content).toBe(
      "Held for the user's confirmation (PENDING; this turn read untrusted content, so it is not used until the user confirms it under Memories): Likes tea",
    );
    expect(writer.saved.map((memory) => [memory.status, memory.origin])).toEqual([
      ['ACTIVE', null],
      ['PENDING', { turnId: 'turn_4', reason: 'web_fetch https://evil.example/a; python_execute' }],
    ]);
  });
});
