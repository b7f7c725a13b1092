/**
 * An MCP tool's structuredContent against its declared outputSchema (issue 23, item 6): the real
 * Ajv check the untrusted input schemas use, a note for the model when the result breaks its
 * schema or lacks the structure it promised, and what the trace card is given.
 */
import { describe, expect, it } from 'vitest';
import type { McpCallResult } from '../../../src/main/core/ports';
import { checkStructured } from '../../../src/main/services/mcp/mcp-structured';
import type { McpToolInfo } from '../../../src/shared/mcp';
import { MAX_STRUCTURED_JSON_CHARS } from '../../../src/shared/turn-events';

const WEATHER = {
  type: 'object',
  properties: {
    temperature: { type: 'number' },
    conditions: { type: 'string' },
  },
  required: ['temperature', 'conditions'],
};

const tool = (outputSchema?: Record<string, unknown>): McpToolInfo => ({
  name: 'weather',
  description: '',
  inputSchema: { type: 'object' },
  annotations: null,
  ...(outputSchema ? { outputSchema } : {}),
});

const result = (structured?: Record<string, unknown>, isError = false): McpCallResult => ({
  isError,
  text: 'text',
  images: [],
  truncated: false,
  ...(structured ? { structured } : {}),
});

describe('structuredContent and the output schema', () => {
  it('a matching result: valid, indented for the card, nothing added for the model', () => {
    const checked = checkStructured(
      tool(WEATHER),
      result({ temperature: 36, conditions: 'Drizzle' }),
    );
    expect(checked).toEqual({
      structured: {
        json: JSON.stringify({ temperature: 36, conditions: 'Drizzle' }, null, 2),
        check: 'valid',
      },
      note: null,
    });
  });

  it('a result that breaks the schema: invalid with the reason, for the card and the model', () => {
    const checked = checkStructured(
      tool(WEATHER),
      result({ temperature: 'hot', conditions: 'Sunny' }),
    );
    expect(checked.structured).toMatchObject({
      check: 'invalid',
      problem: '"temperature" must be a number',
    });
    expect(checked.note).toBe(
      '[structuredContent does not match the tool\'s output schema: "temperature" must be a number]',
    );
    // A default in the schema is never written into what the card shows.
    const withDefault = checkStructured(
      tool({ ...WEATHER, properties: { ...WEATHER.properties, unit: { default: 'C' } } }),
      result({ temperature: 1, conditions: 'x' }),
    );
    expect(withDefault.structured?.json).not.toContain('unit');
  });

  it('a successful result without the structure its schema promises gets a note', () => {
    expect(checkStructured(tool(WEATHER), result())).toEqual({
      note: '[structuredContent missing: the tool declares an output schema but returned none]',
    });
    // An error result need not have it, and its structure is not held to the schema.
    expect(checkStructured(tool(WEATHER), result(undefined, true))).toEqual({ note: null });
    expect(checkStructured(tool(WEATHER), result({ error: 'x' }, true)).structured?.check).toBe(
      'unchecked',
    );
  });

  it('no schema: shown as is; a schema that cannot be used: unchecked', () => {
    expect(checkStructured(tool(), result({ a: 1 })).structured?.check).toBe('none');
    const unusable = tool({ $ref: 'https://example.com/elsewhere.json' });
    expect(checkStructured(unusable, result({ a: 1 }))).toMatchObject({
      structured: { check: 'unchecked' },
      note: null,
    });
  });

  it('bounds the JSON the card shows', () => {
    const big = { items: Array.from({ length: 5_000 }, (_, index) => `item ${index}`) };
    const json = checkStructured(tool(), result(big)).structured?.json ?? '';
    expect(json.length).toBeLessThan(MAX_STRUCTURED_JSON_CHARS + 100);
    expect(json).toMatch(/… \([\d,]+ characters cut\)$/);
  });
});
