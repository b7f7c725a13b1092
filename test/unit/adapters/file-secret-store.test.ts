import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import { maskSecret } from '../../../src/main/policy/secret-mask';

const POSIX = process.platform !== 'win32';
const SECRET = 'sk-proj-THIS-IS-A-VERY-SECRET-VALUE-1234';

function fileMode(path: string): number {
  return statSync(path).mode & 0o777;
}

async function errorMessageOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    return error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
  }
  throw new Error('expected the action to fail');
}

describe('FileSecretStore', () => {
  let directory: string;
  let filePath: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-secrets-'));
    filePath = join(directory, 'nested', 'secrets.json');
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('sets, gets, overwrites and deletes secrets, persisting them in the file', async () => {
    const store = new FileSecretStore(filePath);
    expect(await store.get('openai')).toBeNull();

    await store.set('openai', SECRET);
    await store.set('anthropic', 'second');
    expect(await store.get('openai')).toBe(SECRET);
    expect(JSON.parse(readFileSync(filePath, 'utf8'))).toEqual({
      openai: SECRET,
      anthropic: 'second',
    });

    await store.set('openai', 'rotated');
    expect(await new FileSecretStore(filePath).get('openai')).toBe('rotated');

    await store.delete('openai');
    await store.delete('never-existed');
    expect(await store.get('openai')).toBeNull();
    expect(JSON.parse(readFileSync(filePath, 'utf8'))).toEqual({ anthropic: 'second' });
    // No temp files are left behind by the atomic writes.
    expect(readdirSync(join(directory, 'nested'))).toEqual(['secrets.json']);
  });

  it('keeps every update when calls overlap', async () => {
    const store = new FileSecretStore(filePath);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => store.set(`key-${index}`, `value-${index}`)),
    );
    const stored: unknown = JSON.parse(readFileSync(filePath, 'utf8'));
    expect(Object.keys(stored ?? {})).toHaveLength(20);
  });

  it('lists its references, sorted, without values (a backup reads them to seal the secrets)', async () => {
    const store = new FileSecretStore(filePath);
    expect(await store.refs()).toEqual([]);
    await store.set('zeta', SECRET);
    await store.set('alpha', 'other');
    expect(await store.refs()).toEqual(['alpha', 'zeta']);
    await store.delete('zeta');
    expect(await store.refs()).toEqual(['alpha']);
  });

  it('refuses an empty reference', async () => {
    await expect(new FileSecretStore(filePath).set('', SECRET)).rejects.toThrow(/empty/);
  });

  it.runIf(POSIX)('writes the file with mode 0600 inside a 0700 directory it creates', async () => {
    const store = new FileSecretStore(filePath);
    await store.set('openai', SECRET);
    expect(fileMode(filePath)).toBe(0o600);
    expect(fileMode(join(directory, 'nested'))).toBe(0o700);
    chmodSync(filePath, 0o640);
    await store.set('other', 'x');
    expect(fileMode(filePath)).toBe(0o600);
  });

  it.runIf(POSIX)(
    'fixes a pre-existing group/other-readable file to 0600 when reading it',
    async () => {
      writeFileSync(join(directory, 'secrets.json'), JSON.stringify({ openai: SECRET }), {
        mode: 0o644,
      });
      chmodSync(join(directory, 'secrets.json'), 0o644);
      const store = new FileSecretStore(join(directory, 'secrets.json'));
      expect(await store.get('openai')).toBe(SECRET);
      expect(fileMode(join(directory, 'secrets.json'))).toBe(0o600);
    },
  );

  it('never puts secret values in error messages', async () => {
    const corruptPath = join(directory, 'secrets.json');
    writeFileSync(corruptPath, `{"openai": "${SECRET}", oops`, { mode: 0o600 });
    const corrupt = await errorMessageOf(() => new FileSecretStore(corruptPath).get('openai'));
    expect(corrupt).toMatch(/not valid JSON/);
    expect(corrupt).not.toContain('VERY-SECRET');

    writeFileSync(corruptPath, JSON.stringify({ openai: SECRET, count: 3 }), { mode: 0o600 });
    const wrongType = await errorMessageOf(() => new FileSecretStore(corruptPath).get('openai'));
    expect(wrongType).toMatch(/non-string value for "count"/);
    expect(wrongType).not.toContain('VERY-SECRET');

    writeFileSync(corruptPath, JSON.stringify([SECRET]), { mode: 0o600 });
    const notObject = await errorMessageOf(() => new FileSecretStore(corruptPath).set('x', SECRET));
    expect(notObject).toMatch(/not a JSON object/);
    expect(notObject).not.toContain('VERY-SECRET');
  });

  it('reports an unwritable location without the value', async () => {
    // A regular file where the directory should be: fails for root too (unlike a chmod).
    const notADirectory = join(directory, 'not-a-directory');
    writeFileSync(notADirectory, 'plain file');
    const store = new FileSecretStore(join(notADirectory, 'secrets.json'));
    const message = await errorMessageOf(() => store.set('openai', SECRET));
    expect(message).toMatch(/could not be (read|written).*ENOTDIR/);
    expect(message).not.toContain('VERY-SECRET');
  });
});

describe('maskSecret', () => {
  it('shows the first 3 and last 4 characters of a long secret', () => {
    expect(maskSecret('sk-1234567890abcd')).toBe('sk-…abcd');
    expect(maskSecret('abcdefghijkl')).toBe('abc…ijkl');
    expect(maskSecret(SECRET)).not.toContain('SECRET');
  });

  it('hides short secrets entirely', () => {
    expect(maskSecret('abcdefghijk')).toBe('••••');
    expect(maskSecret('')).toBe('••••');
  });
});
