/**
 * The MCP reads other pages show (`['mcp', …]`): the service list the model editor offers as
 * defaults. The MCP settings themselves (`features/mcp/`) still call the bridge on their own
 * (a named exception of the fence in eslint-layers.js).
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeResponse } from '../../shared/ipc-contract';

export const MCP_SERVICES_KEY = ['mcp', 'list'] as const;

/** The configured MCP services. */
export async function listMcpServices(
  bridge: AivoryBridge,
): Promise<InvokeResponse<'mcp.list'>['services']> {
  return (await bridge.invoke('mcp.list')).services;
}
