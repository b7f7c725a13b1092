import { describe, expect, it } from 'vitest';
import type { Token } from '../../../src/renderer/components/code-highlight';
import {
  highlight,
  isHighlighted,
  MAX_HIGHLIGHT_CHARS,
} from '../../../src/renderer/components/code-highlight';

/** The non-plain tokens as `kind:text`, for compact expectations. */
function marked(tokens: Token[]): string[] {
  return tokens
    .filter((token) => token.kind !== 'plain')
    .map((token) => `${token.kind}:${token.text}`);
}

describe('renderer: code highlighting', () => {
  it('JavaScript / TypeScript: keywords, strings, template strings, comments, numbers', () => {
    const code = 'const n = 0x1F + 2.5e3; // sum\nlet s = `a ${n}` + "b\\"c" /* note */;';
    expect(marked(highlight(code, 'ts'))).toEqual([
      'keyword:const',
      'number:0x1F',
      'number:2.5e3',
      'comment:// sum',
      'keyword:let',
      'string:`a ${n}`',
      'string:"b\\"c"',
      'comment:/* note */',
    ]);
  });

  it('Python: triple-quoted strings, # comments, keywords; identifiers with digits stay plain', () => {
    const code = 'def f(x1):\n    """doc\n    string"""\n    return x1 * 10  # ten';
    expect(marked(highlight(code, 'python'))).toEqual([
      'keyword:def',
      'string:"""doc\n    string"""',
      'keyword:return',
      'number:10',
      'comment:# ten',
    ]);
  });

  it('SQL keywords in any case, shell comments only at a word start, JSON literals', () => {
    expect(marked(highlight("SELECT name FROM t where id = 'x' -- c", 'sql'))).toEqual([
      'keyword:SELECT',
      'keyword:FROM',
      'keyword:where',
      "string:'x'",
      'comment:-- c',
    ]);
    expect(marked(highlight('echo $# "a b" # done', 'bash'))).toEqual([
      'keyword:echo',
      'string:"a b"',
      'comment:# done',
    ]);
    expect(marked(highlight('{"a": [1, true, null]}', 'json'))).toEqual([
      'string:"a"',
      'number:1',
      'keyword:true',
      'keyword:null',
    ]);
  });

  it('joining the tokens gives the code back, for every language and odd input', () => {
    const samples = [
      'a / b /* unterminated',
      '"unterminated\nnext line',
      "x = '''open",
      '<script>alert(1)</script>',
      'π = 3.14; 变量 = "中文"',
      '',
    ];
    for (const language of ['js', 'python', 'sh', 'sql', 'json', 'go', 'unknown']) {
      for (const sample of samples) {
        expect(
          highlight(sample, language)
            .map((token) => token.text)
            .join(''),
          `${language}: ${sample}`,
        ).toBe(sample);
      }
    }
  });

  it('unknown languages and very long code stay plain; the work is linear', () => {
    expect(isHighlighted('Python')).toBe(true);
    expect(isHighlighted('brainfuck')).toBe(false);
    expect(highlight('if x', 'brainfuck')).toEqual([{ kind: 'plain', text: 'if x' }]);
    const long = 'x'.repeat(MAX_HIGHLIGHT_CHARS + 1);
    expect(highlight(long, 'js')).toEqual([{ kind: 'plain', text: long }]);
    // How fast is bench/linear-work.ts's business (a loaded machine must still pass here).
    const big = 'let a = "s"; // c\n'.repeat(5000);
    const tokens = highlight(big, 'js');
    expect(tokens.filter((token) => token.kind === 'keyword')).toHaveLength(5000);
  });
});
