import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { AivoryError } from '../../src/shared/errors';
import migration001 from '../../src/main/adapters/sqlite/migrations/001_initial';

function manualClock(start = 1_000) {
  let now = start;
  return {
    now: () => now,
    advance: (milliseconds: number) => {
      now += milliseconds;
    },
  };
}

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

describe('SqliteStore: skills, prompt templates and memory edits', () => {
  let directory: string;
  let databasePath: string;
  let store: SqliteStore;
  let clock: ReturnType<typeof manualClock>;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-library-'));
    databasePath = join(directory, 'aivory.db');
    clock = manualClock();
    store = openStore(databasePath, { clock });
  });
  afterEach(() => {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a skill with assets round-trips through a reopened file; asset bytes are read apart', () => {
    const logo = new Uint8Array([0, 1, 2, 255, 254]);
    const created = store.library.createSkill({
      name: 'brand-deck',
      icon: '🎨',
      whenToUse: 'Load before making a slide deck in the company style.',
      instructions: '# Brand\n\n使用公司模板。',
      assets: [
        { name: 'logo.png', mime: 'image/png', data: logo },
        { name: 'colors.json', mime: 'application/json', data: bytes('{"primary":"#0f172a"}') },
      ],
    });
    expect(created).toEqual({
      name: 'brand-deck',
      icon: '🎨',
      whenToUse: 'Load before making a slide deck in the company style.',
      instructions: '# Brand\n\n使用公司模板。',
      assets: [
        { name: 'colors.json', mime: 'application/json', size: 21, createdAt: 1_000 },
        { name: 'logo.png', mime: 'image/png', size: 5, createdAt: 1_000 },
      ],
      builtIn: false,
      createdAt: 1_000,
      updatedAt: 1_000,
    });
    store.close();
    store = openStore(databasePath, { clock });
    expect(store.library.getSkill('brand-deck')).toEqual(created);
    expect(store.library.listSkills()).toEqual([created]);
    expect(store.library.readSkillAsset('brand-deck', 'logo.png')).toEqual(logo);
    expect(store.library.readSkillAsset('brand-deck', 'missing.png')).toBeNull();
    expect(store.library.getSkill('nope')).toBeNull();
  });

  it('a taken name is refused and nothing of the second skill is written', () => {
    const input = { name: 'alpha', icon: '', whenToUse: 'When.', instructions: 'Do.', assets: [] };
    store.library.createSkill(input);
    expect(() =>
      store.library.createSkill({
        ...input,
        assets: [{ name: 'a.txt', mime: 'text/plain', data: bytes('x') }],
      }),
    ).toThrow(/already exists/);
    expect(store.library.getSkill('alpha')?.assets).toEqual([]);
  });

  it('the table refuses malformed names even if a caller skips validation', () => {
    expect(() =>
      store.library.createSkill({
        name: 'Bad Name',
        icon: '',
        whenToUse: 'w',
        instructions: 'i',
        assets: [],
      }),
    ).toThrow(/CHECK constraint/);
  });

  it('update changes only the given fields; a rename carries the assets; delete cascades', () => {
    store.library.createSkill({
      name: 'alpha',
      icon: 'A',
      whenToUse: 'When alpha.',
      instructions: 'Alpha steps.',
      assets: [{ name: 'notes.md', mime: 'text/markdown', data: bytes('# notes') }],
    });
    store.library.createSkill({
      name: 'beta',
      icon: '',
      whenToUse: 'b',
      instructions: 'b',
      assets: [],
    });
    clock.advance(500);
    const updated = store.library.updateSkill('alpha', {
      whenToUse: 'When the alpha report is due.',
    });
    expect(updated).toMatchObject({
      icon: 'A',
      whenToUse: 'When the alpha report is due.',
      instructions: 'Alpha steps.',
      createdAt: 1_000,
      updatedAt: 1_500,
    });
    expect(() => store.library.updateSkill('alpha', { name: 'beta' })).toThrow(/already exists/);
    expect(() => store.library.updateSkill('ghost', { icon: 'x' })).toThrow(AivoryError);
    const renamed = store.library.updateSkill('alpha', { name: 'gamma' });
    expect(renamed.assets.map((asset) => asset.name)).toEqual(['notes.md']);
    expect(store.library.readSkillAsset('gamma', 'notes.md')).toEqual(bytes('# notes'));
    expect(store.library.getSkill('alpha')).toBeNull();

    expect(store.library.deleteSkill('gamma')).toBe(true);
    expect(store.library.deleteSkill('gamma')).toBe(false);
    expect(store.library.readSkillAsset('gamma', 'notes.md')).toBeNull();
    const database = new Database(databasePath, { readonly: true });
    try {
      const row = database.prepare('SELECT count(*) AS count FROM skill_assets').get();
      expect(row).toEqual({ count: 0 });
    } finally {
      database.close();
    }
  });

  it('putSkillAsset adds or replaces by name and stamps the skill; deleteSkillAsset removes', () => {
    store.library.createSkill({
      name: 'alpha',
      icon: '',
      whenToUse: 'w',
      instructions: 'i',
      assets: [],
    });
    clock.advance(10);
    store.library.putSkillAsset('alpha', { name: 'a.txt', mime: 'text/plain', data: bytes('one') });
    clock.advance(10);
    const replaced = store.library.putSkillAsset('alpha', {
      name: 'a.txt',
      mime: 'text/plain',
      data: bytes('three'),
    });
    expect(replaced).toEqual({ name: 'a.txt', mime: 'text/plain', size: 5, createdAt: 1_020 });
    expect(store.library.getSkill('alpha')?.assets).toEqual([replaced]);
    expect(store.library.getSkill('alpha')?.updatedAt).toBe(1_020);
    expect(store.library.readSkillAsset('alpha', 'a.txt')).toEqual(bytes('three'));
    expect(() =>
      store.library.putSkillAsset('ghost', { name: 'a', mime: 'text/plain', data: bytes('') }),
    ).toThrow(/does not exist/);
    expect(store.library.deleteSkillAsset('alpha', 'a.txt')).toBe(true);
    expect(store.library.deleteSkillAsset('alpha', 'a.txt')).toBe(false);
    expect(store.library.getSkill('alpha')?.assets).toEqual([]);
  });

  it('prompt templates: create, list newest change first, update, delete', () => {
    const first = store.library.createPromptTemplate({
      id: 'prompt_1',
      title: 'Translate',
      body: 'Translate {{text}} into {{language}}.',
      tags: ['language'],
    });
    clock.advance(5);
    store.library.createPromptTemplate({
      id: 'prompt_2',
      title: 'Summarise',
      body: 'Summarise.',
      tags: [],
    });
    expect(store.library.listPromptTemplates().map((template) => template.id)).toEqual([
      'prompt_2',
      'prompt_1',
    ]);
    expect(store.library.getPromptTemplate('prompt_1')).toEqual(first);
    clock.advance(5);
    const updated = store.library.updatePromptTemplate('prompt_1', { tags: ['language', 'work'] });
    expect(updated).toEqual({ ...first, tags: ['language', 'work'], updatedAt: 1_010 });
    expect(store.library.getPromptTemplate('prompt_1')).toEqual(updated);
    expect(store.library.listPromptTemplates()[0]?.id).toBe('prompt_1');
    expect(() => store.library.updatePromptTemplate('nope', { title: 'x' })).toThrow(
      /does not exist/,
    );
    expect(store.library.deletePromptTemplate('prompt_1')).toBe(true);
    expect(store.library.deletePromptTemplate('prompt_1')).toBe(false);
    expect(store.library.getPromptTemplate('prompt_1')).toBeNull();
  });

  it('memories: get, edit text, change status, delete', () => {
    const saved = store.memories.saveMemory({
      id: 'mem_1',
      memoryText: 'Likes tea',
      slot: 'drink',
      value: 'tea',
      conversationId: null,
    });
    expect(store.memories.getMemory('mem_1')).toEqual(saved);
    expect(store.memories.updateMemory('mem_1', { memoryText: 'Likes green tea' })).toEqual({
      ...saved,
      memoryText: 'Likes green tea',
    });
    expect(store.memories.updateMemory('mem_1', { status: 'ARCHIVED' })).toMatchObject({
      memoryText: 'Likes green tea',
      status: 'ARCHIVED',
      slot: 'drink',
    });
    expect(store.memories.listMemories()).toEqual([store.memories.getMemory('mem_1')]);
    expect(() => store.memories.updateMemory('ghost', { status: 'ACTIVE' })).toThrow(
      /does not exist/,
    );
    expect(store.memories.deleteMemory('mem_1')).toBe(true);
    expect(store.memories.deleteMemory('mem_1')).toBe(false);
    expect(store.memories.getMemory('mem_1')).toBeNull();
  });
});

describe('migration 002', () => {
  it('applies to a database created by migration 001 alone, keeping its data', () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-migrate-'));
    const databasePath = join(directory, 'aivory.db');
    try {
      const old = new Database(databasePath);
      old.exec(migration001);
      old.pragma('user_version = 1');
      old
        .prepare(
          `INSERT INTO memories (id, memory_text, slot, value, status, created_at, conversation_id)
           VALUES ('mem_old', 'Prefers metric units', NULL, NULL, 'ACTIVE', 5, NULL)`,
        )
        .run();
      old.close();

      const store = openStore(databasePath);
      try {
        expect(store.connectionInfo().schemaVersion).toBeGreaterThanOrEqual(2);
        expect(store.memories.listMemories().map((memory) => memory.memoryText)).toEqual([
          'Prefers metric units',
        ]);
        expect(store.library.listSkills()).toEqual([]);
        expect(store.library.listPromptTemplates()).toEqual([]);
        store.library.createSkill({
          name: 'alpha',
          icon: '',
          whenToUse: 'w',
          instructions: 'i',
          assets: [],
        });
        expect(store.library.getSkill('alpha')?.name).toBe('alpha');
      } finally {
        store.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
