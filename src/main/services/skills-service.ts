/**
 * Skills: the user's reusable how-tos plus the built-in read-only `document-generation`. A user
 * skill with a built-in's name overrides it (seed: 管理员创建同名技能时会有意覆盖内置版本); removing
 * the override brings the built-in back. Every write is validated with a message for the user.
 */
import type { Skill, SkillAsset } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { SkillAssetInput, SkillStore } from '../core/ports';
import { BUILT_IN_DOCUMENT_GENERATION } from '../tools/document-generation-skill';
import {
  checkAssets,
  checkIcon,
  checkInstructions,
  checkSkillName,
  checkWhenToUse,
} from './skill-validation';

/** What the user gives to create a skill. `icon` defaults to none, `assets` to none. */
export interface SkillInput {
  name: string;
  icon?: string;
  whenToUse: string;
  instructions: string;
  assets?: SkillAssetInput[];
}

export type SkillChanges = Partial<Pick<Skill, 'name' | 'icon' | 'whenToUse' | 'instructions'>>;

/** The skills that ship with the app, each read-only. */
export const BUILT_IN_SKILLS: readonly Skill[] = [BUILT_IN_DOCUMENT_GENERATION];

function builtInNamed(name: string): Skill | null {
  const skill = BUILT_IN_SKILLS.find((candidate) => candidate.name === name);
  return skill === undefined ? null : { ...skill, assets: [] };
}

export class SkillsService {
  constructor(private readonly store: SkillStore) {}

  /** Every skill in effect, by name: the user's, and each built-in they do not override. */
  list(): Skill[] {
    const user = this.store.listSkills();
    const taken = new Set(user.map((skill) => skill.name));
    const builtIns = BUILT_IN_SKILLS.filter((skill) => !taken.has(skill.name)).map((skill) => ({
      ...skill,
      assets: [],
    }));
    return [...user, ...builtIns].sort((left, right) => left.name.localeCompare(right.name));
  }

  /** The skill in effect under `name` (the user's override first), or null. */
  get(name: string): Skill | null {
    return this.store.getSkill(name) ?? builtInNamed(name);
  }

  /** Like `get`, but an unknown name is a `not-found` error listing the known names. */
  require(name: string): Skill {
    const skill = this.get(name);
    if (skill !== null) return skill;
    const names = this.list().map((candidate) => candidate.name);
    throw new AivoryError('not-found', `No skill named "${name}". Skills: ${names.join(', ')}.`);
  }

  /** True when the user's skill `name` replaces a built-in one. */
  overridesBuiltIn(skill: Skill): boolean {
    return !skill.builtIn && builtInNamed(skill.name) !== null;
  }

  /**
   * Validates and stores a new user skill with its assets (one transaction). A built-in's name is
   * allowed and overrides it; a name the user already has is an `invalid-input` error.
   */
  create(input: SkillInput): Skill {
    checkSkillName(input.name);
    const whenToUse = checkWhenToUse(input.whenToUse);
    checkInstructions(input.instructions);
    const icon = checkIcon(input.icon ?? '');
    const assets = input.assets ?? [];
    checkAssets(assets);
    if (this.store.getSkill(input.name) !== null) {
      throw new AivoryError(
        'invalid-input',
        `A skill named "${input.name}" already exists. Remove it first or choose another name.`,
      );
    }
    return this.store.createSkill({
      name: input.name,
      icon,
      whenToUse,
      instructions: input.instructions,
      assets,
    });
  }

  /** Validates and applies the changes to a user skill; built-in skills are read-only. */
  update(name: string, changes: SkillChanges): Skill {
    this.requireUserSkill(name);
    if (changes.name !== undefined) checkSkillName(changes.name);
    if (changes.instructions !== undefined) checkInstructions(changes.instructions);
    return this.store.updateSkill(name, {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.icon === undefined ? {} : { icon: checkIcon(changes.icon) }),
      ...(changes.whenToUse === undefined ? {} : { whenToUse: checkWhenToUse(changes.whenToUse) }),
      ...(changes.instructions === undefined ? {} : { instructions: changes.instructions }),
    });
  }

  /**
   * Deletes a user skill with its assets. Returns the built-in skill that applies again when the
   * removed one overrode it, else null. Removing a built-in is an `invalid-input` error.
   */
  remove(name: string): Skill | null {
    this.requireUserSkill(name);
    this.store.deleteSkill(name);
    return builtInNamed(name);
  }

  /** Adds an asset to a user skill, or replaces its asset of the same name. */
  putAsset(skillName: string, asset: SkillAssetInput): SkillAsset {
    const skill = this.requireUserSkill(skillName);
    const replacing = skill.assets.some((existing) => existing.name === asset.name);
    checkAssets([asset], skill.assets.length - (replacing ? 1 : 0));
    return this.store.putSkillAsset(skillName, asset);
  }

  /** The asset's bytes; an unknown skill or asset is a `not-found` error. */
  readAsset(skillName: string, assetName: string): Uint8Array {
    const data = this.store.readSkillAsset(skillName, assetName);
    if (data === null) {
      throw new AivoryError('not-found', `Skill "${skillName}" has no asset "${assetName}".`);
    }
    return data;
  }

  removeAsset(skillName: string, assetName: string): void {
    this.requireUserSkill(skillName);
    if (!this.store.deleteSkillAsset(skillName, assetName)) {
      throw new AivoryError('not-found', `Skill "${skillName}" has no asset "${assetName}".`);
    }
  }

  /** The user's skill `name`; a built-in name gets the read-only message, others `not-found`. */
  private requireUserSkill(name: string): Skill {
    const skill = this.store.getSkill(name);
    if (skill !== null) return skill;
    if (builtInNamed(name) !== null) {
      throw new AivoryError(
        'invalid-input',
        `"${name}" is a built-in skill and cannot be changed or removed. To replace it, add a ` +
          'skill with the same name; it overrides the built-in one.',
      );
    }
    return this.require(name);
  }
}
