import { describe, expect, it } from 'vitest';
import { checkUrl, MAX_URL_LENGTH } from '../../../src/main/policy/url-policy';

const STRICT = { allowNonDefaultPorts: false };
const LENIENT = { allowNonDefaultPorts: true };

/** Hostile URLs refused before anything is resolved, with the reason expected. */
const HOSTILE_URLS: readonly [string, RegExp][] = [
  // loopback in every spelling the WHATWG parser canonicalises to 127.0.0.1
  ['http://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
  ['http://127.1/', /127\.0\.0\.1 is a loopback/],
  ['http://127.000.000.001/', /127\.0\.0\.1 is a loopback/],
  ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
  ['http://017700000001/', /127\.0\.0\.1 is a loopback/],
  ['http://0177.0.0.1/', /127\.0\.0\.1 is a loopback/],
  ['http://0x7f000001/', /127\.0\.0\.1 is a loopback/],
  ['http://0x7f.1/', /127\.0\.0\.1 is a loopback/],
  ['http://0x7f.0x0.0x0.0x1/', /127\.0\.0\.1 is a loopback/],
  ['http://%31%32%37.0.0.1/', /127\.0\.0\.1 is a loopback/],
  ['http://①②⑦.0.0.1/', /127\.0\.0\.1 is a loopback/],
  ['http://127。0。0。1/', /127\.0\.0\.1 is a loopback/],
  ['http://127.0.0.1./', /127\.0\.0\.1 is a loopback/],
  ['http://127.0.0.1#@example.com/', /127\.0\.0\.1 is a loopback/],
  ['http://0/', /0\.0\.0\.0 is an unspecified/],
  ['http://0.0.0.0/', /0\.0\.0\.0 is an unspecified/],
  ['http://[::]/', /:: is the unspecified address/],
  ['http://[::1]/', /::1 is a loopback/],
  ['http://[0:0:0:0:0:0:0:1]/', /::1 is a loopback/],
  ['http://[::ffff:127.0.0.1]/', /::ffff:7f00:1 is an IPv4-mapped form of 127\.0\.0\.1/],
  ['http://[::ffff:7f00:1]/', /IPv4-mapped form of 127\.0\.0\.1/],
  ['http://[::ffff:169.254.169.254]/', /IPv4-mapped form of 169\.254\.169\.254/],
  ['http://[::ffff:a9fe:a9fe]/', /IPv4-mapped form of 169\.254\.169\.254/],
  ['http://[::127.0.0.1]/', /IPv4-compatible form of 127\.0\.0\.1/],
  ['http://[64:ff9b::7f00:1]/', /NAT64 form of 127\.0\.0\.1/],
  ['http://[64:ff9b::a9fe:a9fe]/', /NAT64 form of 169\.254\.169\.254/],
  ['http://[64:ff9b:1::a00:1]/', /local-use NAT64/],
  ['http://[2002:7f00:1::]/', /6to4 form of 127\.0\.0\.1/],
  ['http://[2001::1]/', /Teredo/],
  // cloud metadata
  [
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    /link-local address \(cloud metadata service\)/,
  ],
  ['http://[fd00:ec2::254]/latest/meta-data/', /unique-local.*AWS metadata/],
  ['http://100.100.100.200/latest/meta-data/', /carrier-grade NAT.*Alibaba/],
  ['http://metadata.google.internal/computeMetadata/v1/', /private-use name \(\.internal\)/],
  // private, link-local, multicast, broadcast, reserved, benchmark, documentation
  ['http://10.0.0.1/', /private/],
  ['http://172.16.0.1/', /private/],
  ['http://192.168.1.1/', /private/],
  ['http://[fe80::1]/', /link-local/],
  ['http://224.0.0.1/', /multicast/],
  ['http://[ff02::1]/', /multicast/],
  ['http://255.255.255.255/', /broadcast/],
  ['http://240.0.0.1/', /reserved/],
  ['http://198.18.0.1/', /benchmarking/],
  ['http://192.0.2.1/', /documentation/],
  ['http://[2001:db8::1]/', /documentation/],
  ['http://192.0.0.170/', /IETF protocol-assignment/],
  // names that never leave the machine or the LAN
  ['http://localhost/', /localhost is a loopback name/],
  ['http://LOCALHOST./', /localhost is a loopback name/],
  ['http://localhost.localdomain/', /local name/],
  ['http://api.localhost/', /loopback name/],
  ['http://printer.local/', /mDNS/],
  ['http://router.home.arpa/', /home-network/],
  ['http://router.lan/admin', /blocked: router.lan is a home-network name \(\.lan\)/],
  ['http://NAS.Local./', /link-local mDNS name/],
  ['http://host.docker.internal:48217/healthz', /port 48217 is not allowed/],
  // credentials
  ['http://user:pass@example.com/', /credentials/],
  ['http://example.com@127.0.0.1/', /credentials/],
  ['https://token@example.com/', /credentials/],
  // schemes
  ['file:///etc/passwd', /only http and https.*file:/],
  ['file:///C:/Windows/win.ini', /only http and https.*file:/],
  ['gopher://127.0.0.1:6379/_INFO', /only http and https.*gopher:/],
  ['dict://127.0.0.1:11211/', /only http and https.*dict:/],
  ['ftp://example.com/file', /only http and https.*ftp:/],
  ['data:text/html,<script>alert(1)</script>', /only http and https.*data:/],
  ['javascript:alert(1)', /only http and https.*javascript:/],
  ['ws://127.0.0.1:9222/', /only http and https.*ws:/],
  ['blob:https://example.com/uuid', /only http and https.*blob:/],
  // ports: non-default refused by default, bad ports always
  ['https://example.com:6379/', /port 6379 is not allowed/],
  ['http://example.com:8080/', /port 8080 is not allowed/],
  ['http://127.0.0.1:11434/api/tags', /port 11434 is not allowed/],
  ['http://example.com:25/', /port 25 belongs to another protocol/],
  // malformed
  ['http://[fe80::1%25eth0]/', /not a valid absolute URL/],
  ['http://a.b.c.1/', /not a valid absolute URL/],
  ['/relative/path', /not a valid absolute URL/],
  ['http://[::ffff:10.0.0.1]/', /IPv4-mapped form of 10\.0\.0\.1, a private/],
];

describe('URL policy', () => {
  it('refuses at least 70 hostile URLs with a specific reason', () => {
    expect(HOSTILE_URLS.length).toBeGreaterThanOrEqual(70);
    for (const [url, reason] of HOSTILE_URLS) {
      const verdict = checkUrl(url, STRICT);
      expect(verdict.ok, url).toBe(false);
      if (!verdict.ok) expect(verdict.reason, url).toMatch(reason);
    }
  });

  it('still refuses private hosts and bad ports when other ports are allowed', () => {
    expect(checkUrl('http://127.0.0.1:11434/api/tags', LENIENT)).toMatchObject({
      ok: false,
      reason: /loopback/,
    });
    expect(checkUrl('http://example.com:6667/', LENIENT)).toMatchObject({
      ok: false,
      reason: /port 6667/,
    });
    expect(checkUrl('https://example.com:8443/x', LENIENT)).toMatchObject({ ok: true });
  });

  it('accepts ordinary public URLs and normalises them', () => {
    const verdict = checkUrl('  HTTPS://News.Example.COM:443/a/b?c=1#section ', STRICT);
    expect(verdict.ok).toBe(true);
    if (verdict.ok) {
      expect(verdict.target.url.href).toBe('https://news.example.com/a/b?c=1');
      expect(verdict.target.hostname).toBe('news.example.com');
      expect(verdict.target.port).toBe(443);
      expect(verdict.target.isAddress).toBe(false);
    }
    const trailingDot = checkUrl('http://example.com./', STRICT);
    expect(trailingDot.ok && trailingDot.target.hostname).toBe('example.com');
    const literal = checkUrl('http://[2606:4700::1111]/', STRICT);
    expect(literal.ok && literal.target).toMatchObject({
      hostname: '2606:4700::1111',
      isAddress: true,
    });
    expect(checkUrl('http://8.8.8.8/', STRICT).ok).toBe(true);
    expect(checkUrl('http://[64:ff9b::808:808]/', STRICT).ok).toBe(true);
    expect(checkUrl('http://xn--nxasmq6b.com/', STRICT).ok).toBe(true);
    expect(checkUrl('http://例子.测试/', STRICT).ok).toBe(true);
  });

  it('refuses over-long URLs', () => {
    const verdict = checkUrl(`https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`, STRICT);
    expect(verdict).toMatchObject({ ok: false, reason: /longer than/ });
  });
});
