/** Saved models through the host (`['models']`): list, save, remove, check a server, discover. */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest, InvokeResponse } from '../../shared/ipc-contract';
import { invalidate } from './query-cache';

/** The saved models and the start-up model from the environment. */
export type ModelList = InvokeResponse<'models.list'>;
/** One saved model as the host shows it (key masked). */
export type ModelView = InvokeResponse<'models.save'>;
/** A server check's answer. */
export type ModelCheck = InvokeResponse<'models.test'>;

export const MODELS_KEY = ['models'] as const;

export function listModels(bridge: AivoryBridge): Promise<ModelList> {
  return bridge.invoke('models.list');
}

/** Saves a new or changed model; every list of models reloads. */
export async function saveModel(
  bridge: AivoryBridge,
  request: InvokeRequest<'models.save'>,
): Promise<ModelView> {
  const saved = await bridge.invoke('models.save', request);
  await invalidate(bridge, MODELS_KEY);
  return saved;
}

export async function deleteModel(bridge: AivoryBridge, id: string): Promise<void> {
  await bridge.invoke('models.delete', { id });
  await invalidate(bridge, MODELS_KEY);
}

/** Checks a server and lists its models (nothing is saved). */
export function testModelServer(
  bridge: AivoryBridge,
  request: InvokeRequest<'models.test'>,
): Promise<ModelCheck> {
  return bridge.invoke('models.test', request);
}

/** Model servers found on this machine (first-run setup). */
export function discoverModelServers(
  bridge: AivoryBridge,
): Promise<InvokeResponse<'models.discover'>> {
  return bridge.invoke('models.discover');
}
