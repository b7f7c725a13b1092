/**
 * Real HTTP servers on 127.0.0.1 that speak like the search backends: SearXNG's JSON format
 * (and its 403 when the json format is not enabled), Serper's POST /search with X-API-KEY, and
 * Brave's GET /res/v1/web/search with X-Subscription-Token. Each records what it was asked and
 * how many requests were in flight at once, and can be told to misbehave: stall, drip, send a
 * huge or malformed body, or answer with any status.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A way to answer one request instead of the normal answer. */
export type Misbehaviour =
  | {
      type: 'reply';
      status: number;
      body: string;
      contentType?: string;
      headers?: Record<string, string>;
    }
  /** Wait before sending anything, then answer normally. */
  | { type: 'stall'; ms: number }
  /** Send headers and the start of a body, then nothing more until the client gives up. */
  | { type: 'drip'; intervalMs: number }
  /** A body of `bytes` bytes, with or without a Content-Length header. */
  | { type: 'huge'; bytes: number; declareLength: boolean };

export interface FakeSearchServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The most requests in flight at the same moment. */
  maxConcurrent: number;
  /** Delay before every normal answer (to observe concurrency). */
  delayMs: number;
  /** Decides, per request, to misbehave instead of answering normally. */
  misbehave: ((request: RecordedRequest) => Misbehaviour | undefined) | null;
  close(): Promise<void>;
}

type NormalAnswer = (request: RecordedRequest) => { status: number; body: unknown };

async function startServer(answer: NormalAnswer): Promise<FakeSearchServer> {
  let inFlight = 0;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, action: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };
  const server = createServer((incoming, response) => {
    void readRequest(incoming).then((request) => {
      fake.requests.push(request);
      inFlight += 1;
      fake.maxConcurrent = Math.max(fake.maxConcurrent, inFlight);
      response.on('close', () => (inFlight -= 1));
      const special = fake.misbehave?.(request);
      const normal = (): void => {
        const { status, body } = answer(request);
        send(response, status, typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (!special) return later(fake.delayMs, normal);
      if (special.type === 'reply') {
        for (const [name, value] of Object.entries(special.headers ?? {})) {
          response.setHeader(name, value);
        }
        return send(response, special.status, special.body, special.contentType);
      }
      if (special.type === 'stall') return later(special.ms, normal);
      if (special.type === 'drip') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('{"results": [');
        const drip = (): void => {
          if (response.destroyed) return;
          response.write(' ');
          later(special.intervalMs, drip);
        };
        return later(special.intervalMs, drip);
      }
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (special.declareLength) headers['Content-Length'] = String(special.bytes);
      response.writeHead(200, headers);
      writeHuge(response, special.bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const { port } = address;
  const fake: FakeSearchServer = {
    baseUrl: `http://127.0.0.1:${port}`,
    requests: [],
    maxConcurrent: 0,
    delayMs: 0,
    misbehave: null,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** Writes `bytes` bytes of a JSON-looking body in 64 KiB chunks, respecting back-pressure. */
function writeHuge(response: ServerResponse, bytes: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let left = bytes;
  const pump = (): void => {
    while (left > 0 && !response.destroyed) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      if (!response.write(piece)) return void response.once('drain', pump);
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

function send(response: ServerResponse, status: number, body: string, contentType?: string): void {
  response.writeHead(status, {
    'Content-Type': contentType ?? (body.startsWith('<') ? 'text/html' : 'application/json'),
  });
  response.end(body);
}

async function readRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(Buffer.from(chunk as Uint8Array));
  const url = new URL(incoming.url ?? '/', 'http://fake');
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: incoming.headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

/** The page Flask/Werkzeug sends for SearXNG's `flask.abort(403)` on a disabled format. */
export const SEARXNG_FORBIDDEN_PAGE =
  '<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n';

/** One SearXNG result in the instance's real JSON shape, with markup and entities to clean. */
export function searxngResult(query: string, index: number, engine: string): object {
  const url = `https://example.org/${encodeURIComponent(query)}/${index}`;
  return {
    url,
    title: `${query} &amp; result <b>${index}</b>`,
    content: `Snippet <em>${index}</em> about ${query}&nbsp;&mdash; with &quot;quotes&quot;.`,
    engine,
    parsed_url: ['https', 'example.org', `/${query}/${index}`, '', '', ''],
    template: 'default.html',
    engines: [engine],
    positions: [index],
    publishedDate: index === 1 ? '2024-05-01T00:00:00' : null,
    thumbnail: '',
    score: 1 / index,
    category: 'general',
  };
}

/**
 * A SearXNG instance at `<base><prefix>/search`. With `jsonEnabled: false` it answers the
 * json format with 403, as SearXNG does when `json` is missing from search.formats.
 */
export function startFakeSearxng(
  options: { jsonEnabled?: boolean; prefix?: string; resultCount?: number } = {},
): Promise<FakeSearchServer> {
  const prefix = options.prefix ?? '';
  return startServer((request) => {
    if (request.path !== `${prefix}/search`) return { status: 404, body: '<h1>Not Found</h1>' };
    if (request.query.get('format') !== 'json' || options.jsonEnabled === false) {
      return { status: 403, body: SEARXNG_FORBIDDEN_PAGE };
    }
    const query = request.query.get('q') ?? '';
    const engines = (request.query.get('engines') ?? 'bing').split(',');
    const count = options.resultCount ?? 10;
    const results = Array.from({ length: count }, (_, position) =>
      searxngResult(query, position + 1, engines[position % engines.length] ?? 'bing'),
    );
    return {
      status: 200,
      body: {
        query,
        number_of_results: 0,
        results,
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [`${query} more`],
        unresponsive_engines: [],
      },
    };
  });
}

/** Serper's POST /search: 403 {"message":"Unauthorized."} unless X-API-KEY matches. */
export function startFakeSerper(options: { apiKey: string }): Promise<FakeSearchServer> {
  return startServer((request) => {
    if (request.method !== 'POST' || request.path !== '/search') {
      return { status: 404, body: { message: 'Not found', statusCode: 404 } };
    }
    if (request.headers['x-api-key'] !== options.apiKey) {
      return { status: 403, body: { message: 'Unauthorized.', statusCode: 403 } };
    }
    const parsed: { q?: unknown } = JSON.parse(request.body);
    const q = String(parsed.q);
    const organic = Array.from({ length: 10 }, (_, index) => ({
      title: `${q} — Serper hit ${index + 1}`,
      link: `https://serper.example/${index + 1}`,
      snippet: `Serper snippet ${index + 1} for ${q} &amp; more`,
      position: index + 1,
      ...(index === 0 ? { date: 'Mar 3, 2025' } : {}),
    }));
    return {
      status: 200,
      body: { searchParameters: { q, type: 'search', engine: 'google' }, organic, credits: 1 },
    };
  });
}

/** Brave's GET /res/v1/web/search: 422 SUBSCRIPTION_TOKEN_INVALID unless the token matches. */
export function startFakeBrave(options: { apiKey: string }): Promise<FakeSearchServer> {
  return startServer((request) => {
    if (request.method !== 'GET' || request.path !== '/res/v1/web/search') {
      return { status: 404, body: { type: 'ErrorResponse' } };
    }
    if (request.headers['x-subscription-token'] !== options.apiKey) {
      return {
        status: 422,
        body: {
          type: 'ErrorResponse',
          error: {
            id: 'c3b2a1',
            status: 422,
            code: 'SUBSCRIPTION_TOKEN_INVALID',
            detail: 'The provided subscription token is invalid.',
            meta: {},
          },
          time: 1_754_364_294,
        },
      };
    }
    const q = request.query.get('q') ?? '';
    const count = Number(request.query.get('count') ?? '20');
    const results = Array.from({ length: Math.min(count, 20) }, (_, index) => ({
      title: `Brave <strong>${q}</strong> ${index + 1}`,
      url: `https://brave.example/${index + 1}`,
      description: `A <strong>${q}</strong> description ${index + 1}`,
      page_age: index === 0 ? '2025-01-02T03:04:05' : undefined,
      age: index === 0 ? 'January 2, 2025' : undefined,
      language: 'en',
      family_friendly: true,
    }));
    return {
      status: 200,
      body: { type: 'search', query: { original: q }, web: { type: 'search', results } },
    };
  });
}

/** A loopback URL nothing listens on (a server was bound there and closed). */
export async function refusedBaseUrl(): Promise<string> {
  const server = await startServer(() => ({ status: 200, body: {} }));
  await server.close();
  return server.baseUrl;
}
