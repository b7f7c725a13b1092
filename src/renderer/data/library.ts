/**
 * The personal library through the host: prompt templates (`['prompts']`), skills (`['skills']`)
 * and memories (`['memories']`). Each write reloads its list everywhere it is shown.
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest, InvokeResponse } from '../../shared/ipc-contract';
import { invalidate } from './query-cache';

export type PromptTemplate = InvokeResponse<'prompts.create'>;
export type SkillSummary = InvokeResponse<'skills.list'>[number];
export type SkillDetail = InvokeResponse<'skills.get'>;
export type MemoryView = InvokeResponse<'memories.list'>[number];

export const PROMPTS_KEY = ['prompts'] as const;
export const SKILLS_KEY = ['skills'] as const;
export const MEMORIES_KEY = ['memories'] as const;

export function listPrompts(bridge: AivoryBridge): Promise<InvokeResponse<'prompts.list'>> {
  return bridge.invoke('prompts.list');
}

/** Creates a template (`id` null) or updates the one with `id`. */
export async function savePrompt(
  bridge: AivoryBridge,
  id: string | null,
  fields: InvokeRequest<'prompts.create'>,
): Promise<void> {
  if (id === null) await bridge.invoke('prompts.create', fields);
  else await bridge.invoke('prompts.update', { id, ...fields });
  await invalidate(bridge, PROMPTS_KEY);
}

export async function deletePrompt(bridge: AivoryBridge, id: string): Promise<void> {
  await bridge.invoke('prompts.delete', { id });
  await invalidate(bridge, PROMPTS_KEY);
}

export function listSkills(bridge: AivoryBridge): Promise<SkillSummary[]> {
  return bridge.invoke('skills.list');
}

export function getSkill(bridge: AivoryBridge, name: string): Promise<SkillDetail> {
  return bridge.invoke('skills.get', { name });
}

export async function createSkill(
  bridge: AivoryBridge,
  request: InvokeRequest<'skills.create'>,
): Promise<InvokeResponse<'skills.create'>> {
  const created = await bridge.invoke('skills.create', request);
  await invalidate(bridge, SKILLS_KEY);
  return created;
}

export async function updateSkill(
  bridge: AivoryBridge,
  request: InvokeRequest<'skills.update'>,
): Promise<InvokeResponse<'skills.update'>> {
  const updated = await bridge.invoke('skills.update', request);
  await invalidate(bridge, SKILLS_KEY);
  return updated;
}

export async function deleteSkill(bridge: AivoryBridge, name: string): Promise<void> {
  await bridge.invoke('skills.delete', { name });
  await invalidate(bridge, SKILLS_KEY);
}

export async function putSkillAsset(
  bridge: AivoryBridge,
  request: InvokeRequest<'skills.putAsset'>,
): Promise<SkillDetail> {
  const detail = await bridge.invoke('skills.putAsset', request);
  await invalidate(bridge, SKILLS_KEY);
  return detail;
}

export async function deleteSkillAsset(
  bridge: AivoryBridge,
  request: InvokeRequest<'skills.deleteAsset'>,
): Promise<SkillDetail> {
  const detail = await bridge.invoke('skills.deleteAsset', request);
  await invalidate(bridge, SKILLS_KEY);
  return detail;
}

export function listMemories(bridge: AivoryBridge): Promise<MemoryView[]> {
  return bridge.invoke('memories.list');
}

/** One change to a memory: confirm a pending one, edit its text, archive / restore, delete. */
export type MemoryChange =
  | { kind: 'confirm' }
  | { kind: 'text'; text: string }
  | { kind: 'status'; status: InvokeRequest<'memories.setStatus'>['status'] }
  | { kind: 'delete' };

export async function changeMemory(
  bridge: AivoryBridge,
  id: string,
  change: MemoryChange,
): Promise<void> {
  if (change.kind === 'confirm') await bridge.invoke('memories.confirm', { id });
  else if (change.kind === 'text')
    await bridge.invoke('memories.update', { id, text: change.text });
  else if (change.kind === 'status') {
    await bridge.invoke('memories.setStatus', { id, status: change.status });
  } else await bridge.invoke('memories.delete', { id });
  await invalidate(bridge, MEMORIES_KEY);
}
