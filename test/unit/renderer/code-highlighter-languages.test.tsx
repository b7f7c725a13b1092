import { describe, expect, it } from 'vitest';
import { grammarLoader } from '../../../src/renderer/components/code-highlighter';
import type { LanguageName } from '../../../src/renderer/components/code-highlighter-languages';
import {
  grammarName,
  grammarsFor,
  LANGUAGES,
} from '../../../src/renderer/components/code-highlighter-languages';

/** The `subLanguage`s a grammar embeds, found by walking its modes. */
function embedded(mode: unknown, seen = new Set<unknown>()): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const record = node as Record<string, unknown>;
    const sub = record.subLanguage;
    if (typeof sub === 'string') found.add(sub);
    if (Array.isArray(sub)) for (const name of sub) found.add(String(name));
    for (const key of ['contains', 'variants', 'starts', 'end']) {
      const value = record[key];
      if (Array.isArray(value)) value.forEach(walk);
      else walk(value);
    }
  };
  walk(mode);
  return found;
}

describe('code highlighting: one lazily loaded grammar per language', () => {
  it("the table's names, aliases and embedded grammars are highlight.js's own", async () => {
    const { default: hljs } = await import('highlight.js/lib/core');
    const table: Record<string, { aliases: readonly string[]; uses?: readonly string[] }> =
      LANGUAGES;
    for (const [name, entry] of Object.entries(table)) {
      const grammar = (await grammarLoader(name as LanguageName)()).default(hljs);
      expect(entry.aliases, name).toEqual(grammar.aliases ?? []);
      const uses = [...embedded(grammar)].filter(
        (used) => used !== name && table[used] !== undefined,
      );
      expect([...(entry.uses ?? [])].sort(), name).toEqual(uses.sort());
    }
  });

  it('resolves aliases and case; unknown languages stay plain', () => {
    expect(grammarName('py')).toBe('python');
    expect(grammarName('TS')).toBe('typescript');
    expect(grammarName('sh')).toBe('bash');
    expect(grammarName('js')).toBe('javascript');
    expect(grammarName('html')).toBe('xml');
    expect(grammarName('c++')).toBe('cpp');
    expect(grammarName('')).toBeNull();
    expect(grammarName('brainfuck')).toBeNull();
    expect(grammarName('text')).toBeNull();
  });

  it('a grammar comes with the grammars it embeds, and only those', () => {
    expect(grammarsFor('python')).toEqual(['python']);
    expect(grammarsFor('javascript').sort()).toEqual(['css', 'graphql', 'javascript', 'xml']);
    expect(grammarsFor('xml')).toContain('javascript');
  });
});
