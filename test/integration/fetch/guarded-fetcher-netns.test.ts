/**
 * The guarded fetcher over real sockets, inside a lab of network namespaces (test/support/
 * netns-lab.ts): public-looking hosts that exist only in the lab, canaries on every refused
 * target, and a client namespace with no route to anything else. Every hostile URL is tried
 * directly and as a redirect target; after each test no canary may have seen a connection.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setUpFetchLab, PUBLIC_HOST_A } from '../../support/fetch-lab';
import type { FetchLab } from '../../support/fetch-lab';
import type { LabEvent } from '../../support/netns-lab';

const lab = setUpFetchLab();
/** Connections the lab self-check made on purpose; nothing may add to them. */
let expectedCanaryConnections: LabEvent[] = [];

afterEach(async () => {
  expect(await lab().canaryConnections()).toEqual(expectedCanaryConnections);
});

const NEWS = 'http://news.example-public.test';
const redirectTo = (target: string, status = 302): string =>
  `${NEWS}/redirect?status=${status}&to=${encodeURIComponent(target)}`;

async function fetchUrl(url: string, extra: Partial<Parameters<FetchLab['run']>[0]> = {}) {
  const answer = await lab().run({ operation: 'fetch', url, ...extra });
  if (!answer.fetch) throw new Error(`no fetch result: ${JSON.stringify(answer)}`);
  return {
    ...answer.fetch,
    elapsedMs: answer.elapsedMs,
    lookups: answer.lookups,
    thrown: answer.thrown,
  };
}

describe('the lab itself', () => {
  it('routes refused targets to canaries that record an unguarded request', async () => {
    const targets = [
      'http://10.77.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1/',
      'http://[fd00:ec2::254]/',
    ];
    for (const url of targets) {
      const answer = await lab().run({ operation: 'raw', url });
      expect(answer.raw, url).toEqual({ status: 200, body: 'CANARY-SECRET' });
    }
    const unrouted = await lab().run({ operation: 'raw', url: 'http://203.0.113.5/' });
    expect(unrouted.raw).toMatchObject({ error: /ENETUNREACH|EHOSTUNREACH|timeout/ });
    expectedCanaryConnections = await lab().canaryConnections();
    expect(expectedCanaryConnections.map((event) => event.local)).toEqual(
      expect.arrayContaining(['10.77.0.1', '169.254.169.254', 'fd00:ec2::254']),
    );
    expect(expectedCanaryConnections).toHaveLength(4);
  });
});

describe('allowed fetches', () => {
  it('fetches a public page, pinned to the checked address, with no cookies or credentials sent', async () => {
    const result = await fetchUrl(`${NEWS}/whoami`);
    expect(result).toMatchObject({
      ok: true,
      finalUrl: `${NEWS}/whoami`,
      mediaType: 'application/json',
      lookups: ['news.example-public.test'],
    });
    const seen = JSON.parse(result.text ?? '{}');
    expect(seen.local).toBe(PUBLIC_HOST_A);
    expect(Object.keys(seen.headers).sort()).toEqual([
      'accept',
      'accept-encoding',
      'accept-language',
      'connection',
      'host',
      'user-agent',
    ]);
  });

  it('keeps TLS name checks: SNI and the certificate are for the hostname, not the pinned IP', async () => {
    const result = await fetchUrl('https://secure.example-public.test/whoami');
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.text ?? '{}')).toMatchObject({
      servername: 'secure.example-public.test',
      host: 'secure.example-public.test',
    });
    expect(await fetchUrl('https://wrongname.example-public.test/whoami')).toMatchObject({
      ok: false,
      error:
        'the TLS certificate of wrongname.example-public.test was rejected (ERR_TLS_CERT_ALTNAME_INVALID)',
    });
    expect(await fetchUrl(`https://${PUBLIC_HOST_A}/whoami`)).toMatchObject({
      ok: false,
      error: /TLS certificate of 45\.33\.0\.10 was rejected/,
    });
  });

  it('reaches IPv6-only and dual-stack hosts, and follows redirects to another public host', async () => {
    expect(await fetchUrl('http://v6.example-public.test/whoami')).toMatchObject({
      ok: true,
      text: /"local":"2a01:4f8:aaaa::10"/,
    });
    expect(await fetchUrl('http://dual.example-public.test/plain')).toMatchObject({
      ok: true,
      text: 'Plain text from the lab.',
    });
    const hopped = await fetchUrl(redirectTo('http://other.example-public.test/whoami', 301));
    expect(hopped).toMatchObject({
      ok: true,
      finalUrl: 'http://other.example-public.test/whoami',
      text: /"local":"45\.33\.0\.11"/,
    });
    expect(hopped.lookups).toEqual(['news.example-public.test', 'other.example-public.test']);
  });

  it('accepts a trailing-dot host and an IPv4-mapped literal of a public address', async () => {
    const dotted = await fetchUrl('http://news.example-public.test./whoami');
    expect(dotted).toMatchObject({ ok: true, lookups: ['news.example-public.test'] });
    expect(JSON.parse(dotted.text ?? '{}').host).toBe('news.example-public.test.');
    const mapped = await fetchUrl(`http://[::ffff:${PUBLIC_HOST_A}]/whoami`);
    expect(mapped).toMatchObject({ ok: true, lookups: [] });
  });

  it('refuses non-default ports unless the option allows them', async () => {
    expect(await fetchUrl(`${NEWS}:8080/plain`)).toMatchObject({
      ok: false,
      error: /port 8080 is not allowed/,
    });
    expect(
      await fetchUrl(`${NEWS}:8080/plain`, { limits: { allowNonDefaultPorts: true } }),
    ).toMatchObject({ ok: true });
    expect(
      await fetchUrl('http://10.77.0.1:8080/', { limits: { allowNonDefaultPorts: true } }),
    ).toMatchObject({ ok: false, error: /private/ });
  });
});

/** Hostile URLs, each with what its refusal must say. */
const HOSTILE: readonly [string, RegExp][] = [
  ['http://127.0.0.1/', /blocked: 127\.0\.0\.1 is a loopback address/],
  ['http://127.1/', /127\.0\.0\.1 is a loopback/],
  ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
  ['http://0x7f.1/', /127\.0\.0\.1 is a loopback/],
  ['http://017700000001/', /127\.0\.0\.1 is a loopback/],
  ['http://0/', /0\.0\.0\.0 is an unspecified/],
  ['http://[::]/', /:: is the unspecified address/],
  ['http://[::1]/', /::1 is a loopback/],
  ['http://[::ffff:127.0.0.1]/', /IPv4-mapped form of 127\.0\.0\.1/],
  ['http://[::ffff:a9fe:a9fe]/', /IPv4-mapped form of 169\.254\.169\.254/],
  ['http://[::127.0.0.1]/', /IPv4-compatible form of 127\.0\.0\.1/],
  ['http://[64:ff9b::a9fe:a9fe]/', /NAT64 form of 169\.254\.169\.254/],
  ['http://[2002:a9fe:a9fe::]/', /6to4 form of 169\.254\.169\.254/],
  [
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    /169\.254\.169\.254 is a link-local address \(cloud metadata service\)/,
  ],
  ['http://[fd00:ec2::254]/latest/meta-data/', /unique-local.*AWS metadata/],
  ['http://100.100.100.200/latest/meta-data/', /carrier-grade NAT.*Alibaba/],
  [
    'http://168.63.129.16/machine/?comp=goalstate',
    /168\.63\.129\.16 is a cloud metadata address \(Azure WireServer\)/,
  ],
  ['http://[::ffff:a83f:8110]/', /IPv4-mapped form of 168\.63\.129\.16/],
  ['http://10.77.0.1/', /10\.77\.0\.1 is a private address/],
  ['http://172.16.77.1/', /private/],
  ['http://192.168.77.1/', /private/],
  ['http://198.18.0.77/', /benchmarking/],
  ['http://localhost/', /localhost is a loopback name/],
  [
    'http://127.0.0.1.nip.io/',
    /127\.0\.0\.1\.nip\.io resolves to 127\.0\.0\.1, a loopback address/,
  ],
  ['http://localtest.me/', /resolves to 127\.0\.0\.1/],
  [
    'http://mixed.example-public.test/',
    /mixed\.example-public\.test resolves to 10\.77\.0\.1, a private address/,
  ],
  ['http://mixed6.example-public.test/', /resolves to fd00:ec2::254, a unique-local/],
  [
    'http://mapped.example-public.test/',
    /resolves to ::ffff:7f00:1, an IPv4-mapped form of 127\.0\.0\.1/,
  ],
  ['http://metadata.example-public.test/latest/meta-data/', /resolves to 169\.254\.169\.254/],
  ['http://alibaba.example-public.test/', /resolves to 100\.100\.100\.200/],
  ['http://fakeip.example-public.test/', /resolves to 198\.18\.0\.77, a benchmarking address/],
  ['http://lan.example-public.test/', /resolves to 192\.168\.77\.1, a private address/],
  ['http://metadata.google.internal/computeMetadata/v1/', /private-use name/],
  ['http://user:pass@news.example-public.test/', /credentials/],
  ['http://127.0.0.1:8080/', /port 8080 is not allowed/],
  ['file:///etc/passwd', /only http and https/],
  ['gopher://127.0.0.1:6379/_INFO', /only http and https/],
  ['data:text/html,<script>alert(1)</script>', /only http and https/],
  ['ftp://news.example-public.test/', /only http and https/],
  [
    'http://unknown.example-public.test/',
    /could not resolve unknown\.example-public\.test \(ENOTFOUND\)/,
  ],
];

describe('hostile URLs', () => {
  it('refuses every hostile URL when asked directly', async () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(35);
    for (const [url, reason] of HOSTILE) {
      const result = await fetchUrl(url);
      expect(result.ok, url).toBe(false);
      expect(result.error, url).toMatch(reason);
    }
  });

  it('refuses every hostile URL as a redirect target (302, 307 and 308)', async () => {
    const statuses = [302, 307, 308];
    let index = 0;
    for (const [target, reason] of HOSTILE) {
      const status = statuses[index % statuses.length] ?? 302;
      index += 1;
      const result = await fetchUrl(redirectTo(target, status));
      expect(result.ok, target).toBe(false);
      expect(result.error, target).toMatch(reason);
    }
  });

  it('refuses protocol-relative and odd-spelling redirects', async () => {
    for (const target of [
      '//127.0.0.1/',
      '//0x7f.1/',
      'http://[::ffff:7f00:1]/',
      '//169.254.169.254/latest/',
      '/\\127.0.0.1/',
    ]) {
      const result = await fetchUrl(redirectTo(target, 307));
      if (target === '/\\127.0.0.1/') {
        // WHATWG treats "\" like "/" in http URLs: this is //127.0.0.1/ too.
        expect(result).toMatchObject({ ok: false, error: /127\.0\.0\.1 is a loopback/ });
      } else {
        expect(result, target).toMatchObject({
          ok: false,
          error: /blocked: .* \(after a redirect to /,
        });
      }
    }
  });

  it('stops redirect chains after 5 hops, and loops', async () => {
    let chain = `${NEWS}/plain`;
    for (let hop = 0; hop < 5; hop += 1) chain = redirectTo(chain);
    expect(await fetchUrl(chain)).toMatchObject({ ok: true, text: 'Plain text from the lab.' });
    expect(await fetchUrl(redirectTo(chain))).toMatchObject({
      ok: false,
      error: 'too many redirects (more than 5)',
    });
    expect(await fetchUrl(`${NEWS}/loop`)).toMatchObject({
      ok: false,
      error: 'too many redirects (more than 5)',
    });
  });

  it('refuses an https to http downgrade', async () => {
    const url = `https://secure.example-public.test/redirect?to=${encodeURIComponent(`${NEWS}/plain`)}`;
    expect(await fetchUrl(url)).toMatchObject({
      ok: false,
      error: /refused a redirect from https to plain http/,
    });
  });
});

describe('unreachable addresses', () => {
  it('a name whose only address has no route is a clear error, directly or as a redirect, and the process lives on', async () => {
    for (const url of [
      'http://unrouted6.example-public.test/',
      redirectTo('http://unrouted6.example-public.test/page'),
    ]) {
      const result = await fetchUrl(url);
      expect(result.thrown, url).toBeUndefined();
      expect(result, url).toMatchObject({
        ok: false,
        error: expect.stringMatching(
          /could not connect to unrouted6\.example-public\.test .*ENETUNREACH/,
        ),
      });
    }
    // The same client process still answers.
    expect(await fetchUrl(`${NEWS}/whoami`)).toMatchObject({ ok: true });
  });
});

describe('DNS rebinding', () => {
  it('checks the socket peer: a connection to an address outside the checked list is cut', async () => {
    const mismatch = await lab().run({
      operation: 'exchange',
      url: `http://${PUBLIC_HOST_A}/whoami?peer-check`,
      addresses: ['45.33.0.11'],
    });
    expect(mismatch.raw).toEqual({
      error: 'blocked: the connection to 45.33.0.10 reached an address that was not checked',
    });
    const matching = await lab().run({
      operation: 'exchange',
      url: `http://${PUBLIC_HOST_A}/whoami?after-peer-check`,
      addresses: [PUBLIC_HOST_A],
    });
    expect(matching.raw).toEqual({ status: 200, body: '' });
    // Cut on connect: not one byte of the request reached the server. The server logs requests
    // in order, so once the later request is logged, an earlier one would be there too.
    const paths = () =>
      lab()
        .publicRequests()
        .map((event) => String(event.path));
    await expect.poll(() => paths().some((path) => path.includes('after-peer-check'))).toBe(true);
    expect(paths().filter((path) => path.includes('?peer-check'))).toEqual([]);
  });

  it('connects to the address it checked: one lookup, pinned, no second answer used', async () => {
    const result = await fetchUrl('http://rebind.example-public.test/whoami');
    expect(result).toMatchObject({ ok: true, lookups: ['rebind.example-public.test'] });
    expect(JSON.parse(result.text ?? '{}').local).toBe(PUBLIC_HOST_A);
  });

  it('re-resolves and refuses when a redirect back to the same name now resolves privately', async () => {
    const result = await fetchUrl('http://rebind.example-public.test/redirect?to=/whoami');
    expect(result.lookups).toEqual(['rebind.example-public.test', 'rebind.example-public.test']);
    expect(result).toMatchObject({
      ok: false,
      error:
        'blocked: rebind.example-public.test resolves to 10.77.0.1, a private address (after a redirect to http://rebind.example-public.test/whoami)',
    });
  });
});

describe('limits', () => {
  it('stops gzip, brotli and nested gzip bombs at the decoded cap', async () => {
    for (const path of ['/gzip-bomb', '/br-bomb', '/nested-gzip-bomb']) {
      expect(await fetchUrl(`${NEWS}${path}`), path).toMatchObject({
        ok: false,
        error: /is larger than 5 MiB once decompressed$/,
      });
    }
    expect(
      await fetchUrl(`${NEWS}/gzip-bomb`, { limits: { maxBodyBytes: 100 * 1024 * 1024 } }),
    ).toMatchObject({ ok: true, size: 60 * 1024 * 1024 });
  });

  it('stops endless and over-declared bodies', async () => {
    expect(await fetchUrl(`${NEWS}/huge`)).toMatchObject({
      ok: false,
      error: /is larger than 5 MiB$/,
    });
    const declared = await fetchUrl(`${NEWS}/huge-declared`);
    expect(declared).toMatchObject({
      ok: false,
      error: /is larger than 5 MiB \(it declares 4\.7 GiB\)/,
    });
    expect(declared.elapsedMs).toBeLessThan(1000);
  });

  it('enforces the overall deadline on a slow drip and the headers timeout on a silent server', async () => {
    const drip = await fetchUrl(`${NEWS}/drip`, { limits: { deadlineMs: 1500 } });
    expect(drip).toMatchObject({
      ok: false,
      error: 'the request took longer than 1.5 s (the overall deadline)',
    });
    expect(drip.elapsedMs).toBeGreaterThanOrEqual(1400);
    expect(drip.elapsedMs).toBeLessThan(4000);
    const silent = await fetchUrl(`${NEWS}/slow-headers`, { limits: { headersTimeoutMs: 1000 } });
    expect(silent).toMatchObject({
      ok: false,
      error: 'news.example-public.test sent no response headers within 1 s',
    });
  });

  it('refuses oversized headers and unwanted content types before reading the body', async () => {
    expect(await fetchUrl(`${NEWS}/big-headers`)).toMatchObject({
      ok: false,
      error: /response headers from news\.example-public\.test are too large/,
    });
    expect(await fetchUrl(`${NEWS}/binary`, { accept: ['text/html'] })).toMatchObject({
      ok: false,
      error: 'refused type application/octet-stream',
    });
    expect(await fetchUrl(`${NEWS}/missing`)).toMatchObject({
      ok: false,
      error: /answered HTTP 404 Not Found/,
    });
  });

  it('cancels with the turn signal (a rejection, not a tool error)', async () => {
    const answer = await lab().run({ operation: 'fetch', url: `${NEWS}/drip`, cancelAfterMs: 300 });
    expect(answer.thrown).toBe('cancelled by the test');
    expect(answer.elapsedMs).toBeLessThan(2000);
  });
});
