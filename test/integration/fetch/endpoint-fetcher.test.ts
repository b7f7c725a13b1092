import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEndpointFetcher,
  EndpointOriginError,
} from '../../../src/main/adapters/fetch/endpoint-fetcher';

/** Two loopback servers: the configured endpoint, and another origin it may try to bounce to. */
let endpoint: Server;
let other: Server;
let endpointOrigin = '';
let otherOrigin = '';
const otherHits: string[] = [];
const endpointHits: { method: string; url: string; body: string; key: string | undefined }[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    });
  });
}

beforeAll(async () => {
  other = createServer((request, response) => {
    otherHits.push(request.url ?? '');
    response.end('other origin');
  });
  otherOrigin = await listen(other);
  endpoint = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      endpointHits.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body,
        key: request.headers['x-api-key']?.toString(),
      });
      const redirects: Record<string, [number, string]> = {
        '/moved': [307, '/search'],
        '/see-other': [303, '/search'],
        '/escape': [302, `${otherOrigin}/steal`],
        '/loop': [302, '/loop'],
      };
      const url = request.url ?? '';
      const redirect = redirects[url];
      if (url === '/search') response.end(JSON.stringify({ results: [1, 2] }));
      else if (redirect) response.writeHead(redirect[0], { location: redirect[1] }).end();
      else response.writeHead(404).end();
    });
  });
  endpointOrigin = await listen(endpoint);
});

afterAll(async () => {
  await Promise.all(
    [endpoint, other].map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

describe('endpoint fetcher', () => {
  it('reaches the configured loopback origin and follows same-origin redirects', async () => {
    const fetcher = createEndpointFetcher(`${endpointOrigin}/searxng/`);
    const response = await fetcher(`${endpointOrigin}/search`);
    expect(await response.json()).toEqual({ results: [1, 2] });
    const moved = await fetcher(`${endpointOrigin}/moved`, {
      method: 'POST',
      body: 'q=1',
      headers: { 'x-api-key': 'k1' },
    });
    expect(moved.status).toBe(200);
    expect(endpointHits.slice(-2)).toEqual([
      { method: 'POST', url: '/moved', body: 'q=1', key: 'k1' },
      { method: 'POST', url: '/search', body: 'q=1', key: 'k1' },
    ]);
    await fetcher(new URL('/see-other', endpointOrigin), { method: 'POST', body: 'q=2' });
    expect(endpointHits.at(-1)).toMatchObject({ method: 'GET', url: '/search', body: '' });
  });

  it('refuses other origins, redirects that leave the origin, and loops', async () => {
    const fetcher = createEndpointFetcher(endpointOrigin);
    await expect(fetcher(`${otherOrigin}/x`)).rejects.toThrow(EndpointOriginError);
    await expect(fetcher(`${endpointOrigin.replace('http:', 'https:')}/x`)).rejects.toThrow(
      /another origin/,
    );
    await expect(
      fetcher(`${endpointOrigin}/escape`, { headers: { 'x-api-key': 'secret' } }),
    ).rejects.toThrow(
      `the endpoint ${endpointOrigin} redirected to ${otherOrigin}, another origin; refused`,
    );
    await expect(fetcher(`${endpointOrigin}/loop`)).rejects.toThrow(/too many redirects/);
    expect(otherHits).toEqual([]);
  });

  it('rejects unusable configured origins at once', () => {
    expect(() => createEndpointFetcher('not a url')).toThrow(/not a valid endpoint URL/);
    expect(() => createEndpointFetcher('file:///tmp/x')).toThrow(/only http and https/);
    expect(() => createEndpointFetcher('http://user:pw@127.0.0.1:8080/')).toThrow(/credentials/);
  });
});
