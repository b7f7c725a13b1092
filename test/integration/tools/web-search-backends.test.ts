import { afterEach, describe, expect, it } from 'vitest';
import { createBraveBackend } from '../../../src/main/tools/search-backends/brave';
import { cleanText } from '../../../src/main/tools/search-backends/clean-text';
import {
  createSearxngBackend,
  normaliseEngines,
  searxngSearchUrl,
} from '../../../src/main/tools/search-backends/searxng';
import { createSerperBackend } from '../../../src/main/tools/search-backends/serper';
import type { SearchTransport } from '../../../src/main/core/ports';
import { SearchBackendError } from '../../../src/main/tools/search-backends/types';
import type { FakeSearchServer } from '../../support/fake-search-servers';
import {
  refusedBaseUrl,
  startFakeBrave,
  startFakeSearxng,
  startFakeSerper,
} from '../../support/fake-search-servers';

const servers: FakeSearchServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function track(started: Promise<FakeSearchServer>): Promise<FakeSearchServer> {
  const server = await started;
  servers.push(server);
  return server;
}

/** The global fetch reaches loopback; the app passes an origin-restricted one instead. */
const transport: SearchTransport = { fetch, deadlineMs: 2_000, maxResponseBytes: 256 * 1024 };
const options = (topK = 5) => ({ topK, signal: new AbortController().signal });

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SearchBackendError);
  return error instanceof Error ? error.message : '';
}

describe('SearXNG backend', () => {
  it('asks /search with format=json and the normalised engines, and parses the real JSON shape', async () => {
    const server = await track(startFakeSearxng());
    const backend = createSearxngBackend({
      baseUrl: server.baseUrl,
      engines: normaliseEngines('Bing, wikipedia'),
      transport,
    });
    const hits = await backend.search('tea history', options(3));
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe('/search');
    expect(request?.query.get('q')).toBe('tea history');
    expect(request?.query.get('format')).toBe('json');
    expect(request?.query.get('engines')).toBe('bing,wikipedia');
    expect(hits).toEqual([
      {
        title: 'tea history & result 1',
        url: 'https://example.org/tea%20history/1',
        snippet: 'Snippet 1 about tea history — with "quotes".',
        engine: 'bing',
        publishedDate: '2024-05-01T00:00:00',
      },
      {
        title: 'tea history & result 2',
        url: 'https://example.org/tea%20history/2',
        snippet: 'Snippet 2 about tea history — with "quotes".',
        engine: 'wikipedia',
      },
      {
        title: 'tea history & result 3',
        url: 'https://example.org/tea%20history/3',
        snippet: 'Snippet 3 about tea history — with "quotes".',
        engine: 'bing',
      },
    ]);
  });

  it('sends no engines parameter when none are configured, and keeps a base path', async () => {
    const server = await track(startFakeSearxng({ prefix: '/searxng' }));
    const backend = createSearxngBackend({
      baseUrl: `${server.baseUrl}/searxng/`,
      engines: [],
      transport,
    });
    expect(await backend.search('x', options(2))).toHaveLength(2);
    expect(server.requests[0]?.path).toBe('/searxng/search');
    expect(server.requests[0]?.query.has('engines')).toBe(false);
  });

  it('explains the 403 SearXNG sends when the json format is disabled', async () => {
    const server = await track(startFakeSearxng({ jsonEnabled: false }));
    const backend = createSearxngBackend({ baseUrl: server.baseUrl, engines: [], transport });
    const message = await failure(backend.search('x', options()));
    expect(message).toContain(`SearXNG at ${server.baseUrl}`);
    expect(message).toContain('HTTP 403');
    expect(message).toContain('settings.yml');
    expect(message).toContain('"json" under search.formats');
  });

  it('names the base URL when nothing listens there', async () => {
    const baseUrl = await refusedBaseUrl();
    const backend = createSearxngBackend({ baseUrl, engines: [], transport });
    const message = await failure(backend.search('x', options()));
    expect(message).toContain(`Could not reach SearXNG at ${baseUrl}`);
    expect(message).toContain('connection refused');
  });

  it('gives up at the deadline when headers never come, naming the base URL', async () => {
    const server = await track(startFakeSearxng());
    server.misbehave = () => ({ type: 'stall', ms: 5_000 });
    const backend = createSearxngBackend({
      baseUrl: server.baseUrl,
      engines: [],
      transport: { ...transport, deadlineMs: 300 },
    });
    // The server stalls for 5 s: this message can only come from the 0.3 s deadline.
    const message = await failure(backend.search('x', options()));
    expect(message).toBe(
      `SearXNG at ${server.baseUrl} did not answer within 0.3 s; it may be down or overloaded.`,
    );
  });

  it('holds the deadline while the body drips in', async () => {
    const server = await track(startFakeSearxng());
    server.misbehave = () => ({ type: 'drip', intervalMs: 50 });
    const backend = createSearxngBackend({
      baseUrl: server.baseUrl,
      engines: [],
      transport: { ...transport, deadlineMs: 400 },
    });
    // The body never ends: this message can only come from the 0.4 s deadline.
    const message = await failure(backend.search('x', options()));
    expect(message).toContain('did not answer within 0.4 s');
  });

  it.each([true, false])(
    'refuses a body over the cap (Content-Length declared: %s)',
    async (declareLength) => {
      const server = await track(startFakeSearxng());
      server.misbehave = () => ({ type: 'huge', bytes: 8 * 1024 * 1024, declareLength });
      const backend = createSearxngBackend({ baseUrl: server.baseUrl, engines: [], transport });
      const message = await failure(backend.search('x', options()));
      expect(message).toBe(
        `SearXNG at ${server.baseUrl} sent a response larger than 256 KiB; it was not read.`,
      );
    },
  );

  it('reports malformed JSON, a 429 from the limiter, a 404 and failing engines', async () => {
    const server = await track(startFakeSearxng());
    const backend = createSearxngBackend({ baseUrl: server.baseUrl, engines: [], transport });
    server.misbehave = () => ({
      type: 'reply',
      status: 200,
      body: '{"results": [',
      contentType: 'application/json',
    });
    expect(await failure(backend.search('x', options()))).toContain(
      'answered with something that is not JSON',
    );
    server.misbehave = () => ({
      type: 'reply',
      status: 200,
      body: '<html><title>Login</title></html>',
    });
    expect(await failure(backend.search('x', options()))).toContain('("Login…")');
    server.misbehave = () => ({ type: 'reply', status: 429, body: 'Too Many Requests' });
    expect(await failure(backend.search('x', options()))).toContain('server.limiter: false');
    server.misbehave = () => ({ type: 'reply', status: 404, body: '<h1>Not Found</h1>' });
    expect(await failure(backend.search('x', options()))).toContain('instance root');
    server.misbehave = () => ({ type: 'reply', status: 502, body: '<title>Bad Gateway</title>' });
    expect(await failure(backend.search('x', options()))).toBe(
      `SearXNG at ${server.baseUrl} answered HTTP 502: Bad Gateway.`,
    );
    server.misbehave = () => ({
      type: 'reply',
      status: 200,
      body: JSON.stringify({
        results: [],
        unresponsive_engines: [
          ['google', 'timeout'],
          ['bing', 'CAPTCHA'],
        ],
      }),
    });
    expect(await failure(backend.search('x', options()))).toContain(
      'found nothing because its engines failed: google (timeout), bing (CAPTCHA)',
    );
    server.misbehave = () => ({
      type: 'reply',
      status: 200,
      body: JSON.stringify({ results: [] }),
    });
    expect(await backend.search('x', options())).toEqual([]);
  });

  it('does not follow redirects (the key and the origin restriction stay put), and says where to', async () => {
    const elsewhere = await track(startFakeSerper({ apiKey: 'secret-key' }));
    const server = await track(startFakeSerper({ apiKey: 'secret-key' }));
    server.misbehave = () => ({
      type: 'reply',
      status: 307,
      body: '',
      headers: { Location: `${elsewhere.baseUrl}/search` },
    });
    const backend = createSerperBackend({
      apiKey: 'secret-key',
      baseUrl: server.baseUrl,
      transport,
    });
    const message = await failure(backend.search('x', options()));
    expect(message).toBe(
      `Serper redirected (HTTP 307) to ${elsewhere.baseUrl}/search. Redirects are not followed; if the service moved, use its new address as the base URL.`,
    );
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('drops results without an http(s) link', async () => {
    const server = await track(startFakeSearxng());
    server.misbehave = () => ({
      type: 'reply',
      status: 200,
      body: JSON.stringify({
        results: [
          { title: 'evil', url: 'javascript:alert(1)', content: '' },
          { title: 'no url', content: 'x' },
          { title: '', url: 'https://ok.example/page', content: 'fine' },
        ],
      }),
    });
    const backend = createSearxngBackend({ baseUrl: server.baseUrl, engines: [], transport });
    expect(await backend.search('x', options())).toEqual([
      { title: 'ok.example', url: 'https://ok.example/page', snippet: 'fine' },
    ]);
  });

  it('passes the caller abort through as an abort, not a search failure', async () => {
    const server = await track(startFakeSearxng());
    server.misbehave = () => ({ type: 'stall', ms: 5_000 });
    const backend = createSearxngBackend({ baseUrl: server.baseUrl, engines: [], transport });
    const controller = new AbortController();
    const pending = backend.search('x', { topK: 3, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(SearchBackendError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

describe('Serper backend', () => {
  it('POSTs the query with X-API-KEY and parses organic results', async () => {
    const server = await track(startFakeSerper({ apiKey: 'serper-key-123' }));
    const backend = createSerperBackend({
      apiKey: 'serper-key-123',
      baseUrl: server.baseUrl,
      transport,
    });
    const hits = await backend.search('green tea', options(2));
    expect(server.requests[0]?.method).toBe('POST');
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ q: 'green tea' });
    expect(hits).toEqual([
      {
        title: 'green tea — Serper hit 1',
        url: 'https://serper.example/1',
        snippet: 'Serper snippet 1 for green tea & more',
        publishedDate: 'Mar 3, 2025',
      },
      {
        title: 'green tea — Serper hit 2',
        url: 'https://serper.example/2',
        snippet: 'Serper snippet 2 for green tea & more',
      },
    ]);
  });

  it('says a key is needed, and that a wrong key was rejected', async () => {
    const server = await track(startFakeSerper({ apiKey: 'right' }));
    const keyless = createSerperBackend({ apiKey: null, baseUrl: server.baseUrl, transport });
    expect(await failure(keyless.search('x', options()))).toContain('Serper needs an API key');
    expect(server.requests).toHaveLength(0);
    const wrong = createSerperBackend({ apiKey: 'wrong', baseUrl: server.baseUrl, transport });
    const message = await failure(wrong.search('x', options()));
    expect(message).toBe(
      'Serper rejected the API key (HTTP 403: Unauthorized.). Check the search API key in settings, or SEARCH_API_KEY.',
    );
    expect(message).not.toContain('wrong');
  });

  it('says the quota is exhausted on 429 and on "Not enough credits"', async () => {
    const server = await track(startFakeSerper({ apiKey: 'k' }));
    const backend = createSerperBackend({ apiKey: 'k', baseUrl: server.baseUrl, transport });
    server.misbehave = () => ({
      type: 'reply',
      status: 429,
      body: '{"message":"Too many requests"}',
    });
    expect(await failure(backend.search('x', options()))).toContain('quota is exhausted (HTTP 429');
    server.misbehave = () => ({
      type: 'reply',
      status: 400,
      body: '{"message":"Not enough credits","statusCode":400}',
    });
    expect(await failure(backend.search('x', options()))).toContain(
      'quota is exhausted (HTTP 400: Not enough credits)',
    );
  });
});

describe('Brave backend', () => {
  it('GETs with X-Subscription-Token and count, and strips <strong> from results', async () => {
    const server = await track(startFakeBrave({ apiKey: 'brave-token' }));
    const backend = createBraveBackend({
      apiKey: 'brave-token',
      baseUrl: server.baseUrl,
      transport,
    });
    const hits = await backend.search('rust', options(2));
    expect(server.requests[0]?.query.get('q')).toBe('rust');
    expect(server.requests[0]?.query.get('count')).toBe('2');
    expect(hits).toEqual([
      {
        title: 'Brave rust 1',
        url: 'https://brave.example/1',
        snippet: 'A rust description 1',
        publishedDate: '2025-01-02T03:04:05',
      },
      { title: 'Brave rust 2', url: 'https://brave.example/2', snippet: 'A rust description 2' },
    ]);
  });

  it('reads 422 SUBSCRIPTION_TOKEN_INVALID as a rejected key; 429 as quota; no key as missing', async () => {
    const server = await track(startFakeBrave({ apiKey: 'right' }));
    const wrong = createBraveBackend({ apiKey: 'wrong', baseUrl: server.baseUrl, transport });
    expect(await failure(wrong.search('x', options()))).toBe(
      'Brave Search rejected the API key (HTTP 422: The provided subscription token is invalid.). Check the search API key in settings, or SEARCH_API_KEY.',
    );
    const right = createBraveBackend({ apiKey: 'right', baseUrl: server.baseUrl, transport });
    server.misbehave = () => ({
      type: 'reply',
      status: 429,
      body: '{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","detail":"Request rate limit exceeded for plan."}}',
    });
    expect(await failure(right.search('x', options()))).toContain(
      'quota is exhausted (HTTP 429: Request rate limit exceeded for plan.)',
    );
    const keyless = createBraveBackend({ apiKey: '', baseUrl: server.baseUrl, transport });
    expect(await failure(keyless.search('x', options()))).toContain(
      'Brave Search needs an API key',
    );
    const pasted = createBraveBackend({ apiKey: 'sk-ключ 1', baseUrl: server.baseUrl, transport });
    const message = await failure(pasted.search('x', options()));
    expect(message).toContain('The Brave Search API key contains spaces or characters');
    expect(message).not.toContain('ключ');
    expect(
      server.requests.filter(
        (request) =>
          request.headers['x-subscription-token'] !== 'wrong' &&
          request.headers['x-subscription-token'] !== 'right',
      ),
    ).toHaveLength(0);
  });
});

describe('helpers', () => {
  it('normalises engine lists: commas win over spaces, lowercase, no duplicates', () => {
    expect(normaliseEngines('bing, wikipedia')).toEqual(['bing', 'wikipedia']);
    expect(normaliseEngines('  bing   wikipedia  Bing ')).toEqual(['bing', 'wikipedia']);
    expect(normaliseEngines('google news, wikipedia,')).toEqual(['google news', 'wikipedia']);
    expect(normaliseEngines('   ')).toEqual([]);
  });

  it('builds the search URL from a root given with a path, /search, a query or a fragment', () => {
    expect(searxngSearchUrl('https://s.example', 'a b', []).href).toBe(
      'https://s.example/search?q=a+b&format=json',
    );
    expect(searxngSearchUrl('https://s.example/searx/search?x=1#top', 'q', ['bing']).href).toBe(
      'https://s.example/searx/search?q=q&format=json&engines=bing',
    );
  });

  it('cleans tags and entities, including escaped markup, without splitting words', () => {
    expect(cleanText('Hel<b>lo</b>&nbsp;w&#111;rld&#x21; <br>next')).toBe('Hello world! next');
    expect(cleanText('&lt;script&gt;alert(1)&lt;/script&gt; a &lt; b &amp;amp;')).toBe(
      'alert(1) a < b &amp;',
    );
    expect(cleanText('tab\tand\u0007bell\n\nlines')).toBe('tab and bell lines');
  });
});
