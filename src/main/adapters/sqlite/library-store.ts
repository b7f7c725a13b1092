/**
 * The user's library in SQLite: skills with their assets, and prompt templates.
 * `SqliteStore` owns the connection and hands this out as its `library`. Writes that read
 * first run in one IMMEDIATE transaction, like the rest of the store. Checks of content (name
 * format, sizes) belong to the services; the tables only refuse what would corrupt them.
 */
import type { Statements } from './statements';
import type { PromptTemplate, Skill, SkillAsset } from '../../../shared/dto';
import { AivoryError } from '../../../shared/errors';
import type {
  Clock,
  LibraryStore,
  NewSkill,
  PromptTemplatePatch,
  SkillAssetInput,
  SkillPatch,
} from '../../core/ports';
import { SKILL_ASSET_COLUMNS, toPromptTemplate, toSkill } from './library-rows';
import type { PromptTemplateRow, SkillAssetRow, SkillRow } from './library-rows';
import { notFound } from './store-errors';

export class SqliteLibrary implements LibraryStore {
  constructor(
    private readonly sql: Statements,
    private readonly clock: Clock,
  ) {}

  /** By name, each with its asset metadata in name order. */
  listSkills(): Skill[] {
    const assetsBySkill = new Map<string, SkillAssetRow[]>();
    const assetRows = this.sql.all<SkillAssetRow>(
      `SELECT ${SKILL_ASSET_COLUMNS} FROM skill_assets ORDER BY skill_name, name`,
    );
    for (const row of assetRows) {
      const assets = assetsBySkill.get(row.skill_name) ?? [];
      assets.push(row);
      assetsBySkill.set(row.skill_name, assets);
    }
    return this.sql
      .all<SkillRow>('SELECT * FROM skills ORDER BY name')
      .map((row) => toSkill(row, assetsBySkill.get(row.name) ?? []));
  }

  getSkill(name: string): Skill | null {
    const row = this.sql.get<SkillRow>('SELECT * FROM skills WHERE name = ?', name);
    if (row === undefined) return null;
    const assets = this.sql.all<SkillAssetRow>(
      `SELECT ${SKILL_ASSET_COLUMNS} FROM skill_assets WHERE skill_name = ? ORDER BY name`,
      name,
    );
    return toSkill(row, assets);
  }

  /** Inserts the skill and its assets atomically; a taken name is an `invalid-input` error. */
  createSkill(input: NewSkill): Skill {
    return this.sql.write(() => {
      if (this.getSkill(input.name) !== null) throw nameTaken(input.name);
      const now = this.clock.now();
      this.sql.run(
        `INSERT INTO skills (name, icon, when_to_use, instructions, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        input.name,
        input.icon,
        input.whenToUse,
        input.instructions,
        now,
        now,
      );
      for (const asset of input.assets) this.insertAsset(input.name, asset, now);
      return this.requireSkill(input.name);
    });
  }

  /** Changes only the given fields and stamps `updated_at`; a rename carries the assets along. */
  updateSkill(name: string, patch: SkillPatch): Skill {
    return this.sql.write(() => {
      const current = this.requireSkill(name);
      const next = {
        name: patch.name ?? current.name,
        icon: patch.icon ?? current.icon,
        whenToUse: patch.whenToUse ?? current.whenToUse,
        instructions: patch.instructions ?? current.instructions,
      };
      if (next.name !== name && this.getSkill(next.name) !== null) throw nameTaken(next.name);
      this.sql.run(
        `UPDATE skills SET name = ?, icon = ?, when_to_use = ?, instructions = ?, updated_at = ?
         WHERE name = ?`,
        next.name,
        next.icon,
        next.whenToUse,
        next.instructions,
        this.clock.now(),
        name,
      );
      return this.requireSkill(next.name);
    });
  }

  deleteSkill(name: string): boolean {
    return this.sql.run('DELETE FROM skills WHERE name = ?', name).changes > 0;
  }

  /** Adds the asset or replaces the one of the same name, and stamps the skill's `updated_at`. */
  putSkillAsset(skillName: string, asset: SkillAssetInput): SkillAsset {
    return this.sql.write(() => {
      this.requireSkill(skillName);
      const now = this.clock.now();
      this.sql.run(
        'DELETE FROM skill_assets WHERE skill_name = ? AND name = ?',
        skillName,
        asset.name,
      );
      this.insertAsset(skillName, asset, now);
      this.sql.run('UPDATE skills SET updated_at = ? WHERE name = ?', now, skillName);
      return { name: asset.name, mime: asset.mime, size: asset.data.byteLength, createdAt: now };
    });
  }

  readSkillAsset(skillName: string, assetName: string): Uint8Array | null {
    const row = this.sql.get<{ data: Uint8Array }>(
      'SELECT data FROM skill_assets WHERE skill_name = ? AND name = ?',
      skillName,
      assetName,
    );
    return row === undefined ? null : new Uint8Array(row.data);
  }

  deleteSkillAsset(skillName: string, assetName: string): boolean {
    return this.sql.write(() => {
      const sql = 'DELETE FROM skill_assets WHERE skill_name = ? AND name = ?';
      if (this.sql.run(sql, skillName, assetName).changes === 0) return false;
      this.sql.run('UPDATE skills SET updated_at = ? WHERE name = ?', this.clock.now(), skillName);
      return true;
    });
  }

  /** Most recently changed first. */
  listPromptTemplates(): PromptTemplate[] {
    return this.sql
      .all<PromptTemplateRow>('SELECT * FROM prompt_templates ORDER BY updated_at DESC, rowid DESC')
      .map(toPromptTemplate);
  }

  getPromptTemplate(id: string): PromptTemplate | null {
    const row = this.sql.get<PromptTemplateRow>('SELECT * FROM prompt_templates WHERE id = ?', id);
    return row === undefined ? null : toPromptTemplate(row);
  }

  createPromptTemplate(
    input: Pick<PromptTemplate, 'id' | 'title' | 'body' | 'tags'>,
  ): PromptTemplate {
    const now = this.clock.now();
    this.sql.run(
      `INSERT INTO prompt_templates (id, title, body, tags, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      input.id,
      input.title,
      input.body,
      JSON.stringify(input.tags),
      now,
      now,
    );
    return { ...input, tags: [...input.tags], createdAt: now, updatedAt: now };
  }

  /** Changes only the given fields and stamps `updated_at`; throws `not-found`. */
  updatePromptTemplate(id: string, patch: PromptTemplatePatch): PromptTemplate {
    return this.sql.write(() => {
      const current = this.getPromptTemplate(id);
      if (current === null) throw notFound('Prompt template', id);
      const next: PromptTemplate = {
        ...current,
        title: patch.title ?? current.title,
        body: patch.body ?? current.body,
        tags: [...(patch.tags ?? current.tags)],
        updatedAt: this.clock.now(),
      };
      this.sql.run(
        'UPDATE prompt_templates SET title = ?, body = ?, tags = ?, updated_at = ? WHERE id = ?',
        next.title,
        next.body,
        JSON.stringify(next.tags),
        next.updatedAt,
        id,
      );
      return next;
    });
  }

  deletePromptTemplate(id: string): boolean {
    return this.sql.run('DELETE FROM prompt_templates WHERE id = ?', id).changes > 0;
  }

  private requireSkill(name: string): Skill {
    const skill = this.getSkill(name);
    if (skill === null) throw notFound('Skill', name);
    return skill;
  }

  private insertAsset(skillName: string, asset: SkillAssetInput, now: number): void {
    this.sql.run(
      `INSERT INTO skill_assets (skill_name, name, mime, size, data, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      skillName,
      asset.name,
      asset.mime,
      asset.data.byteLength,
      Buffer.from(asset.data.buffer, asset.data.byteOffset, asset.data.byteLength),
      now,
    );
  }
}

function nameTaken(name: string): AivoryError {
  return new AivoryError('invalid-input', `A skill named "${name}" already exists.`);
}
