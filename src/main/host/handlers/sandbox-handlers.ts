/** `sandbox.resetWorkspace`: the service the CLI's `aivory sandbox reset-workspace` uses too. */
import { resetDamagedWorkspace } from '../../services/workspace-reset';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type SandboxHandlers = Pick<ApiHandlers, 'sandbox.resetWorkspace'>;

/** The sandbox handlers over the host context. */
export function createSandboxHandlers(context: HostContext): SandboxHandlers {
  const { app } = context;
  return {
    'sandbox.resetWorkspace': ({ conversationId }) =>
      resetDamagedWorkspace(
        { sandbox: app.sandbox, conversations: app.stores.conversations },
        conversationId,
      ),
  };
}
