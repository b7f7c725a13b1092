/** Secrets (API keys) by reference: adapters/secrets/ (a file, or Electron safeStorage over it). */

/** Implementations never log values. */
export interface SecretStore {
  get(ref: string): Promise<string | null>;
  set(ref: string, value: string): Promise<void>;
  delete(ref: string): Promise<void>;
  /** Every stored reference (no values), for a backup that carries the secrets. */
  refs(): Promise<string[]>;
}
