import { describe, expect, it } from 'vitest';
import { redactSecret, redactText } from '../../../src/main/policy/redact';

describe('redactSecret', () => {
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
