import { describe, expect, it } from 'vitest';
import type {
  PdfTextExtractor,
  ToolContext,
  WebResourceFetcher,
  WebResourceRequest,
  WebResourceResult,
} from '../../../src/main/core/ports';
import {
  createWebFetchTool,
  MAX_PAGE_CHARS,
  WEB_FETCH_DESCRIPTION,
  WEB_FETCH_NAME,
  WEB_FETCH_SCHEMA_JSON,
} from '../../../src/main/tools/web-fetch';
import { readSeed, seedToolDefinition, TOOL_PROTOCOL_SEED } from '../../support/seed';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const context = (signal = new AbortController().signal): ToolContext => ({
  conversationId: 'c1',
  signal,
  logger,
});

/** A fetcher answering from a table; records what it was asked, with timing. */
function tableFetcher(
  pages: Record<string, WebResourceResult | (() => Promise<WebResourceResult>)>,
) {
  const requests: WebResourceRequest[] = [];
  const fetcher: WebResourceFetcher = {
    fetch: async (request) => {
      requests.push(request);
      const answer = pages[request.url];
      if (answer === undefined) return { ok: false, error: `no fixture for ${request.url}` };
      return typeof answer === 'function' ? answer() : answer;
    },
  };
  return { fetcher, requests };
}

function html(url: string, body: string): WebResourceResult {
  return {
    ok: true,
    resource: {
      finalUrl: url,
      status: 200,
      mediaType: 'text/html',
      charset: 'utf-8',
      body: Buffer.from(body),
    },
  };
}

const pdf: PdfTextExtractor = {
  extractText: () =>
    Promise.resolve({ ok: true, pages: ['Page one text'], totalPages: 1, title: 'A PDF' }),
};

describe('web_fetch tool', () => {
  it('definition is the seed text, verbatim', () => {
    const seed = seedToolDefinition(readSeed(TOOL_PROTOCOL_SEED), WEB_FETCH_NAME);
    expect(WEB_FETCH_DESCRIPTION).toBe(seed.description);
    expect(WEB_FETCH_SCHEMA_JSON).toBe(seed.schema);
    const tool = createWebFetchTool({ fetcher: tableFetcher({}).fetcher, pdf });
    expect(tool.name).toBe('web_fetch');
    expect(tool.description).toBe(seed.description);
    expect(JSON.stringify(tool.inputSchema)).toBe(seed.schema);
  });

  it('validates url/urls', () => {
    const tool = createWebFetchTool({ fetcher: tableFetcher({}).fetcher, pdf });
    expect(tool.validate?.({})).toMatch(/give "url"/);
    expect(tool.validate?.({ url: 3 })).toBe('"url" must be a string');
    expect(tool.validate?.({ urls: ['a', 2] })).toBe('"urls[1]" must be a string');
    expect(tool.validate?.({ urls: 'a' })).toBe('"urls" must be an array of strings');
    expect(tool.validate?.({ urls: ['1', '2', '3', '4', '5'] })).toMatch(/at most 4 URLs/);
    expect(tool.validate?.({ url: 'https://a.example/', urls: ['https://a.example/'] })).toBeNull();
  });

  it('fetches a batch concurrently and reports each URL in order, errors per URL', async () => {
    // The two slow pages answer only once both are in flight: a tool that fetched one at a time
    // would never see the second start (and the test would hang until its timeout).
    let inFlight = 0;
    let peak = 0;
    let bothStarted: () => void = () => undefined;
    const barrier = new Promise<void>((resolve) => (bothStarted = resolve));
    const slow = (result: WebResourceResult) => async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      if (inFlight === 2) bothStarted();
      await barrier;
      inFlight -= 1;
      return result;
    };
    const { fetcher, requests } = tableFetcher({
      'https://a.example/': slow(
        html(
          'https://a.example/final',
          '<html><head><title>A</title></head><body><p>Alpha text</p></body></html>',
        ),
      ),
      'http://169.254.169.254/': {
        ok: false,
        error: 'blocked: 169.254.169.254 is a link-local address (cloud metadata service)',
      },
      'https://c.example/doc.pdf': {
        ok: true,
        resource: {
          finalUrl: 'https://c.example/doc.pdf',
          status: 200,
          mediaType: 'application/pdf',
          charset: null,
          body: Buffer.from('%PDF'),
        },
      },
      'https://d.example/data': slow({
        ok: true,
        resource: {
          finalUrl: 'https://d.example/data',
          status: 200,
          mediaType: 'application/json',
          charset: null,
          body: Buffer.from('{"k":1}'),
        },
      }),
    });
    const tool = createWebFetchTool({ fetcher, pdf });
    const urls = [
      'https://a.example/',
      'http://169.254.169.254/',
      'https://c.example/doc.pdf',
      'https://d.example/data',
    ];
    const output = await tool.execute({ urls }, context());
    expect(output.isError).toBe(false);
    expect(peak).toBe(2);
    expect(requests.map((request) => request.url)).toEqual(urls);
    expect(requests[0]?.checkMediaType('application/octet-stream')).toMatch(
      /unsupported content type/,
    );
    const sections = output.content.split(/\n\n(?==== )/);
    expect(sections).toHaveLength(4);
    expect(sections[0]).toBe(
      '=== 1 of 4: https://a.example/ ===\nTitle: A\nURL: https://a.example/final\n\nAlpha text',
    );
    expect(sections[1]).toBe(
      '=== 2 of 4: http://169.254.169.254/ ===\nCould not fetch http://169.254.169.254/: blocked: 169.254.169.254 is a link-local address (cloud metadata service)',
    );
    expect(sections[2]).toContain('Title: A PDF\nURL: https://c.example/doc.pdf\n\nPage one text');
    expect(sections[3]).toContain('{\n  "k": 1\n}');
  });

  it('is an error when every URL fails, and truncates long pages with a marker', async () => {
    const { fetcher } = tableFetcher({
      'https://long.example/': html(
        'https://long.example/',
        `<html><body><pre>${'x'.repeat(50_000)}</pre></body></html>`,
      ),
    });
    const tool = createWebFetchTool({ fetcher, pdf });
    const failed = await tool.execute({ url: 'file:///etc/passwd' }, context());
    expect(failed).toEqual({
      content: 'Could not fetch file:///etc/passwd: no fixture for file:///etc/passwd',
      isError: true,
      untrustedSources: ['file:///etc/passwd'],
    });
    const long = await tool.execute({ url: 'https://long.example/' }, context());
    expect(long.isError).toBe(false);
    expect(long.content).toMatch(
      /\[… truncated: showing the first 20,000 of 50,\d{3} characters …\]$/,
    );
    expect(long.content.length).toBeLessThan(MAX_PAGE_CHARS + 200);
  });

  it('in a tainted turn asks before a query-carrying address on a new host; refuses it with nobody to ask', async () => {
    const { fetcher, requests } = tableFetcher({
      'https://read.example/more?page=2': html('https://read.example/more?page=2', '<p>More</p>'),
      'https://new.example/about': html('https://new.example/about', '<p>About</p>'),
      'https://new.example/search?q=secret': html('https://new.example/s', '<p>Found</p>'),
    });
    const tool = createWebFetchTool({ fetcher, pdf });
    const tainted: ToolContext = {
      ...context(),
      taint: {
        tainted: true,
        reasons: [
          { tool: 'web_fetch', detail: 'https://READ.example/page' },
          { tool: 'Files__search', detail: null },
        ],
      },
    };
    const urls = [
      'https://read.example/more?page=2',
      'https://new.example/about',
      'https://new.example/search?q=secret',
    ];
    const refused = await tool.execute({ urls }, tainted);
    // A host the turn already read, and an address without a query, go ahead.
    expect(requests.map((request) => request.url)).toEqual(urls.slice(0, 2));
    expect(refused.content).toContain(
      'Could not fetch https://new.example/search?q=secret: not fetched: this page was found after reading untrusted content and would send data in its address, and nobody could be asked',
    );
    expect(refused.untrustedSources).toEqual(urls.slice(0, 2));

    const asked: unknown[] = [];
    const approved = await tool.execute(
      { url: urls[2] },
      {
        ...tainted,
        approve: (request) => {
          asked.push(request);
          return Promise.resolve('once');
        },
      },
    );
    expect(asked).toEqual([
      {
        kind: 'web-fetch',
        toolName: 'web_fetch',
        service: 'built-in',
        tool: 'web_fetch',
        arguments: { url: 'https://new.example/search?q=secret' },
        conversationId: 'c1',
        readOnlyHint: false,
        destructiveHint: false,
        reason:
          'This page was found after reading untrusted content and would send data in its address.',
        taint: tainted.taint?.reasons,
      },
    ]);
    expect(approved.isError).toBe(false);
    expect(requests.at(-1)?.url).toBe('https://new.example/search?q=secret');

    // Untainted: nothing is asked.
    const plain = await tool.execute({ url: urls[2] }, context());
    expect(plain.isError).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('propagates cancellation instead of reporting it as a page error', async () => {
    const controller = new AbortController();
    const fetcher: WebResourceFetcher = {
      fetch: (request) =>
        new Promise((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
    };
    const tool = createWebFetchTool({ fetcher, pdf });
    const running = tool.execute({ url: 'https://a.example/' }, context(controller.signal));
    controller.abort(new Error('turn canceled'));
    await expect(running).rejects.toThrow('turn canceled');
  });
});
