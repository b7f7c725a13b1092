/** The export of every conversation (Settings → Data), over the bridge. */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeResponse } from '../../shared/ipc-contract';

/** Exports every conversation as a ZIP in the host's exports/ folder; resolves once it is whole. */
export function exportAllConversations(
  bridge: AivoryBridge,
  format: 'md' | 'json',
): Promise<InvokeResponse<'exports.all'>> {
  return bridge.invoke('exports.all', { format });
}

/** Stops the running export (its call then fails as canceled; nothing is kept). */
export async function cancelExportAll(bridge: AivoryBridge): Promise<void> {
  await bridge.invoke('exports.cancel', {});
}
