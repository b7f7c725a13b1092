/**
 * Settings through the host: the settings view (`['settings']`), the built-in tools' switches
 * (`['tools']`), the sandbox's and the key store's status. Writes answer with the new state, which
 * goes straight into the cache.
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest, InvokeResponse } from '../../shared/ipc-contract';
import { invalidate, queryCache } from './query-cache';

/** The settings view (secrets masked). */
export type SettingsView = InvokeResponse<'settings.get'>;
/** A built-in tool's switch and availability. */
export type ToolStatus = InvokeResponse<'tools.status'>[number];

export const SETTINGS_KEY = ['settings'] as const;
export const TOOLS_KEY = ['tools'] as const;
export const SANDBOX_STATUS_KEY = ['sandbox', 'status'] as const;
export const SECRETS_STATUS_KEY = ['secrets', 'status'] as const;

/** The app's status at start-up (version, whether a model is set up). */
export function appStatus(bridge: AivoryBridge): Promise<InvokeResponse<'app.status'>> {
  return bridge.invoke('app.status');
}

export function getSettings(bridge: AivoryBridge): Promise<SettingsView> {
  return bridge.invoke('settings.get');
}

/** Saves one group of settings; the answer (the new view) replaces the cached one. */
export async function setSettings(
  bridge: AivoryBridge,
  patch: InvokeRequest<'settings.set'>,
): Promise<SettingsView> {
  const view = await bridge.invoke('settings.set', patch);
  queryCache(bridge).set(SETTINGS_KEY, view);
  // A backend's address or switch decides whether its tool is available.
  await invalidate(bridge, TOOLS_KEY);
  return view;
}

/** Saves (or with null clears) a group's key; the answer replaces the cached view. */
export async function setSettingsKey(
  bridge: AivoryBridge,
  request: InvokeRequest<'settings.setKey'>,
): Promise<SettingsView> {
  const view = await bridge.invoke('settings.setKey', request);
  queryCache(bridge).set(SETTINGS_KEY, view);
  // A search or images key decides whether a tool is available.
  await invalidate(bridge, TOOLS_KEY);
  return view;
}

export function toolStatuses(bridge: AivoryBridge): Promise<ToolStatus[]> {
  return bridge.invoke('tools.status');
}

/** Switches a built-in tool on or off everywhere; the answer replaces the cached list. */
export async function setToolAvailability(
  bridge: AivoryBridge,
  name: string,
  enabled: boolean,
): Promise<ToolStatus[]> {
  const tools = await bridge.invoke('tools.setAvailability', { name, enabled });
  queryCache(bridge).set(TOOLS_KEY, tools);
  return tools;
}

export function sandboxStatus(bridge: AivoryBridge): Promise<InvokeResponse<'sandbox.status'>> {
  return bridge.invoke('sandbox.status');
}

export function secretsStatus(bridge: AivoryBridge): Promise<InvokeResponse<'secrets.status'>> {
  return bridge.invoke('secrets.status');
}
