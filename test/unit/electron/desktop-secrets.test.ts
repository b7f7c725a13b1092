import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import type { SafeStorageLike } from '../../../src/main/electron/secret-storage';
import {
  createDesktopSecretStore,
  keychainStatus,
} from '../../../src/main/electron/secret-storage';

/** A fake `safeStorage`: reversible, with a chosen availability and Linux backend. */
function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike {
  return {
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString: (text) => Buffer.from(`enc(${text.split('').reverse().join('')})`),
    decryptString: (data) => {
      const text = data.toString();
      if (!text.startsWith('enc(')) throw new Error('foreign');
      return text.slice(4, -1).split('').reverse().join('');
    },
  };
}

const directories: string[] = [];
function dataDir(): string {
  const directory = mkdtempSync(join(tmpdir(), 'aivory-desktop-secrets-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

describe('keychain status (safeStorage backend → warning)', () => {
  it('a real keychain needs no warning', () => {
    expect(keychainStatus(fakeSafeStorage(), 'linux')).toEqual({
      protection: 'os-keychain',
      backend: 'gnome_libsecret',
      warning: null,
    });
    expect(keychainStatus(fakeSafeStorage({ backend: 'kwallet5' }), 'linux').warning).toBeNull();
  });

  it('Linux basic_text is called out: a fixed password is as good as plain text', () => {
    const status = keychainStatus(fakeSafeStorage({ backend: 'basic_text' }), 'linux');
    expect(status.protection).toBe('basic-text');
    expect(status.warning).toMatch(/No system keyring.*plain text/);
  });

  it('the backend is only asked on Linux (the call exists there only)', () => {
    const status = keychainStatus(fakeSafeStorage({ backend: 'basic_text' }), 'darwin');
    expect(status).toEqual({ protection: 'os-keychain', backend: null, warning: null });
  });

  it('no encryption at all is reported as unavailable, with the fix', () => {
    const status = keychainStatus(fakeSafeStorage({ available: false }), 'win32');
    expect(status.protection).toBe('unavailable');
    expect(status.warning).toMatch(/cannot be saved.*keyring/);
  });
});

describe('the desktop secret store (safeStorage over secrets.json)', () => {
  it('saves keys encrypted and reads them back; the file never holds the key', async () => {
    const directory = dataDir();
    const store = createDesktopSecretStore(fakeSafeStorage(), directory);
    await store.set('model:m1:api-key', 'sk-live-secret-value');
    expect(await store.get('model:m1:api-key')).toBe('sk-live-secret-value');
    const file = readFileSync(join(directory, 'secrets.json'), 'utf8');
    expect(file).toContain('os-encrypted:v1:');
    expect(file).not.toContain('sk-live-secret-value');
  });

  it('still reads a key the CLI saved in the same file', async () => {
    const directory = dataDir();
    await new FileSecretStore(join(directory, 'secrets.json')).set(
      'search.apiKey',
      'plain-cli-key',
    );
    const store = createDesktopSecretStore(fakeSafeStorage(), directory);
    expect(await store.get('search.apiKey')).toBe('plain-cli-key');
  });

  it('without a keychain, saving fails clearly and nothing is written in plain text', async () => {
    const directory = dataDir();
    const store = createDesktopSecretStore(fakeSafeStorage({ available: false }), directory);
    await expect(store.set('model:m1:api-key', 'sk-never-written')).rejects.toMatchObject({
      code: 'config',
      message: expect.stringMatching(/keychain is not available/),
    });
    expect(existsSync(join(directory, 'secrets.json'))).toBe(false);
  });

  it('a value encrypted by another keychain is a clear error, not garbage', async () => {
    const directory = dataDir();
    await new FileSecretStore(join(directory, 'secrets.json')).set(
      'model:m1:api-key',
      `os-encrypted:v1:${Buffer.from('other-machine').toString('base64')}`,
    );
    const store = createDesktopSecretStore(fakeSafeStorage(), directory);
    await expect(store.get('model:m1:api-key')).rejects.toMatchObject({ code: 'config' });
  });
});
