/**
 * Row shapes of the skills, skill assets and prompt templates tables (migration 002) and their
 * mapping to the shared DTOs. A JSON column that does not hold what it should fails loudly.
 */
import { z } from 'zod';
import { AivoryError } from '../../../shared/errors';
import type { PromptTemplate, Skill, SkillAsset } from '../../../shared/dto';

export interface SkillRow {
  name: string;
  icon: string;
  when_to_use: string;
  instructions: string;
  created_at: number;
  updated_at: number;
}

/** The metadata columns of skill_assets (listing never reads `data`). */
export interface SkillAssetRow {
  skill_name: string;
  name: string;
  mime: string;
  size: number;
  created_at: number;
}

export interface PromptTemplateRow {
  id: string;
  title: string;
  body: string;
  tags: string;
  created_at: number;
  updated_at: number;
}

/** The skill_assets columns that `SkillAssetRow` holds, for SELECT lists. */
export const SKILL_ASSET_COLUMNS = 'skill_name, name, mime, size, created_at';

const tagsSchema = z.lazy(() => z.array(z.string()));

export function toSkillAsset(row: SkillAssetRow): SkillAsset {
  return { name: row.name, mime: row.mime, size: row.size, createdAt: row.created_at };
}

/** A user skill from its row and its asset rows (already in name order). */
export function toSkill(row: SkillRow, assets: readonly SkillAssetRow[]): Skill {
  return {
    name: row.name,
    icon: row.icon,
    whenToUse: row.when_to_use,
    instructions: row.instructions,
    assets: assets.map(toSkillAsset),
    builtIn: false,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toPromptTemplate(row: PromptTemplateRow): PromptTemplate {
  let tags: unknown;
  try {
    tags = JSON.parse(row.tags);
  } catch {
    tags = null;
  }
  const parsed = tagsSchema.safeParse(tags);
  if (!parsed.success) {
    throw new AivoryError(
      'internal',
      'The stored value of prompt_templates.tags is not valid; the database may be damaged.',
    );
  }
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    tags: parsed.data,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
