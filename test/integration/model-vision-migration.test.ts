/** Migration 008: a database from before it keeps its models (vision off) and can save vision. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';

describe('migration 008 (models.vision)', () => {
  it('upgrades a version-7 database in place; vision is off until saved on', () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-v7-'));
    try {
      const path = join(directory, 'old.db');
      const visionIndex = MIGRATIONS.findIndex((sql) => sql.includes('ADD COLUMN vision'));
      expect(visionIndex).toBe(7);
      const old = new Database(path);
      old.pragma('foreign_keys = ON');
      for (const sql of MIGRATIONS.slice(0, visionIndex)) old.exec(sql);
      old.pragma(`user_version = ${visionIndex}`);
      old.exec(`INSERT INTO models (id, label, base_url, model, tool_mode, context_window,
                  default_tools, api_key_ref, is_default)
                VALUES ('model_1', 'Old', 'http://127.0.0.1:9/v1', 'llava', 'native', 32768,
                  'null', NULL, 1)`);
      old.close();

      const store = openStore(path);
      try {
        expect(store.connectionInfo().schemaVersion).toBe(MIGRATIONS.length);
        const [model] = store.settings.listModels();
        expect(model).toMatchObject({ id: 'model_1', model: 'llava', isDefault: true });
        expect(model?.vision).toBeUndefined();
        if (!model) throw new Error('the model was lost');
        store.settings.saveModel({ ...model, vision: true });
        expect(store.settings.listModels()[0]?.vision).toBe(true);
        store.settings.saveModel({ ...model, vision: false });
        expect(store.settings.listModels()[0]?.vision).toBeUndefined();
      } finally {
        store.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
