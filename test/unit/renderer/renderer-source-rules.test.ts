import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = join(import.meta.dirname, '..', '..', '..', 'src', 'renderer');

function files(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Language names are shown in their own language on purpose. */
const ALLOWED_LITERALS = new Set(['简体中文', 'English']);

/** Text between a JSX tag end (not an arrow `=>` or a spaced comparison) and the next tag. */
function jsxLiterals(source: string): string[] {
  return (
    [...source.matchAll(/(?<![=\s])>\s*([^<>{}\n]*[\p{L}][^<>{}\n]*?)\s*</gu)]
      .map((match) => match[1]?.trim() ?? '')
      .filter((text) => text !== '' && !ALLOWED_LITERALS.has(text))
      // A generic function's parameter list (`List<Row extends X>(props: Props<Row>)`), not text.
      .filter((text) => !/^\(\w+\??:/.test(text))
  );
}

describe('renderer source rules', () => {
  it('no component writes visible text outside the i18n layer', () => {
    expect(jsxLiterals('<p>\n  Hello there\n</p><b>{t("x")}</b>{a => b}')).toEqual(['Hello there']);
    expect(jsxLiterals('function List<Row extends Item>(props: Props<Row>) {')).toEqual([]);
    expect(jsxLiterals('<p>(optional) more</p>')).toEqual(['(optional) more']);
    for (const file of files(RENDERER).filter((path) => path.endsWith('.tsx'))) {
      expect(jsxLiterals(readFileSync(file, 'utf8')), file).toEqual([]);
    }
  });

  it('no renderer file uses dangerouslySetInnerHTML or touches window.aivory outside the bridge', () => {
    for (const file of files(RENDERER)) {
      const source = readFileSync(file, 'utf8');
      expect(/dangerouslySetInnerHTML\s*[=:]/.test(source), file).toBe(false);
      if (!file.includes(`${join('renderer', 'bridge')}`))
        expect(source.includes('window.aivory'), file).toBe(false);
    }
  });

  it('no component sets a style attribute (the CSP refuses inline styles: use a class)', () => {
    const styleProp = /\bstyle=\{/;
    expect(styleProp.test('<img style={{ width: 1 }} />')).toBe(true);
    for (const file of files(RENDERER).filter((path) => path.endsWith('.tsx'))) {
      const source = readFileSync(file, 'utf8');
      expect(styleProp.test(source), file).toBe(false);
      expect(/setAttribute\(\s*['"]style['"]/.test(source), file).toBe(false);
    }
  });
});
