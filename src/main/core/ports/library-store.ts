/** The user's library: skills (with their asset files) and prompt templates. */
import type { PromptTemplate, Skill, SkillAsset } from '../../../shared/dto';

/** A file to attach to a skill, with its bytes. */
export interface SkillAssetInput {
  name: string;
  mime: string;
  data: Uint8Array;
}

/** A new user skill with its assets, written in one transaction. */
export interface NewSkill {
  name: string;
  icon: string;
  whenToUse: string;
  instructions: string;
  assets: SkillAssetInput[];
}

/** Fields of a skill to change; `name` renames it (its assets follow). */
export type SkillPatch = Partial<Pick<Skill, 'name' | 'icon' | 'whenToUse' | 'instructions'>>;

export type PromptTemplatePatch = Partial<Pick<PromptTemplate, 'title' | 'body' | 'tags'>>;

export interface SkillStore {
  /** The user's skills (never the built-in one), by name, each with its asset metadata. */
  listSkills(): Skill[];
  getSkill(name: string): Skill | null;
  /** Inserts a skill and its assets in one transaction; a taken name is `invalid-input`. */
  createSkill(input: NewSkill): Skill;
  /** Throws `not-found` for an unknown skill and `invalid-input` when renaming onto a taken name. */
  updateSkill(name: string, patch: SkillPatch): Skill;
  /** Deletes the skill with its assets; returns false when there was no such skill. */
  deleteSkill(name: string): boolean;
  /** Adds an asset, or replaces the skill's asset of the same name. Throws `not-found`. */
  putSkillAsset(skillName: string, asset: SkillAssetInput): SkillAsset;
  /** The asset's bytes, or null when the skill or the asset does not exist. */
  readSkillAsset(skillName: string, assetName: string): Uint8Array | null;
  deleteSkillAsset(skillName: string, assetName: string): boolean;
}

export interface PromptTemplateStore {
  listPromptTemplates(): PromptTemplate[];
  getPromptTemplate(id: string): PromptTemplate | null;
  createPromptTemplate(
    input: Pick<PromptTemplate, 'id' | 'title' | 'body' | 'tags'>,
  ): PromptTemplate;
  /** Throws `not-found` when the template does not exist. */
  updatePromptTemplate(id: string, patch: PromptTemplatePatch): PromptTemplate;
  deletePromptTemplate(id: string): boolean;
}

/** Skills and prompt templates (adapters/sqlite/library-store.ts). */
export interface LibraryStore extends SkillStore, PromptTemplateStore {}

/** Where use_skill finds skills: the skills service (user skills over built-in ones). */
export interface SkillSource {
  get(name: string): Skill | null;
  list(): Skill[];
}
