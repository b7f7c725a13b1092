/** Secrets (API keys) by reference: adapters/secrets/ (a file, or Electron safeStorage over it). */

/** Implementations never log values. */
export interface SecretStore {
  get(ref: string): Promise<string | null>;
  set(ref: string, value: string): Promise<void>;
  delete(ref: string): Promise<void>;
}
