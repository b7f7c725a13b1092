/**
 * `tools.setAvailability` (the global switch of a built-in tool) and `sandbox.status` (the code
 * sandbox's status line of settings → tools).
 */
import { AivoryError } from '../../../shared/errors';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { createLibraryHandlers } from './library-handlers';

type SettingsPageHandlers = Pick<ApiHandlers, 'tools.setAvailability' | 'sandbox.status'>;

/** The settings-page handlers over the host context. */
export function createSettingsPageHandlers(context: HostContext): SettingsPageHandlers {
  const toolStatus = createLibraryHandlers(context)['tools.status'];
  return {
    'tools.setAvailability': async ({ name, enabled }, sender) => {
      const known = await toolStatus(undefined, sender);
      if (!known.some((tool) => tool.name === name)) {
        throw new AivoryError('not-found', `No built-in tool named "${name}".`);
      }
      context.app.stores.settings.setToolAvailability(name, enabled);
      return toolStatus(undefined, sender);
    },
    'sandbox.status': async () => {
      const { status } = await context.app.sandbox.resolve();
      if (status.state === 'unavailable') {
        return { state: status.state, url: null, reason: status.reason };
      }
      return { state: status.state, url: status.url, reason: null };
    },
  };
}
