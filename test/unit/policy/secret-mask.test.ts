/** What the import plan masks: secrets by their name or by their look; the rest in clear. */
import { describe, expect, it } from 'vitest';
import { isSecretName, looksSecret, maskSecret } from '../../../src/main/policy/secret-mask';

describe('looksSecret', () => {
  it('masks by name: keys, tokens, passwords, auth headers, cookies', () => {
    for (const name of [
      'GITHUB_TOKEN',
      'OPENAI_API_KEY',
      'DB_PASSWORD',
      'PGPASS',
      'Authorization',
      'X-API-Key',
      'Cookie',
      'CLIENT_SECRET',
      'SENTRY_DSN',
    ])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ['MEMORY_FILE_PATH', 'NODE_OPTIONS', 'DEBUG', 'Accept-Language'])
      expect(isSecretName(name), name).toBe(false);
  });

  it('masks by value: API keys, bearer tokens, credentials in URLs, private keys', () => {
    expect(looksSecret('X', 'sk-abcdefghijklmnop')).toBe(true);
    expect(looksSecret('X', 'ghp_abcdefghijklmnop1234')).toBe(true);
    expect(looksSecret('X-Upstream', 'Bearer abc.def.ghi')).toBe(true);
    expect(looksSecret('DATABASE_URL', 'postgres://me:hunter2@db/app')).toBe(true);
    expect(looksSecret('CALLBACK', 'https://x.example/?token=abcdef')).toBe(true);
    expect(looksSecret('PEM', '-----BEGIN PRIVATE KEY-----')).toBe(true);
  });

  it('shows everything else in clear', () => {
    expect(looksSecret('MEMORY_FILE_PATH', '/home/me/memory.json')).toBe(false);
    expect(looksSecret('NODE_OPTIONS', '--import=data:text/javascript,evil()')).toBe(false);
    expect(looksSecret('URL', 'https://example.com/mcp')).toBe(false);
    expect(maskSecret('short')).toBe('••••');
  });
});
