/**
 * The one "http(s), no credentials" decision and the one local-name list (src/shared/http-url.ts),
 * with every case its former copies covered: credentials in each spelling, other schemes,
 * uppercase schemes, IPv6 literals, https-only and per-host http, extra schemes, loopback, and
 * the local names (`.lan` included, which one copy lacked).
 */
import { describe, expect, it } from 'vitest';
import {
  bareHostname,
  checkHttpUrl,
  isLoopbackHost,
  localNameLabel,
} from '../../../src/shared/http-url';

function problemOf(input: string | URL, options?: Parameters<typeof checkHttpUrl>[1]) {
  const verdict = checkHttpUrl(input, options);
  return verdict.ok ? null : verdict.problem;
}

describe('checkHttpUrl', () => {
  it.each([
    ['http://example.com/', 'example.com'],
    ['https://example.com:8443/a?b#c', 'example.com'],
    ['HTTP://EXAMPLE.COM/', 'example.com'],
    ['HtTpS://Example.Com./path', 'example.com'],
    ['http://[::1]:8080/', '::1'],
    ['https://[2001:db8::1]/', '2001:db8::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://127.0.0.1:11434/v1', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://router.lan/', 'router.lan'],
    ['https://例え.jp/', 'xn--r8jz45g.jp'],
  ])('accepts %s (host %s)', (input, hostname) => {
    const verdict = checkHttpUrl(input);
    expect(verdict.ok && verdict.hostname).toBe(hostname);
  });

  it.each([
    'http://user:pass@example.com/',
    'https://token@example.com/',
    'http://:secret@example.com/',
    'http://example.com@127.0.0.1/',
    'HTTP://USER:PASS@EXAMPLE.COM/',
    'http://user:pass@[::1]/',
    'http://%75ser@example.com/',
  ])('refuses credentials: %s', (input) => {
    expect(problemOf(input)).toBe('credentials');
  });

  it.each([
    'file:///etc/passwd',
    'FILE:///C:/Windows/win.ini',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://example.com/file',
    'gopher://127.0.0.1:6379/_INFO',
    'ws://example.com/',
    'mailto:someone@example.com',
    'app://aivory/index.html',
  ])('refuses other schemes: %s', (input) => {
    expect(problemOf(input)).toBe('scheme');
  });

  it('judges the scheme before credentials', () => {
    expect(problemOf('ftp://user:pass@example.com/')).toBe('scheme');
  });

  it.each([
    '',
    'example.com',
    '/relative/path',
    'http://',
    'http://[::1/',
    'https://exa mple.com/',
  ])('refuses what is not an absolute URL: %j', (input) => {
    expect(problemOf(input)).toBe('invalid');
  });

  it('parses the text as it is (callers trim where they take typed text)', () => {
    expect(problemOf('  https://example.com/  ')).toBeNull();
    expect(problemOf('\u00a0https://example.com/')).toBe('invalid');
  });

  it('takes a URL object and hands back a copy', () => {
    const input = new URL('https://example.com/a');
    const verdict = checkHttpUrl(input);
    expect(verdict.ok).toBe(true);
    if (verdict.ok) {
      verdict.url.hash = 'x';
      expect(input.hash).toBe('');
    }
    expect(problemOf(new URL('https://u:p@example.com/'))).toBe('credentials');
  });

  it('refuses plain http when https is required', () => {
    expect(problemOf('http://example.com/meta', { allowHttp: false })).toBe('scheme');
    expect(problemOf('HTTPS://example.com/meta', { allowHttp: false })).toBeNull();
    expect(problemOf('https://u@example.com/meta', { allowHttp: false })).toBe('credentials');
  });

  it('allows plain http per URL when asked (a service on its own local host)', () => {
    const onlyLocal = { allowHttp: (url: URL) => url.hostname === 'mcp.lan' };
    expect(problemOf('http://mcp.lan/authorize', onlyLocal)).toBeNull();
    expect(problemOf('http://auth.example.com/authorize', onlyLocal)).toBe('scheme');
    expect(problemOf('https://auth.example.com/authorize', onlyLocal)).toBeNull();
    expect(problemOf('http://user:pass@mcp.lan/', onlyLocal)).toBe('credentials');
  });

  it('accepts further schemes only when named', () => {
    const links = { otherSchemes: ['mailto:'] };
    expect(problemOf('mailto:someone@example.com', links)).toBeNull();
    expect(problemOf('MAILTO:someone@example.com', links)).toBeNull();
    expect(problemOf('javascript:alert(1)', links)).toBe('scheme');
    expect(problemOf('https://user:pw@example.com/', links)).toBe('credentials');
  });
});

describe('the local-name list', () => {
  it.each([
    ['localhost', 'a loopback name'],
    ['LOCALHOST.', 'a loopback name'],
    ['api.localhost', 'a loopback name'],
    ['localhost.localdomain', 'a local name (.localdomain)'],
    ['printer.local', 'a link-local mDNS name (.local)'],
    ['NAS.Local.', 'a link-local mDNS name (.local)'],
    ['metadata.google.internal', 'a private-use name (.internal)'],
    ['host.docker.internal', 'a private-use name (.internal)'],
    ['router.lan', 'a home-network name (.lan)'],
    ['lan', 'a home-network name (.lan)'],
    ['router.home.arpa', 'a home-network name (.home.arpa)'],
  ])('%s is %s', (hostname, label) => {
    expect(localNameLabel(hostname)).toBe(label);
  });

  it.each(['example.com', 'plan', 'lan.example.com', 'localhost.example.com', 'example.locale'])(
    '%s is not a local name',
    (hostname) => {
      expect(localNameLabel(hostname)).toBeNull();
    },
  );
});

describe('loopback and bare host names', () => {
  it.each(['localhost', 'LocalHost.', 'dev.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each([
    '0.0.0.0',
    '10.0.0.1',
    '::',
    '[::2]',
    'example.com',
    '127.0.0.1.example.com',
    'router.lan',
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('strips the brackets of IPv6 literals and the trailing dots of names', () => {
    expect(bareHostname('[fe80::1]')).toBe('fe80::1');
    expect(bareHostname('example.com..')).toBe('example.com');
    expect(bareHostname('example.com')).toBe('example.com');
  });
});
