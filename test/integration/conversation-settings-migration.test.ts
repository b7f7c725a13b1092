/**
 * Migration 011 (conversation settings): a database at version 9 keeps its conversations, models
 * and turn records, which read with no settings / defaults; settings, model defaults and a turn's
 * left-out count then round-trip, and a damaged settings value is reported as damaged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/main/adapters/sqlite/migrations';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { AivoryError } from '../../src/shared/errors';

describe('migration 011 (conversation settings)', () => {
  it('upgrades a version-9 database in place and round-trips the new fields', () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-v9-'));
    try {
      const path = join(directory, 'old.db');
      const usageIndex = MIGRATIONS.findIndex((sql) => sql.includes('ADD COLUMN usage'));
      const settingsIndex = MIGRATIONS.findIndex((sql) => sql.includes('ADD COLUMN settings'));
      expect(usageIndex).toBe(8);
      expect(settingsIndex).toBeGreaterThan(usageIndex);
      const old = new Database(path);
      old.pragma('foreign_keys = ON');
      for (const sql of MIGRATIONS.slice(0, usageIndex + 1)) old.exec(sql);
      old.pragma(`user_version = ${usageIndex + 1}`);
      old.exec(`INSERT INTO models (id, label, base_url, model, tool_mode, context_window,
                  default_tools, api_key_ref, is_default)
                VALUES ('model_1', 'Old', 'http://127.0.0.1:9/v1', 'qwen', 'native', 32768,
                  'null', NULL, 1);
                INSERT INTO conversations (id, title, model_id, created_at, updated_at)
                VALUES ('conv_1', 'Old chat', 'model_1', 1, 1);
                INSERT INTO messages (id, conversation_id, role, status, created_at, updated_at)
                VALUES ('msg_1', 'conv_1', 'assistant', 'complete', 1, 1);
                INSERT INTO turn_records (id, conversation_id, message_id, model_id, stop_reason,
                  tool_calls, provider_rounds, started_at, duration_ms, usage)
                VALUES ('turn_1', 'conv_1', 'msg_1', 'model_1', 'completed', '{}', 1, 1, 5,
                  '{"inputTokens":12,"outputTokens":3}');`);
      old.close();

      const store = openStore(path);
      try {
        expect(store.connectionInfo().schemaVersion).toBe(MIGRATIONS.length);
        expect(store.conversations.getConversation('conv_1')).toMatchObject({
          title: 'Old chat',
          settings: {},
        });
        const [model] = store.settings.listModels();
        if (!model) throw new Error('the model was lost');
        expect(model.defaults).toBeUndefined();
        const [record] = store.conversations.listTurnRecords('conv_1');
        expect(record?.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
        expect(record?.omittedMessages).toBeUndefined();

        const settings = {
          systemPrompt: { kind: 'text' as const, text: 'Be brief.' },
          temperature: 0.4,
          contextPolicy: { kind: 'messages' as const, count: 10 },
        };
        store.conversations.setConversationSettings('conv_1', settings);
        expect(store.conversations.getConversation('conv_1')?.settings).toEqual(settings);
        store.settings.saveModel({ ...model, defaults: { topP: 0.8, maxOutputTokens: 256 } });
        expect(store.settings.listModels()[0]?.defaults).toEqual({
          topP: 0.8,
          maxOutputTokens: 256,
        });
        store.settings.saveModel({ ...model, defaults: {} });
        expect(store.settings.listModels()[0]?.defaults).toBeUndefined();
        if (!record) throw new Error('the record was lost');
        store.conversations.saveTurnRecord({ ...record, omittedMessages: 4 });
        expect(store.conversations.listTurnRecords('conv_1')[0]?.omittedMessages).toBe(4);
        expect(() => store.conversations.setConversationSettings('missing', {})).toThrow(
          AivoryError,
        );
      } finally {
        store.close();
      }

      // A value out of bounds (written by something else) is damage, not a setting.
      const raw = new Database(path);
      raw.exec(`UPDATE conversations SET settings = '{"temperature":9}' WHERE id = 'conv_1'`);
      raw.close();
      const reopened = openStore(path);
      try {
        expect(() => reopened.conversations.getConversation('conv_1')).toThrow(/damaged/);
      } finally {
        reopened.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
