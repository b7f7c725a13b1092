import { describe, expect, it } from 'vitest';
import {
  NATIVE_RECOVERY_MARKERS,
  PROMPT_MARKERS,
  ToolCallStreamParser,
} from '../../../src/main/core/orchestrator/tool-call-stream-parser';
import {
  parseNativeArguments,
  parseTextCall,
} from '../../../src/main/core/orchestrator/text-call-json';

function feed(chunks: string[], markers = PROMPT_MARKERS) {
  const parser = new ToolCallStreamParser(markers);
  const visible: string[] = [];
  for (const chunk of chunks) visible.push(parser.push(chunk));
  const end = parser.finish();
  visible.push(end.text);
  return { visible, text: visible.join(''), call: end.call };
}

/** Every way of cutting `text` in two, plus one char at a time. */
function splits(text: string): string[][] {
  const result: string[][] = [[...text]];
  for (let index = 0; index <= text.length; index++)
    result.push([text.slice(0, index), text.slice(index)]);
  return result;
}

describe('ToolCallStreamParser', () => {
  const stream =
    'Let me check.<tool_call>{"name": "web_fetch", "arguments": {"url": "https://a.example"}}</tool_call>ignored';

  it('separates visible text from the call at every chunk boundary, never leaking markup', () => {
    for (const chunks of splits(stream)) {
      const result = feed(chunks);
      expect(result.text).toBe('Let me check.');
      for (const piece of result.visible) expect(piece).not.toMatch(/<|tool_call/);
      expect(result.call?.body).toBe(
        '{"name": "web_fetch", "arguments": {"url": "https://a.example"}}',
      );
      expect(result.call?.closed).toBe(true);
    }
  });

  it('treats the end of the stream as the closing tag (stop sequence ate it)', () => {
    const result = feed(['Hi <tool_call>{"name":"x","arguments":{}}']);
    expect(result.text).toBe('Hi ');
    expect(result.call).toEqual({
      marker: PROMPT_MARKERS[0],
      body: '{"name":"x","arguments":{}}',
      closed: false,
    });
  });

  it('releases a held partial marker that turns out to be text', () => {
    const result = feed(['a <tool', '_cal', 'x> b <', 'tool_c']);
    expect(result.text).toBe('a <tool_calx> b <tool_c');
    expect(result.call).toBeNull();
    expect(result.visible[0]).toBe('a ');
  });

  it('plain text passes straight through', () => {
    const result = feed(['Hello ', 'world', '!']);
    expect(result.visible).toEqual(['Hello ', 'world', '!', '']);
  });

  it('native recovery also catches [TOOL_CALLS]', () => {
    for (const chunks of splits('[TOOL_CALLS]get_weather[ARGS]{"city":"Oslo"}')) {
      const result = feed(chunks, NATIVE_RECOVERY_MARKERS);
      expect(result.text).toBe('');
      expect(result.call?.marker.open).toBe('[TOOL_CALLS]');
      expect(parseTextCall(result.call!)).toEqual({
        ok: true,
        name: 'get_weather',
        arguments: { city: 'Oslo' },
      });
    }
  });

  it('does not rescan a long call body (linear in its length)', () => {
    const parser = new ToolCallStreamParser(PROMPT_MARKERS);
    parser.push('<tool_call>{"name":"x","arguments":{"code":"');
    const piece = 'a'.repeat(64);
    for (let index = 0; index < 20_000; index++) parser.push(piece);
    parser.push('"}}</tool_call>');
    const end = parser.finish();
    expect(end.call?.body.length).toBe(
      64 * 20_000 + '{"name":"x","arguments":{"code":"'.length + 3,
    );
    expect(end.call?.closed).toBe(true);
  });
});

describe('parseTextCall', () => {
  const marker = PROMPT_MARKERS[0]!;
  const parse = (body: string) => parseTextCall({ marker, body, closed: true });

  it('accepts the protocol form, string arguments, "parameters" and code fences', () => {
    expect(parse('{"name": "a", "arguments": {"x": 1}}')).toEqual({
      ok: true,
      name: 'a',
      arguments: { x: 1 },
    });
    expect(parse('{"name": "a", "arguments": "{\\"x\\": 1}"}')).toEqual({
      ok: true,
      name: 'a',
      arguments: { x: 1 },
    });
    expect(parse('{"name": "a", "parameters": {"x": 1}}')).toEqual({
      ok: true,
      name: 'a',
      arguments: { x: 1 },
    });
    expect(parse('```json\n{"name": "a", "arguments": {}}\n```')).toEqual({
      ok: true,
      name: 'a',
      arguments: {},
    });
    expect(parse('{"name": "a"}')).toEqual({ ok: true, name: 'a', arguments: {} });
  });

  it('reports why malformed calls fail', () => {
    const broken = parse('{"name": "a", "arguments": {"x": 1}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/JSON|position|end/i);
    expect(parse('')).toEqual({ ok: false, error: 'the tool call is empty' });
    expect(parse('{"arguments": {}}')).toEqual({
      ok: false,
      error: 'the "name" field must be a non-empty string',
    });
    expect(parse('{"name": "a", "arguments": [1]}')).toEqual({
      ok: false,
      error: 'the "arguments" field must be a JSON object',
    });
    expect(parse('"just a string"').ok).toBe(false);
  });

  it('native argument JSON', () => {
    expect(parseNativeArguments('')).toEqual({ ok: true, arguments: {} });
    expect(parseNativeArguments('{"a":1}')).toEqual({ ok: true, arguments: { a: 1 } });
    expect(parseNativeArguments('{"a":').ok).toBe(false);
    expect(parseNativeArguments('[1]').ok).toBe(false);
  });
});
