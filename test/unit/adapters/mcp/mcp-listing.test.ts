import { describe, expect, it } from 'vitest';
import {
  collectPages,
  normaliseAnnotations,
  normalisePrompt,
  normaliseResource,
  toolNormaliser,
} from '../../../../src/main/adapters/mcp/mcp-listing';
import type { PageFetcher, PagingRule } from '../../../../src/main/adapters/mcp/mcp-listing';
import { McpError } from '../../../../src/main/core/ports';

const rule = (overrides: Partial<PagingRule> = {}): PagingRule => ({
  key: 'tools',
  max: 5,
  overflow: 'refuse',
  server: 'http://127.0.0.1:1',
  ...overrides,
});

function pages(...lists: unknown[][]): { fetch: PageFetcher; cursors: (string | undefined)[] } {
  const cursors: (string | undefined)[] = [];
  return {
    cursors,
    fetch: async (cursor) => {
      cursors.push(cursor);
      const index = cursor === undefined ? 0 : Number(cursor);
      const next = index + 1 < lists.length ? { nextCursor: String(index + 1) } : {};
      return { tools: lists[index] ?? [], ...next };
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error('expected a rejection');
}

describe('collectPages', () => {
  it('follows cursors to the last page', async () => {
    const { fetch, cursors } = pages([1, 2], [3], [4]);
    expect(await collectPages(fetch, rule(), (item) => item)).toEqual([1, 2, 3, 4]);
    expect(cursors).toEqual([undefined, '1', '2']);
  });

  it('accepts exactly the cap but refuses one more, without fetching further', async () => {
    expect(await collectPages(pages([1, 2, 3], [4, 5]).fetch, rule(), (item) => item)).toHaveLength(
      5,
    );
    const { fetch, cursors } = pages([1, 2, 3], [4, 5, 6], [7], [8]);
    const error = await rejection(collectPages(fetch, rule(), (item) => item));
    expect(error.kind).toBe('too-large');
    expect(error.message).toContain('more than 5 tools');
    expect(cursors).toHaveLength(2);
  });

  it('truncates instead when asked to', async () => {
    const { fetch, cursors } = pages([1, 2, 3], [4, 5, 6], [7]);
    expect(await collectPages(fetch, rule({ overflow: 'truncate' }), (item) => item)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(cursors).toHaveLength(2);
  });

  it('refuses a repeated cursor, a missing list and endless empty pages', async () => {
    const loop: PageFetcher = async () => ({ tools: [], nextCursor: 'same' });
    expect((await rejection(collectPages(loop, rule(), (item) => item))).message).toContain(
      'repeated',
    );
    const missing: PageFetcher = async () => ({ nope: [] });
    expect((await rejection(collectPages(missing, rule(), (item) => item))).kind).toBe('protocol');
    let page = 0;
    const endless: PageFetcher = async () => ({ tools: [], nextCursor: String((page += 1)) });
    expect((await rejection(collectPages(endless, rule(), (item) => item))).message).toContain(
      'too many pages',
    );
    expect(page).toBeLessThanOrEqual(16);
  });

  it('skips items the normaliser rejects with null', async () => {
    const { fetch } = pages([1, 2, 3, 4]);
    expect(await collectPages(fetch, rule(), (item) => (item === 2 ? null : item))).toEqual([
      1, 3, 4,
    ]);
  });
});

describe('tool entries', () => {
  it('fills defaults and keeps only known, well-typed annotations', () => {
    const normalise = toolNormaliser('S');
    expect(normalise({ name: 't' }, 0)).toEqual({
      name: 't',
      description: '',
      inputSchema: { type: 'object' },
      annotations: null,
    });
    const full = normalise(
      {
        name: 'u',
        description: 'does u',
        inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
        annotations: { readOnlyHint: true, destructiveHint: 'yes', title: 'U', evil: true },
      },
      1,
    );
    expect(full.description).toBe('does u');
    expect(full.annotations).toEqual({ readOnlyHint: true, title: 'U' });
    expect(normaliseAnnotations({ unknown: true })).toBeNull();
    expect(normaliseAnnotations('nope')).toBeNull();
  });

  it.each([
    [null, 'without a valid name (entry 1)'],
    [{ description: 'no name' }, 'without a valid name'],
    [{ name: '' }, 'without a valid name'],
    [{ name: 'a\u0000b' }, 'without a valid name'],
    [{ name: 'x'.repeat(257) }, 'without a valid name'],
    [{ name: 's', inputSchema: 'string' }, 'invalid inputSchema'],
    [{ name: 's', inputSchema: [1] }, 'invalid inputSchema'],
  ])('refuses %j', (entry, message) => {
    const normalise = toolNormaliser('S');
    expect(() => normalise(entry, 0)).toThrow(message);
  });

  it('refuses a tool listed twice', () => {
    const normalise = toolNormaliser('S');
    normalise({ name: 'dup' }, 0);
    expect(() => normalise({ name: 'dup' }, 1)).toThrow('lists the tool "dup" twice');
  });
});

describe('prompt and resource entries', () => {
  it('normalises prompts and skips nameless ones', () => {
    expect(
      normalisePrompt({ name: 'p', arguments: [{ name: 'a', required: true }, { nope: 1 }] }),
    ).toEqual({
      name: 'p',
      description: '',
      arguments: [{ name: 'a', description: '', required: true }],
    });
    expect(normalisePrompt({ description: 'x' })).toBeNull();
  });

  it('normalises resources and skips ones without a uri', () => {
    expect(normaliseResource({ uri: 'u://1' })).toEqual({
      uri: 'u://1',
      name: 'u://1',
      description: '',
      mimeType: null,
    });
    expect(normaliseResource({ name: 'x' })).toBeNull();
  });
});
