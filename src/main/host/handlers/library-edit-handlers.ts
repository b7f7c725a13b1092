/**
 * Editing the library from settings: memories, skills (with optional assets, base64 over the
 * contract) and prompt templates, each through its service so every rule and message is the
 * CLI's.
 */
import type { Skill } from '../../../shared/dto';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import type { SkillAssetInput } from '../../core/ports';
import { MemoriesService } from '../../services/memories-service';
import { PromptsService } from '../../services/prompts-service';
import { secretWarning } from '../../services/skill-validation';
import { SkillsService } from '../../services/skills-service';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type LibraryEditMethod =
  | 'memories.update'
  | 'memories.setStatus'
  | 'memories.confirm'
  | 'memories.delete'
  | 'skills.get'
  | 'skills.create'
  | 'skills.update'
  | 'skills.delete'
  | 'skills.putAsset'
  | 'skills.deleteAsset'
  | 'prompts.create'
  | 'prompts.update'
  | 'prompts.delete';
type LibraryEditHandlers = Pick<ApiHandlers, LibraryEditMethod>;
type SkillDetail = InvokeResponse<'skills.get'>;

/** The library-editing handlers over the host context. */
export function createLibraryEditHandlers(context: HostContext): LibraryEditHandlers {
  const { stores, ids } = context.app;
  const memories = new MemoriesService(stores.memories);
  const skills = new SkillsService(stores.library);
  const prompts = new PromptsService(stores.library, ids);
  const detail = (skill: Skill): SkillDetail => skillDetail(skills, skill);
  return {
    'memories.update': ({ id, text }) => memories.edit(id, text),
    'memories.setStatus': ({ id, status }) => memories.setStatus(id, status),
    'memories.confirm': ({ id }) => memories.confirm(id),
    'memories.delete': ({ id }) => {
      memories.remove(id);
      return { ok: true };
    },
    'skills.get': ({ name }) => detail(skills.require(name)),
    'skills.create': ({ name, icon, whenToUse, instructions, assets }) =>
      detail(
        skills.create({
          name,
          whenToUse,
          instructions,
          ...(icon === undefined ? {} : { icon }),
          ...(assets ? { assets: assets.map(assetInput) } : {}),
        }),
      ),
    'skills.update': ({ name, changes }) =>
      detail(
        skills.update(name, {
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.icon === undefined ? {} : { icon: changes.icon }),
          ...(changes.whenToUse === undefined ? {} : { whenToUse: changes.whenToUse }),
          ...(changes.instructions === undefined ? {} : { instructions: changes.instructions }),
        }),
      ),
    'skills.delete': ({ name }) => ({ restoredBuiltIn: skills.remove(name) !== null }),
    'skills.putAsset': ({ skill, asset }) => {
      skills.putAsset(skill, assetInput(asset));
      return detail(skills.require(skill));
    },
    'skills.deleteAsset': ({ skill, asset }) => {
      skills.removeAsset(skill, asset);
      return detail(skills.require(skill));
    },
    'prompts.create': ({ title, body, tags }) =>
      prompts.create({ title, body, ...(tags ? { tags } : {}) }),
    'prompts.update': ({ id, title, body, tags }) =>
      prompts.update(id, {
        ...(title === undefined ? {} : { title }),
        ...(body === undefined ? {} : { body }),
        ...(tags === undefined ? {} : { tags }),
      }),
    'prompts.delete': ({ id }) => {
      prompts.remove(id);
      return { ok: true };
    },
  };
}

function assetInput(asset: { name: string; mime: string; dataBase64: string }): SkillAssetInput {
  return {
    name: asset.name,
    mime: asset.mime,
    data: new Uint8Array(Buffer.from(asset.dataBase64, 'base64')),
  };
}

function skillDetail(skills: SkillsService, skill: Skill): SkillDetail {
  return {
    name: skill.name,
    icon: skill.icon,
    whenToUse: skill.whenToUse,
    instructions: skill.instructions,
    builtIn: skill.builtIn,
    overridesBuiltIn: skills.overridesBuiltIn(skill),
    assets: skill.assets.map((asset) => ({
      name: asset.name,
      mime: asset.mime,
      size: asset.size,
      createdAt: asset.createdAt,
    })),
    secretWarning: secretWarning(`${skill.whenToUse}\n${skill.instructions}`),
    updatedAt: skill.updatedAt,
  };
}
