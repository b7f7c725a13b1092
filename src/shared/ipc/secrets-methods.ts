/**
 * `secrets.status`: how saved API keys and MCP headers are protected on this machine, for the
 * settings page (the security anchors' "detect Linux basic_text and warn"). The renderer words
 * it in the user's language from `protection`.
 */
import { z } from 'zod';

/**
 * - `os-keychain`: the desktop app encrypts keys with the OS keychain (Keychain, DPAPI,
 *   libsecret, KWallet).
 * - `basic-text`: Linux without a keyring: Electron's fixed password, as good as plain text.
 * - `unavailable`: no encryption at all; the desktop app refuses to save keys.
 * - `file`: the browser host (and the CLI): keys in the owner-only (0600) secrets file.
 */
export const secretStorageStatusSchema = z.object({
  protection: z.enum(['os-keychain', 'basic-text', 'unavailable', 'file']),
  /** Linux: the safeStorage backend Electron chose (`gnome_libsecret`, `basic_text`, …). */
  backend: z.string().max(100).nullable(),
});

/** The status's TypeScript type. */
export type SecretStorageStatus = z.infer<typeof secretStorageStatusSchema>;

/** The secrets methods, spread into `invokeContract`. */
export const secretsMethods = {
  'secrets.status': {
    request: z.object({}).strict().optional(),
    response: secretStorageStatusSchema,
  },
};
