import { describe, expect, it } from 'vitest';
import { redactSecrets, redactText } from '../../../src/main/policy/redact';

const redactSecret = (text: string, secret: string | null): string => redactSecrets(text, [secret]);

describe('redactSecrets', () => {
  it('replaces a long key wherever it occurs, inside words too', () => {
    const key = 'sk-abcdefghijklmnop';
    expect(redactSecret(`Incorrect API key: ${key}. x${key}y`, key)).toBe(
      'Incorrect API key: [redacted]. x[redacted]y',
    );
  });

  it('leaves the words around a 1-character key as they were', () => {
    const text = 'The server said: totalling 3 l of input exceeds the limit';
    expect(redactSecret(text, 'l')).toBe(
      'The server said: totalling 3 [redacted] of input exceeds the limit',
    );
    expect(redactSecret('tallying', 'l')).toBe('tallying');
  });

  it('replaces a short key that stands alone, at the edges and repeated', () => {
    expect(redactSecret('abc', 'abc')).toBe('[redacted]');
    expect(redactSecret('key abc, then abc.', 'abc')).toBe('key [redacted], then [redacted].');
    expect(redactSecret('abcabc abc', 'abc')).toBe('abcabc [redacted]');
  });

  it('keeps non-Latin words whole', () => {
    expect(redactSecret('密钥错误 钥', '钥')).toBe('密钥错误 [redacted]');
  });

  it('does nothing without a key', () => {
    expect(redactSecret('text', null)).toBe('text');
    expect(redactSecret('text', '')).toBe('text');
  });
});

describe('redactText', () => {
  it('redacts key-shaped strings and secret query parameters', () => {
    expect(redactText('key sk-1234567890abc and ?token=abcd1234&x=1')).toBe(
      'key [redacted] and ?token=[redacted]&x=1',
    );
  });
});

describe('redactSecrets with several secrets and a mark', () => {
  it('hides each as typed and as a URL carries it, the longest first', () => {
    const text = 'GET https://x.example/p/s3cr%2Ft-part-long?k=s3cr/t-part-long failed (s3cr)';
    expect(redactSecrets(text, ['s3cr/t-part-long', 's3cr'], '••••')).toBe(
      'GET https://x.example/p/••••?k=•••• failed (••••)',
    );
  });
});

describe('redactText: one list of what reads as a secret', () => {
  it('redacts provider keys, tokens in URLs, passwords in URLs and private keys', () => {
    expect(redactText('token ghp_abcdefghijklmnop1234 used')).toBe('token [redacted] used');
    expect(redactText('https://x.example/?token=abcdef&x=1')).toBe(
      'https://x.example/?token=[redacted]&x=1',
    );
    expect(redactText('postgres://me:hunter2@db/app')).toBe('postgres://me:[redacted]@db/app');
    expect(redactText('-----BEGIN RSA PRIVATE KEY-----')).toBe('[redacted]');
  });
});
