/**
 * `secrets.status`: the protection of saved keys as the host knows it. The Electron shell passes
 * its safeStorage verdict; without one (the browser host) keys live in the 0600 secrets file.
 */
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type SecretsHandlers = Pick<ApiHandlers, 'secrets.status'>;

/** The secrets handlers over the host context. */
export function createSecretsHandlers(context: HostContext): SecretsHandlers {
  return {
    'secrets.status': () => context.secretStorage ?? { protection: 'file', backend: null },
  };
}
