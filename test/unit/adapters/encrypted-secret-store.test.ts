import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OsCipher } from '../../../src/main/adapters/secrets/encrypted-secret-store';
import { EncryptedSecretStore } from '../../../src/main/adapters/secrets/encrypted-secret-store';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';

/** A stand-in for safeStorage: XOR with a key, so the file never holds the plain text. */
function fakeCipher(key: number, available = true): OsCipher {
  const xor = (buffer: Buffer) => Buffer.from(buffer.map((byte) => byte ^ key));
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plainText) => xor(Buffer.from(plainText, 'utf8')),
    decryptString: (encrypted) => {
      const text = xor(encrypted).toString('utf8');
      if (!text.startsWith('sk-')) throw new Error('bad key');
      return text;
    },
  };
}

function files() {
  const path = join(mkdtempSync(join(tmpdir(), 'aivory-enc-')), 'secrets.json');
  return { path, inner: new FileSecretStore(path) };
}

describe('EncryptedSecretStore', () => {
  it('stores only ciphertext and reads it back', async () => {
    const { path, inner } = files();
    const store = new EncryptedSecretStore(inner, fakeCipher(0x5a));
    await store.set('model:1', 'sk-live-abcdefghijkl');
    expect(readFileSync(path, 'utf8')).not.toContain('abcdefghijkl');
    expect(await store.get('model:1')).toBe('sk-live-abcdefghijkl');
    await store.delete('model:1');
    expect(await store.get('model:1')).toBeNull();
  });

  it('still reads plain values the CLI saved in the same file', async () => {
    const { inner } = files();
    await inner.set('model:cli', 'sk-plain-value-1234');
    expect(await new EncryptedSecretStore(inner, fakeCipher(1)).get('model:cli')).toBe(
      'sk-plain-value-1234',
    );
  });

  it('refuses to save without a keychain, and says what to do when decryption fails', async () => {
    const { inner } = files();
    await expect(
      new EncryptedSecretStore(inner, fakeCipher(1, false)).set('a', 'sk-x'),
    ).rejects.toThrow(/keychain is not available/);
    await new EncryptedSecretStore(inner, fakeCipher(7)).set('b', 'sk-secret-value');
    const error = await new EncryptedSecretStore(inner, fakeCipher(9))
      .get('b')
      .catch((caught: unknown) => caught);
    expect(String(error)).toMatch(/cannot be decrypted/);
    expect(String(error)).not.toContain('sk-secret-value');
  });
});
