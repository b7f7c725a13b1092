import { describe, expect, it } from 'vitest';
import { hintWords } from '../../../src/main/cli/mcp-command';

describe('aivory mcp tools: the server hints as words', () => {
  it('names each hint the server set to true, in a fixed order', () => {
    expect(hintWords(null)).toBe('-');
    expect(hintWords({})).toBe('-');
    expect(hintWords({ readOnlyHint: false, title: 'Read' })).toBe('-');
    expect(hintWords({ openWorldHint: true, readOnlyHint: true, idempotentHint: true })).toBe(
      'read-only, idempotent, open-world',
    );
    expect(hintWords({ destructiveHint: true })).toBe('destructive');
  });
});
