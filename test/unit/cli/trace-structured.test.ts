/**
 * An MCP tool's structured result in the CLI's text trace and in the Markdown export, as the
 * trace card shows it: the check against the tool's output schema, then the JSON, bounded.
 */
import { describe, expect, it } from 'vitest';
import { structuredLines, TRACE_STRUCTURED_CHARS } from '../../../src/main/cli/trace-format';
import { exportConversation } from '../../../src/main/services/conversation-export';
import type { Conversation, Message } from '../../../src/shared/dto';
import type { StructuredToolOutput } from '../../../src/shared/turn-events';

const INVALID: StructuredToolOutput = {
  json: '{\n  "temperature": "unknown",\n  "conditions": "Under <b>water</b>"\n}',
  check: 'invalid',
  problem: '/temperature must be number',
};

describe('structured content in the text trace', () => {
  it('prints the check, then the JSON indented under the result line', () => {
    expect(structuredLines(INVALID)).toEqual([
      '    structured content: does not match the tool’s output schema: /temperature must be number',
      '      {',
      '        "temperature": "unknown",',
      '        "conditions": "Under <b>water</b>"',
      '      }',
    ]);
    expect(structuredLines({ json: '{}', check: 'valid' })[0]).toBe(
      '    structured content: matches the tool’s output schema',
    );
    expect(structuredLines({ json: '{}', check: 'none' })[0]).toBe(
      '    structured content: the tool declares no output schema',
    );
  });

  it('cuts a long structure with a marker', () => {
    const json = `{\n  "text": "${'x'.repeat(5000)}"\n}`;
    const lines = structuredLines({ json, check: 'valid' });
    const printed = lines.slice(1).join('\n');
    expect(printed.length).toBeLessThan(TRACE_STRUCTURED_CHARS + 100);
    expect(lines.at(-1)).toBe(`      [… ${json.length - TRACE_STRUCTURED_CHARS} more characters]`);
  });
});

describe('structured content in the Markdown export', () => {
  const conversation = { id: 'c1', title: 'Weather', createdAt: 0 } as unknown as Conversation;
  const messages = [
    {
      id: 'm1',
      role: 'assistant',
      status: 'complete',
      parts: [
        { kind: 'tool-call', toolCallId: 't1', name: 'lab__forecast', arguments: { city: 'A' } },
        {
          kind: 'tool-result',
          toolCallId: 't1',
          name: 'lab__forecast',
          status: 'ok',
          output: '{"temperature":"unknown"}',
          durationMs: 12,
          structured: { ...INVALID, problem: 'must be <number>' },
        },
        {
          kind: 'tool-result',
          toolCallId: 't2',
          name: 'lab__plain',
          status: 'ok',
          output: 'plain text',
          durationMs: 3,
        },
      ],
    },
  ] as unknown as Message[];

  it('adds the check and the JSON after the result, and nothing for a result without one', () => {
    const markdown = exportConversation(conversation, messages, 'md');
    expect(markdown).toContain(
      [
        '**Structured content** · does not match the tool’s output schema: must be &lt;number>',
        '',
        '```json',
        INVALID.json,
        '```',
      ].join('\n'),
    );
    expect(markdown.match(/\*\*Structured content\*\*/g)).toHaveLength(1);
    // JSON keeps the whole part, structured content included.
    const json = JSON.parse(exportConversation(conversation, messages, 'json')) as {
      messages: { parts: { structured?: StructuredToolOutput }[] }[];
    };
    expect(json.messages[0]?.parts[1]?.structured?.check).toBe('invalid');
  });
});
