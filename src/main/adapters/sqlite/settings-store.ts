/**
 * Settings (JSON values by key), model configurations and the global tool switches in SQLite,
 * for `SqliteStore`.
 */
import type { ModelConfig } from '../../../shared/dto';
import type { SettingsStore } from '../../core/ports';
import { toModelConfig } from './row-mapping';
import type { ModelRow } from './row-mapping';
import type { Statements } from './statements';

export class SqliteSettings implements SettingsStore {
  constructor(private readonly sql: Statements) {}

  /** The JSON value stored under `key`, or undefined when there is none. */
  getSetting(key: string): unknown {
    const row = this.sql.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', key);
    if (row === undefined) return undefined;
    const value: unknown = JSON.parse(row.value);
    return value;
  }

  /** Stores `value` as JSON; `undefined` removes the key, so `getSetting` returns undefined. */
  setSetting(key: string, value: unknown): void {
    if (value === undefined) {
      this.sql.run('DELETE FROM settings WHERE key = ?', key);
      return;
    }
    this.sql.run(
      `INSERT INTO settings (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      JSON.stringify(value),
    );
  }

  /** One IMMEDIATE transaction: no other process writes `key` between the read and the write. */
  swapSetting(key: string, decide: (current: unknown) => { next: unknown } | null): boolean {
    return this.sql.write(() => {
      const decided = decide(this.getSetting(key));
      if (decided === null) return false;
      this.setSetting(key, decided.next);
      return true;
    });
  }

  /** In the order they were first saved. */
  listModels(): ModelConfig[] {
    return this.sql.all<ModelRow>('SELECT * FROM models ORDER BY rowid').map(toModelConfig);
  }

  /** Inserts or updates by id. Saving a default model makes every other model non-default. */
  saveModel(model: ModelConfig): void {
    this.sql.write(() => {
      if (model.isDefault) {
        this.sql.run('UPDATE models SET is_default = 0 WHERE is_default = 1 AND id != ?', model.id);
      }
      this.sql.run(
        `INSERT INTO models (id, label, base_url, model, tool_mode, context_window, default_tools,
           default_mcp_services, api_key_ref, is_default, vision, defaults)
         VALUES (@id, @label, @baseUrl, @model, @toolMode, @contextWindow, @defaultTools,
           @defaultMcpServices, @apiKeyRef, @isDefault, @vision, @defaults)
         ON CONFLICT (id) DO UPDATE SET label = excluded.label, base_url = excluded.base_url,
           model = excluded.model, tool_mode = excluded.tool_mode,
           context_window = excluded.context_window, default_tools = excluded.default_tools,
           default_mcp_services = excluded.default_mcp_services,
           api_key_ref = excluded.api_key_ref, is_default = excluded.is_default,
           vision = excluded.vision, defaults = excluded.defaults`,
        {
          ...model,
          defaultTools: JSON.stringify(model.defaultTools),
          defaultMcpServices:
            model.defaultMcpServices == null ? null : JSON.stringify(model.defaultMcpServices),
          isDefault: model.isDefault ? 1 : 0,
          vision: model.vision === true ? 1 : 0,
          defaults: JSON.stringify(model.defaults ?? {}),
        },
      );
    });
  }

  deleteModel(id: string): void {
    this.sql.run('DELETE FROM models WHERE id = ?', id);
  }

  /** Only tools whose availability was set appear; callers apply their own default. */
  getToolAvailability(): Record<string, boolean> {
    const rows = this.sql.all<{ tool_name: string; enabled: number }>(
      'SELECT tool_name, enabled FROM tool_availability ORDER BY tool_name',
    );
    return Object.fromEntries(rows.map((row) => [row.tool_name, row.enabled === 1]));
  }

  setToolAvailability(name: string, enabled: boolean): void {
    this.sql.run(
      `INSERT INTO tool_availability (tool_name, enabled) VALUES (?, ?)
       ON CONFLICT (tool_name) DO UPDATE SET enabled = excluded.enabled`,
      name,
      enabled ? 1 : 0,
    );
  }
}
