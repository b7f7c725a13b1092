/**
 * A SecretStore that encrypts every value with the operating system's keychain-backed cipher
 * before it reaches the inner store (the 0600 file). The desktop app passes Electron's
 * `safeStorage`, which has exactly this shape; this module never imports Electron itself, so it is
 * tested under plain Node with a stand-in cipher.
 */
import { AivoryError } from '../../../shared/errors';
import type { SecretStore } from '../../core/ports';

/** The part of Electron's `safeStorage` this store uses. */
export interface OsCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Marks values written by this store, so plain values from the CLI's file store are told apart. */
const PREFIX = 'os-encrypted:v1:';

export class EncryptedSecretStore implements SecretStore {
  constructor(
    private readonly inner: SecretStore,
    private readonly cipher: OsCipher,
  ) {}

  async get(ref: string): Promise<string | null> {
    const stored = await this.inner.get(ref);
    if (stored === null) return null;
    // A value saved by the CLI (plain, in the 0600 file) stays readable by the app.
    if (!stored.startsWith(PREFIX)) return stored;
    try {
      return this.cipher.decryptString(Buffer.from(stored.slice(PREFIX.length), 'base64'));
    } catch {
      throw new AivoryError(
        'config',
        `The saved secret "${ref}" cannot be decrypted with this system's keychain (was the data directory copied from another machine or user?). Enter it again.`,
      );
    }
  }

  async set(ref: string, value: string): Promise<void> {
    if (!this.cipher.isEncryptionAvailable()) {
      throw new AivoryError(
        'config',
        'The system keychain is not available, so the secret was not saved. Unlock or install a keyring (e.g. GNOME Keyring or KWallet) and try again.',
      );
    }
    const encrypted = this.cipher.encryptString(value).toString('base64');
    await this.inner.set(ref, `${PREFIX}${encrypted}`);
  }

  delete(ref: string): Promise<void> {
    return this.inner.delete(ref);
  }

  refs(): Promise<string[]> {
    return this.inner.refs();
  }
}
