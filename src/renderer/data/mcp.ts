/**
 * MCP services through the host: the service list (`['mcp', 'list']`: cards, sign-in status, the
 * composer's picker, the model editor's defaults), per service its tools (`['mcp', 'tools', id]`),
 * the sync diff waiting to be accepted (`['mcp', 'diff', id]`), its prompts and resources
 * (`['mcp', 'library', id]`) and its shared folders (`['mcp', 'roots', id]`); the writes of the
 * MCP settings (add, edit, test, sync, accept, enable, sign-in, approvals, roots, import) and the
 * composer's one-off calls (a prompt's text, completions, reading and attaching resources,
 * watches). A write to a service reloads the list also when it failed (a failed test or sync
 * records the error on the service); host events reload what they announce (`query-cache.ts`).
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest, InvokeResponse } from '../../shared/ipc-contract';
import type { QueryKey } from './query-cache';
import { invalidate, queryCache } from './query-cache';
import type { SettingsView } from './settings';
import { setSettings } from './settings';

/** The services (secrets masked) and whether local command servers may be added. */
export type McpServiceList = InvokeResponse<'mcp.list'>;
/** One service as the host shows it. */
export type McpServiceView = McpServiceList['services'][number];
/** A sync's changes to the accepted tools. */
export type McpToolChanges = InvokeResponse<'mcp.diff'>;
/** A service's tools with their approval policy. */
export type McpToolRecords = InvokeResponse<'mcp.tools'>;
/** A service's prompts, resources and resource templates, and what the server offers. */
export type McpLibrary = InvokeResponse<'mcp.library'>;
/** A service's shared folders and the most it may have. */
export type McpRoots = InvokeResponse<'mcpRoots.list'>;
/** The `mcp` group of the settings (log levels, local commands, the OAuth metadata URL). */
export type McpSettingsValues = Extract<InvokeRequest<'settings.set'>, { key: 'mcp' }>['values'];

export const MCP_SERVICES_KEY = ['mcp', 'list'] as const;
export const mcpToolsKey = (id: string): QueryKey => ['mcp', 'tools', id];
export const mcpDiffKey = (id: string): QueryKey => ['mcp', 'diff', id];
export const mcpLibraryKey = (id: string): QueryKey => ['mcp', 'library', id];
export const mcpRootsKey = (id: string): QueryKey => ['mcp', 'roots', id];

/** Runs a write, then reloads `keys` whether it succeeded or not. */
async function thenReload<T>(bridge: AivoryBridge, keys: QueryKey[], write: Promise<T>) {
  try {
    return await write;
  } finally {
    await Promise.all(keys.map((key) => invalidate(bridge, key)));
  }
}

export function listMcpServices(bridge: AivoryBridge): Promise<McpServiceList> {
  return bridge.invoke('mcp.list');
}

/** Adds a service (untested, unsynced); `notice` warns of a local host. */
export function addMcpService(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.add'>,
): Promise<InvokeResponse<'mcp.add'>> {
  return thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.add', request));
}

/** Changes a service; a new address may answer with another library. */
export function updateMcpService(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.update'>,
): Promise<InvokeResponse<'mcp.update'>> {
  return thenReload(
    bridge,
    [MCP_SERVICES_KEY, mcpLibraryKey(request.id)],
    bridge.invoke('mcp.update', request),
  );
}

export async function removeMcpService(bridge: AivoryBridge, id: string): Promise<void> {
  await thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.remove', { id }));
}

/** Connects and lists the tools; the service records connected or the error. */
export function testMcpService(
  bridge: AivoryBridge,
  id: string,
): Promise<InvokeResponse<'mcp.test'>> {
  return thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.test', { id }));
}

/** Fetches the tool list as the latest snapshot; its diff replaces the cached one. */
export async function syncMcpService(
  bridge: AivoryBridge,
  id: string,
): Promise<InvokeResponse<'mcp.sync'>> {
  const result = await thenReload(
    bridge,
    [MCP_SERVICES_KEY, mcpToolsKey(id)],
    bridge.invoke('mcp.sync', { id }),
  );
  queryCache(bridge).set(mcpDiffKey(id), result.changes);
  return result;
}

/** Accepts the latest snapshot: nothing left to review, its tools callable. */
export async function acceptMcpTools(bridge: AivoryBridge, id: string): Promise<void> {
  await thenReload(
    bridge,
    [MCP_SERVICES_KEY, mcpToolsKey(id)],
    bridge.invoke('mcp.accept', { id }),
  );
  queryCache(bridge).set<McpToolChanges>(mcpDiffKey(id), []);
}

/** "Available to me" (refused until synced). */
export async function setMcpServiceEnabled(
  bridge: AivoryBridge,
  id: string,
  enabled: boolean,
): Promise<void> {
  await thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.setEnabled', { id, enabled }));
}

/** The changes of the latest snapshot to the accepted tools. */
export function mcpToolChanges(bridge: AivoryBridge, id: string): Promise<McpToolChanges> {
  return bridge.invoke('mcp.diff', { id });
}

export function listMcpTools(bridge: AivoryBridge, id: string): Promise<McpToolRecords> {
  return bridge.invoke('mcp.tools', { id });
}

/** Sets a tool's approval policy; the answer (the tools) replaces the cached list. */
export async function setMcpToolApproval(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.setApproval'>,
): Promise<McpToolRecords> {
  const tools = await bridge.invoke('mcp.setApproval', request);
  queryCache(bridge).set(mcpToolsKey(request.id), tools);
  return tools;
}

/** Signs in with OAuth (resolves when the user has finished in the browser). */
export function signInToMcpService(
  bridge: AivoryBridge,
  id: string,
): Promise<InvokeResponse<'mcp.login'>> {
  return thenReload(
    bridge,
    [MCP_SERVICES_KEY, mcpLibraryKey(id)],
    bridge.invoke('mcp.login', { id }),
  );
}

/** Signs out: the saved tokens are deleted. */
export async function signOutOfMcpService(bridge: AivoryBridge, id: string): Promise<void> {
  await thenReload(
    bridge,
    [MCP_SERVICES_KEY, mcpLibraryKey(id)],
    bridge.invoke('mcp.logout', { id }),
  );
}

/** Trusts (or stops trusting) another origin of the service's local host for its sign-in. */
export async function trustMcpSignInOrigin(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.trustSignInOrigin'>,
): Promise<void> {
  await thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.trustSignInOrigin', request));
}

/** Lets the service's sign-in use the authorization server its resource moved to. */
export async function approveMcpAuthServer(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.approveAuthServer'>,
): Promise<void> {
  await thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.approveAuthServer', request));
}

/** The `mcp` settings group; the new view replaces the cached settings. */
export async function setMcpSettings(
  bridge: AivoryBridge,
  values: McpSettingsValues,
): Promise<SettingsView> {
  const view = await setSettings(bridge, { key: 'mcp', values });
  // The service list carries whether local command servers may be added.
  if (values.allowLocalCommands !== undefined) await invalidate(bridge, MCP_SERVICES_KEY);
  return view;
}

export function listMcpRoots(bridge: AivoryBridge, id: string): Promise<McpRoots> {
  return bridge.invoke('mcpRoots.list', { id });
}

/** Shares a folder with the service; the answer replaces the cached roots. */
export async function addMcpRoot(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcpRoots.add'>,
): Promise<McpRoots> {
  const roots = await bridge.invoke('mcpRoots.add', request);
  queryCache(bridge).set(mcpRootsKey(request.id), roots);
  return roots;
}

export async function removeMcpRoot(
  bridge: AivoryBridge,
  id: string,
  path: string,
): Promise<McpRoots> {
  const roots = await bridge.invoke('mcpRoots.remove', { id, path });
  queryCache(bridge).set(mcpRootsKey(id), roots);
  return roots;
}

/** The desktop's folder dialog: the chosen folder, or null. */
export async function pickMcpRootFolder(bridge: AivoryBridge): Promise<string | null> {
  return (await bridge.invoke('mcpRoots.pickFolder', {})).path;
}

/** What a config would import (nothing is saved). */
export function planMcpImport(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.importPlan'>,
): Promise<InvokeResponse<'mcp.importPlan'>> {
  return bridge.invoke('mcp.importPlan', request);
}

/** Imports a config: each service added, tested and synced, its tools held for review. */
export function importMcpServices(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.import'>,
): Promise<InvokeResponse<'mcp.import'>> {
  return thenReload(bridge, [MCP_SERVICES_KEY], bridge.invoke('mcp.import', request));
}

/** The service's prompts, resources and templates (asked of the server). */
export function mcpLibrary(bridge: AivoryBridge, id: string): Promise<McpLibrary> {
  return bridge.invoke('mcp.library', { id });
}

/** A prompt's text with its arguments filled in. */
export async function getMcpPrompt(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.getPrompt'>,
): Promise<string> {
  return (await bridge.invoke('mcp.getPrompt', request)).text;
}

/** The server's suggestions for an argument as the user types. */
export async function completeMcpArgument(
  bridge: AivoryBridge,
  request: InvokeRequest<'mcp.complete'>,
): Promise<string[]> {
  return (await bridge.invoke('mcp.complete', request)).values;
}

/** A resource's text. */
export async function readMcpResource(
  bridge: AivoryBridge,
  id: string,
  uri: string,
): Promise<string> {
  return (await bridge.invoke('mcp.readResource', { id, uri })).text;
}

/** A resource as files to attach to the next message. */
export function attachMcpResource(
  bridge: AivoryBridge,
  id: string,
  uri: string,
): Promise<InvokeResponse<'mcp.attachResource'>> {
  return bridge.invoke('mcp.attachResource', { id, uri });
}

/** Watches a resource: each change is an `mcp.resourceUpdated` with the answered watch id. */
export async function watchMcpResource(
  bridge: AivoryBridge,
  id: string,
  uri: string,
): Promise<string> {
  return (await bridge.invoke('mcp.watchResource', { id, uri })).watchId;
}

export async function unwatchMcpResource(bridge: AivoryBridge, watchId: string): Promise<void> {
  await bridge.invoke('mcp.unwatchResource', { watchId });
}
