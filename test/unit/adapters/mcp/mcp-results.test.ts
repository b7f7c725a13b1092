import { describe, expect, it } from 'vitest';
import {
  CappedText,
  convertToolResult,
  promptText,
  resourceContentsText,
  resourceTexts,
  serverErrorResult,
} from '../../../../src/main/adapters/mcp/mcp-results';

const limits = { maxImages: 2, maxImageBytes: 100 };
const png = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');

describe('CappedText', () => {
  it('keeps text under the cap as is', () => {
    const text = new CappedText(20);
    text.add('one');
    text.add('two');
    expect(text.finish()).toEqual({ text: 'one\ntwo', truncated: false });
  });

  it('cuts at the cap and says how much was cut', () => {
    const text = new CappedText(10);
    text.add('a'.repeat(8));
    text.add('b'.repeat(8));
    const { text: out, truncated } = text.finish();
    expect(truncated).toBe(true);
    expect(out.startsWith(`${'a'.repeat(8)}\nb`)).toBe(true);
    expect(out).toContain('[… output truncated: 7 of 17 characters cut (limit 10)]');
  });

  it('never splits a surrogate pair', () => {
    const text = new CappedText(3);
    text.add('ab😀cd');
    const out = text.finish().text;
    expect(out.startsWith('ab\n')).toBe(true);
    expect(out).toContain('4 of 6 characters cut');
  });
});

describe('convertToolResult', () => {
  it('joins text, decodes images under the caps and notes the rest', () => {
    const result = convertToolResult(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: png(10), mimeType: 'image/png' },
          { type: 'image', data: png(200), mimeType: 'image/jpeg' },
          { type: 'image', data: png(10), mimeType: 'image/gif' },
          { type: 'image', data: png(10), mimeType: 'image/webp' },
          { type: 'image', data: png(10), mimeType: 'text/html' },
        ],
      },
      1000,
      limits,
    );
    expect(result.images.map((image) => image.mime)).toEqual(['image/png', 'image/gif']);
    expect(result.images[0]?.data).toEqual(new Uint8Array(10).fill(1));
    expect(result.text.split('\n')).toEqual([
      'hello',
      '[image: image/png, 10 B]',
      '[image: image/jpeg, 200 B — not shown: over 100 B]',
      '[image: image/gif, 10 B]',
      '[image: image/webp, 10 B — not shown: at most 2 images]',
      '[image: text/html, 10 B — unsupported type]',
    ]);
    expect(result.isError).toBe(false);
    expect(result.truncated).toBe(false);
  });

  it('describes audio, embedded resources, links and unknown blocks', () => {
    const result = convertToolResult(
      {
        isError: true,
        content: [
          { type: 'audio', data: png(2048), mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
          {
            type: 'resource',
            resource: { uri: 'file:///b.bin', blob: png(3), mimeType: 'application/zip' },
          },
          { type: 'resource_link', uri: 'file:///c', name: 'C file' },
          { type: 'hologram' },
          'not an object',
        ],
      },
      1000,
      limits,
    );
    expect(result.isError).toBe(true);
    expect(result.text.split('\n')).toEqual([
      '[audio: audio/wav, 2 KiB — not played]',
      '[resource: file:///a.txt]',
      'inside',
      '[binary resource file:///b.bin: application/zip, 3 B]',
      '[resource link] file:///c (C file)',
      '[unsupported content: hologram]',
      '[invalid content]',
    ]);
  });

  it('hands on structuredContent when it is an object, for the schema check and the card', () => {
    const raw = { content: [{ type: 'text', text: 't' }], structuredContent: { a: [1] } };
    expect(convertToolResult(raw, 100, limits).structured).toEqual({ a: [1] });
    for (const structuredContent of [null, [1], 'text', 3]) {
      expect(convertToolResult({ content: [], structuredContent }, 100, limits)).not.toHaveProperty(
        'structured',
      );
    }
  });

  it('decodes embedded binary resources (noted in the text as before); text or bad base64 not', () => {
    const blob = (data: string, extra: Record<string, unknown> = {}) => ({
      type: 'resource',
      resource: { uri: 'x://a.bin', mimeType: 'application/octet-stream', blob: data, ...extra },
    });
    const converted = convertToolResult(
      {
        content: [
          blob(Buffer.from('abc').toString('base64')),
          blob('not base64!'),
          blob('YQ==', { text: 'a text part' }),
        ],
      },
      1000,
      limits,
    );
    expect(converted.blobs).toEqual([
      {
        uri: 'x://a.bin',
        mimeType: 'application/octet-stream',
        data: new Uint8Array([97, 98, 99]),
      },
    ]);
    expect(converted.text).toContain('[binary resource x://a.bin: application/octet-stream, 3 B]');
    const many = convertToolResult(
      { content: Array.from({ length: 12 }, () => blob('YQ==')) },
      10_000,
      limits,
    );
    expect(many.blobs).toHaveLength(8);
  });

  it('uses structuredContent only when there is no text', () => {
    expect(convertToolResult({ content: [], structuredContent: { a: 1 } }, 100, limits).text).toBe(
      '{"a":1}',
    );
    expect(
      convertToolResult(
        { content: [{ type: 'text', text: 't' }], structuredContent: { a: 1 } },
        100,
        limits,
      ).text,
    ).toBe('t');
  });

  it('tolerates a missing content list and marks truncation', () => {
    expect(convertToolResult({}, 100, limits)).toEqual({
      isError: false,
      text: '',
      images: [],
      truncated: false,
    });
    const long = convertToolResult(
      { content: [{ type: 'text', text: 'z'.repeat(50) }] },
      10,
      limits,
    );
    expect(long.truncated).toBe(true);
    expect(long.text).toContain('40 of 50 characters cut');
  });

  it('turns a server error into an error result', () => {
    expect(serverErrorResult('bad args', 100)).toEqual({
      isError: true,
      text: 'The MCP server returned an error: bad args',
      images: [],
      truncated: false,
    });
  });
});

describe('prompt and resource text', () => {
  it('flattens prompt messages, labelling roles only in a conversation', () => {
    const userOnly = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }] };
    expect(promptText(userOnly, 100, limits)).toBe('Hi');
    const dialogue = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Q' } },
        { role: 'assistant', content: { type: 'image', data: png(4), mimeType: 'image/png' } },
      ],
    };
    expect(promptText(dialogue, 100, limits)).toBe('User: Q\n\nAssistant: [image: image/png, 4 B]');
  });

  it('joins resource contents and describes blobs, capped', () => {
    const raw = {
      contents: [
        { uri: 'a', text: 'alpha' },
        { uri: 'b', blob: png(5), mimeType: 'image/png' },
      ],
    };
    expect(resourceContentsText(raw, 100)).toBe('alpha\n\n[binary resource b: image/png, 5 B]');
    expect(resourceContentsText({ contents: [{ uri: 'a', text: 'x'.repeat(30) }] }, 10)).toContain(
      '20 of 30 characters cut',
    );
  });

  it('keeps text parts whole, with their URI and type, for attaching them', () => {
    const long = 'y'.repeat(200_000);
    const raw = {
      contents: [
        { uri: 'a\nb', text: long, mimeType: 'text/markdown' },
        { uri: 'c', blob: png(5), mimeType: 'image/png' },
        { uri: 'd', text: 'plain' },
        'not an object',
      ],
    };
    expect(resourceTexts(raw)).toEqual([
      { uri: 'a b', mimeType: 'text/markdown', text: long },
      { uri: 'd', mimeType: null, text: 'plain' },
    ]);
    expect(resourceTexts({})).toEqual([]);
  });
});
