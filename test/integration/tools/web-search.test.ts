import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/main/core/ports';
import { createSearxngBackend } from '../../../src/main/tools/search-backends/searxng';
import type { SearchBackend, SearchHit } from '../../../src/main/tools/search-backends/types';
import { SearchBackendError } from '../../../src/main/tools/search-backends/types';
import {
  createWebSearchTool,
  WEB_SEARCH_DESCRIPTION,
  WEB_SEARCH_NAME,
  WEB_SEARCH_SCHEMA_JSON,
} from '../../../src/main/tools/web-search';
import type { FakeSearchServer } from '../../support/fake-search-servers';
import { startFakeSearxng } from '../../support/fake-search-servers';
import { readSeed, readSharedSeed, seedBetween, TOOL_PROTOCOL_SEED } from '../../support/seed';

/**
 * The seed lists aivory_web_search first under 注入提示词的内置工具定义, without a name line:
 * the block before `web_fetch` is the section's intro sentence, the description, the schema.
 */
function seedWebSearchDefinition(text: string): { description: string; schema: string } {
  const block = seedBetween(text, '注入提示词的内置工具定义', '\nweb_fetch\n');
  const lines = block.split('\n').filter((line) => line.trim() !== '');
  expect(lines).toHaveLength(3);
  const [, description = '', schemaLine = ''] = lines;
  expect(schemaLine.startsWith('Input schema: ')).toBe(true);
  return { description, schema: schemaLine.slice('Input schema: '.length) };
}

const servers: FakeSearchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function searxngTool(options: { maxOutputChars?: number } = {}) {
  const server = await startFakeSearxng();
  servers.push(server);
  const backend = createSearxngBackend({
    baseUrl: server.baseUrl,
    engines: [],
    transport: { fetch, deadlineMs: 2_000 },
  });
  return { server, tool: createWebSearchTool({ backend, ...options }) };
}

function context(signal = new AbortController().signal): ToolContext {
  const silent = (): void => undefined;
  return {
    conversationId: null,
    signal,
    logger: { debug: silent, info: silent, warn: silent, error: silent },
  };
}

describe('aivory_web_search definition', () => {
  it('is the seed text, verbatim', () => {
    const seed = seedWebSearchDefinition(readSeed(TOOL_PROTOCOL_SEED));
    expect(WEB_SEARCH_DESCRIPTION).toBe(seed.description);
    expect(WEB_SEARCH_SCHEMA_JSON).toBe(seed.schema);
    const shared = readSharedSeed(TOOL_PROTOCOL_SEED);
    if (shared !== null) expect(seedWebSearchDefinition(shared)).toEqual(seed);
    const tool = createWebSearchTool({
      backend: { label: 'none', search: () => Promise.resolve([]) },
    });
    expect(tool.name).toBe(WEB_SEARCH_NAME);
    expect(tool.name).toBe('aivory_web_search');
    expect(tool.description).toBe(seed.description);
    expect(JSON.stringify(tool.inputSchema)).toBe(seed.schema);
  });
});

describe('aivory_web_search arguments', () => {
  const tool = createWebSearchTool({
    backend: { label: 'none', search: () => Promise.resolve([]) },
  });

  it.each([
    [null, 'expected an object'],
    [{}, 'provide "query" (one search) or "queries" (up to 5 searches)'],
    [
      { query: 'a', queries: ['b'] },
      'use either "query" (one search) or "queries" (several), not both',
    ],
    [{ query: '   ' }, '"query" must be a non-empty string'],
    [{ query: 3 }, '"query" must be a non-empty string'],
    [{ queries: 'a' }, '"queries" must be an array of strings'],
    [{ queries: [] }, '"queries" must contain at least one query'],
    [{ queries: ['a', 'b', 'c', 'd', 'e', 'f'] }, '"queries" has 6 items; at most 5 are allowed'],
    [{ queries: ['a', ''] }, '"queries[1]" must be a non-empty string'],
    [{ query: 'x'.repeat(501) }, '"query" is longer than 500 characters; search for key terms'],
    [{ query: 'a', top_k: 0 }, '"top_k" must be an integer from 1 to 10'],
    [{ query: 'a', top_k: 11 }, '"top_k" must be an integer from 1 to 10'],
    [{ query: 'a', top_k: 2.5 }, '"top_k" must be an integer from 1 to 10'],
    [{ query: 'a', top_k: '5' }, '"top_k" must be an integer from 1 to 10'],
  ])('refuses %j', async (args, message) => {
    expect(tool.validate?.(args)).toBe(message);
    // execute checks again, so a caller that skips validate still gets a clear error.
    expect(await tool.execute(args, context())).toEqual({
      content: `Invalid arguments: ${message}.`,
      isError: true,
    });
  });

  it.each([
    { query: 'a' },
    { query: 'a', queries: null },
    { queries: ['a', 'b', 'c', 'd', 'e'], top_k: 10 },
    { query: 'a', top_k: 1 },
  ])('accepts %j', (args) => {
    expect(tool.validate?.(args)).toBeNull();
  });
});

describe('aivory_web_search against a SearXNG instance', () => {
  it('returns numbered, cleaned hits under a heading; top_k defaults to 5', async () => {
    const { tool } = await searxngTool();
    const output = await tool.execute({ query: 'tea' }, context());
    expect(output.isError).toBe(false);
    const lines = output.content.split('\n');
    expect(lines[0]).toBe('## tea');
    expect(lines[1]).toBe('1. tea & result 1 — https://example.org/tea/1 (2024-05-01T00:00:00)');
    expect(lines[2]).toBe('   Snippet 1 about tea — with "quotes".');
    expect(lines[3]).toBe('2. tea & result 2 — https://example.org/tea/2');
    expect(output.content).toContain('5. tea & result 5');
    expect(output.content).not.toContain('6. ');
    expect(output.content).not.toMatch(/<|&amp;|&nbsp;/);
  });

  it('runs a batch concurrently, groups results per query in order, and runs duplicates once', async () => {
    const { server, tool } = await searxngTool();
    server.delayMs = 150;
    const output = await tool.execute(
      { queries: ['alpha', 'beta', ' alpha ', 'gamma  one', 'gamma one'], top_k: 2 },
      context(),
    );
    expect(server.requests.map((request) => request.query.get('q')).sort()).toEqual([
      'alpha',
      'beta',
      'gamma one',
    ]);
    expect(server.maxConcurrent).toBe(3);
    const headings = output.content.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(['## alpha', '## beta', '## gamma one']);
    const beta = output.content.split('\n\n')[1];
    expect(beta).toBe(
      [
        '## beta',
        '1. beta & result 1 — https://example.org/beta/1 (2024-05-01T00:00:00)',
        '   Snippet 1 about beta — with "quotes".',
        '2. beta & result 2 — https://example.org/beta/2',
        '   Snippet 2 about beta — with "quotes".',
      ].join('\n'),
    );
  });

  it('reports a failing query in its own section without failing the others', async () => {
    const { server, tool } = await searxngTool();
    server.misbehave = (request) =>
      request.query.get('q') === 'broken'
        ? { type: 'reply', status: 500, body: '<title>Internal Server Error</title>' }
        : undefined;
    const output = await tool.execute(
      { queries: ['fine', 'broken', 'also fine'], top_k: 1 },
      context(),
    );
    expect(output.isError).toBe(false);
    const sections = output.content.split('\n\n');
    expect(sections[0]).toContain('1. fine & result 1');
    expect(sections[1]).toBe(
      `## broken\nSearch failed: SearXNG at ${server.baseUrl} answered HTTP 500: Internal Server Error.`,
    );
    expect(sections[2]).toContain('1. also fine & result 1');
  });

  it('is an error when every query failed; a single failure is the message itself', async () => {
    const server = await startFakeSearxng({ jsonEnabled: false });
    servers.push(server);
    const backend = createSearxngBackend({
      baseUrl: server.baseUrl,
      engines: [],
      transport: { fetch },
    });
    const tool = createWebSearchTool({ backend });
    const single = await tool.execute({ query: 'x' }, context());
    expect(single.isError).toBe(true);
    expect(single.content).toMatch(
      /^SearXNG at http:\/\/127\.0\.0\.1:\d+ refused the JSON format \(HTTP 403\)/,
    );
    const batch = await tool.execute({ queries: ['x', 'y'] }, context());
    expect(batch.isError).toBe(true);
    expect(batch.content.match(/Search failed: .*search\.formats/g)).toHaveLength(2);
  });

  it('says when there are no results', async () => {
    const { server, tool } = await searxngTool();
    server.misbehave = () => ({ type: 'reply', status: 200, body: '{"results": []}' });
    expect(await tool.execute({ query: 'zzz' }, context())).toEqual({
      content: '## zzz\nNo results.',
      isError: false,
    });
  });

  it('cuts the output at the cap, keeping the best hits of every query, with a marker', async () => {
    const { tool } = await searxngTool({ maxOutputChars: 1_000 });
    const output = await tool.execute({ queries: ['one', 'two', 'three'], top_k: 10 }, context());
    expect(output.content.length).toBeLessThanOrEqual(1_000);
    expect(output.content.length).toBeGreaterThan(800);
    for (const query of ['one', 'two', 'three']) {
      expect(output.content).toContain(`## ${query}\n1. ${query} & result 1`);
    }
    expect(output.content).not.toContain('10. one');
    expect(output.content).toMatch(
      /\n\n\[… output limit of 1000 characters reached: \d+ more results not shown …\]$/,
    );
  });

  it('trims long snippets and titles', async () => {
    const long: SearchHit = {
      title: 'T'.repeat(400),
      url: 'https://long.example/',
      snippet: 'word '.repeat(200),
    };
    const backend: SearchBackend = { label: 'fixed', search: () => Promise.resolve([long]) };
    const output = await createWebSearchTool({ backend }).execute({ query: 'q' }, context());
    const [, titleLine = '', snippetLine = ''] = output.content.split('\n');
    expect(titleLine).toBe(`1. ${'T'.repeat(149)}… — https://long.example/`);
    expect(snippetLine.length).toBeLessThanOrEqual(3 + 300);
    expect(snippetLine.endsWith('…')).toBe(true);
  });

  it('lets a canceled turn end as a cancellation', async () => {
    const { server, tool } = await searxngTool();
    server.misbehave = () => ({ type: 'stall', ms: 5_000 });
    const controller = new AbortController();
    const pending = tool.execute({ queries: ['a', 'b'] }, context(controller.signal));
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('throws unexpected backend errors instead of dressing them up as search failures', async () => {
    const backend: SearchBackend = {
      label: 'buggy',
      search: (query) =>
        query === 'bug'
          ? Promise.reject(new RangeError('bug'))
          : Promise.reject(new SearchBackendError('down')),
    };
    const tool = createWebSearchTool({ backend });
    await expect(tool.execute({ queries: ['ok', 'bug'] }, context())).rejects.toThrow(RangeError);
    expect(await tool.execute({ query: 'ok' }, context())).toEqual({
      content: 'down',
      isError: true,
    });
  });
});
