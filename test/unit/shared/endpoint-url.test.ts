/** The one rule for endpoint URLs (model base URL, search, images, sandbox). */
import { describe, expect, it } from 'vitest';
import { endpointUrlProblem } from '../../../src/shared/endpoint-url';

describe('endpointUrlProblem', () => {
  it('takes http(s) URLs, loopback and LAN included', () => {
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'https://api.openai.com/v1',
      'http://192.168.1.20:8080',
      'http://[::1]:8000/',
      ' https://searx.example.org/ ',
    ]) {
      expect(endpointUrlProblem(url), url).toBeNull();
    }
  });

  it('refuses other schemes, link-local hosts in any spelling, blanks inside and huge values', () => {
    for (const [url, problem] of [
      ['javascript:alert(1)', /uses javascript:/],
      ['file:///etc/passwd', /uses file:/],
      ['data:text/html,x', /uses data:/],
      ['localhost:11434', /uses localhost:/],
      ['not a url', /blanks or control/],
      ['', /is not a URL/],
      ['http://169.254.169.254/', /link-local/],
      ['http://0xa9fea9fe/', /link-local/],
      ['http://169.254.1/', /link-local/],
      ['http://[fe80::1%25eth0]/', /link-local|not a URL/],
      ['http://[febf::1]/', /link-local/],
      ['http://[::ffff:169.254.169.254]/', /link-local/],
      ['http://example.org/\u202e', /blanks or control/],
      [`http://example.org/${'a'.repeat(3000)}`, /at most 2048/],
    ] as const) {
      expect(endpointUrlProblem(url), url).toMatch(problem);
    }
  });
});
