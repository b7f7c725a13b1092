/**
 * The desktop app's secrets: Electron's `safeStorage` (the OS keychain) encrypts every value before
 * it reaches the owner-only secrets file, and the chosen keychain backend is judged for the user.
 * No Electron import here, so the policy is unit-tested under plain Node with a fake safeStorage.
 *
 * Policy:
 * - A working keychain (macOS Keychain, Windows DPAPI, GNOME libsecret, KWallet): values are saved
 *   encrypted (`os-encrypted:v1:` + base64 in `secrets.json`), decrypted only in the main process.
 * - Linux `basic_text` (no keyring found): Electron then encrypts with a hard-coded password, which
 *   is as good as plain text. Saving still works (the file stays owner-only, like the CLI's), but a
 *   warning is logged and shown in settings so the user can install or unlock a keyring.
 * - No encryption at all (`isEncryptionAvailable()` false): nothing is silently saved in plain
 *   text. Saving a key fails with a clear error naming the fix; keys saved by the CLI (plain, in
 *   the same 0600 file) are still read, so an existing setup keeps working.
 */
import { join } from 'node:path';
import type { OsCipher } from '../adapters/secrets/encrypted-secret-store';
import { EncryptedSecretStore } from '../adapters/secrets/encrypted-secret-store';
import { FileSecretStore } from '../adapters/secrets/file-secret-store';
import type { SecretStore } from '../core/ports';

/** The part of Electron's `safeStorage` the app uses (`getSelectedStorageBackend` is Linux-only). */
export interface SafeStorageLike extends OsCipher {
  getSelectedStorageBackend?(): string;
}

/** How well saved keys are protected on this machine. */
export type KeychainProtection = 'os-keychain' | 'basic-text' | 'unavailable';

/** The keychain verdict shown in the log and in settings. */
export interface KeychainStatus {
  protection: KeychainProtection;
  /** Linux: the backend safeStorage chose (`gnome_libsecret`, `kwallet5`, `basic_text`, …). */
  backend: string | null;
  /** A sentence for the user, or null when nothing is wrong. */
  warning: string | null;
}

/** Electron's name for the Linux fallback that encrypts with a hard-coded password. */
export const BASIC_TEXT_BACKEND = 'basic_text';

const UNAVAILABLE_WARNING =
  'No system keychain is available, so API keys and MCP headers cannot be saved from the app ' +
  '(keys saved with the aivory CLI are still used). Install or unlock a keyring (GNOME Keyring ' +
  'or KWallet) and restart Aivory.';

const BASIC_TEXT_WARNING =
  'No system keyring (GNOME Keyring or KWallet) was found: saved API keys are encrypted with a ' +
  'fixed password, which is as good as plain text (the file is readable only by your user). ' +
  'Install or unlock a keyring and restart Aivory to protect them.';

/**
 * Judges the keychain. Call it after Electron's `ready` (on Linux the backend is chosen then).
 * `platform` is a parameter so each platform's rule is tested anywhere.
 */
export function keychainStatus(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform,
): KeychainStatus {
  const backend =
    platform === 'linux' && safeStorage.getSelectedStorageBackend
      ? safeStorage.getSelectedStorageBackend()
      : null;
  if (!safeStorage.isEncryptionAvailable()) {
    return { protection: 'unavailable', backend, warning: UNAVAILABLE_WARNING };
  }
  if (backend === BASIC_TEXT_BACKEND) {
    return { protection: 'basic-text', backend, warning: BASIC_TEXT_WARNING };
  }
  return { protection: 'os-keychain', backend, warning: null };
}

/** The app's secret store: `safeStorage` over `<dataDir>/secrets.json` (shared with the CLI). */
export function createDesktopSecretStore(
  safeStorage: SafeStorageLike,
  dataDir: string,
): SecretStore {
  return new EncryptedSecretStore(new FileSecretStore(join(dataDir, 'secrets.json')), safeStorage);
}
