import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { SqliteStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { MemoriesService } from '../../src/main/services/memories-service';
import {
  fillTemplate,
  PromptsService,
  templateVariables,
} from '../../src/main/services/prompts-service';
import { secretWarning } from '../../src/main/services/skill-validation';
import { SkillsService } from '../../src/main/services/skills-service';
import { skillsPromptSection } from '../../src/main/services/skills-prompt-section';
import { createUseSkillTool } from '../../src/main/tools/use-skill';
import { DOCUMENT_GENERATION_INSTRUCTIONS } from '../../src/main/tools/document-generation-skill';
import { AivoryError } from '../../src/shared/errors';

const context = {
  conversationId: null,
  signal: new AbortController().signal,
  logger: { debug() {}, info() {}, warn() {}, error() {} },
};

/** Runs `action` and returns the AivoryError it throws (failing when it throws nothing else). */
function errorOf(action: () => unknown): AivoryError {
  try {
    action();
  } catch (error) {
    if (error instanceof AivoryError) return error;
    throw error;
  }
  throw new Error('expected an AivoryError');
}

const valid = {
  name: 'weekly-report',
  whenToUse: 'Load when the user asks for the weekly status report.',
  instructions: '# Weekly report\n\n1. Collect.\n2. Summarise.',
};

describe('library services over a real store', () => {
  let directory: string;
  let store: SqliteStore;
  let skills: SkillsService;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'aivory-library-services-'));
    store = openStore(join(directory, 'aivory.db'));
    skills = new SkillsService(store.library);
  });
  afterEach(() => {
    store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('validation errors say what to change', () => {
    const cases: [Parameters<SkillsService['create']>[0], RegExp][] = [
      [{ ...valid, name: 'Weekly Report' }, /Skill name "Weekly Report" is not valid: use 1–64/],
      [{ ...valid, name: 'x'.repeat(65) }, /is not valid/],
      [{ ...valid, name: '' }, /is not valid/],
      [{ ...valid, whenToUse: '   ' }, /"When to use" is empty/],
      [{ ...valid, whenToUse: 'One.\nTwo.' }, /one sentence on one line/],
      [
        { ...valid, whenToUse: 'w'.repeat(301) },
        /301 characters; keep it to one sentence of at most 300/,
      ],
      [{ ...valid, instructions: '\n ' }, /instructions are empty/],
      [{ ...valid, instructions: '文'.repeat(70_000) }, /205.1 KiB; the limit is 200 KiB/],
      [{ ...valid, icon: 'a very long icon text' }, /short text or emoji/],
      [
        { ...valid, assets: [{ name: '../x.png', mime: 'image/png', data: new Uint8Array(1) }] },
        /Asset name "..\/x.png" is not valid/,
      ],
      [
        { ...valid, assets: [{ name: 'x.png', mime: 'png', data: new Uint8Array(1) }] },
        /invalid MIME type "png"/,
      ],
      [
        {
          ...valid,
          assets: [
            {
              name: 'big.bin',
              mime: 'application/octet-stream',
              data: new Uint8Array(10 * 1024 * 1024 + 1),
            },
          ],
        },
        /Asset "big.bin" is 10485761 bytes; the limit is 10485760 bytes per asset/,
      ],
      [
        {
          ...valid,
          assets: [
            { name: 'a.txt', mime: 'text/plain', data: new Uint8Array(1) },
            { name: 'a.txt', mime: 'text/plain', data: new Uint8Array(1) },
          ],
        },
        /given twice/,
      ],
      [
        {
          ...valid,
          assets: Array.from({ length: 21 }, (_, index) => ({
            name: `${index}.txt`,
            mime: 'text/plain',
            data: new Uint8Array(1),
          })),
        },
        /at most 20 assets/,
      ],
    ];
    for (const [input, message] of cases) {
      const error = errorOf(() => skills.create(input));
      expect(error.code).toBe('invalid-input');
      expect(error.message).toMatch(message);
    }
    expect(store.library.listSkills()).toEqual([]);
    const created = skills.create({ ...valid, icon: ' 📊 ', whenToUse: `  ${valid.whenToUse} ` });
    expect(created).toMatchObject({ icon: '📊', whenToUse: valid.whenToUse });
    expect(errorOf(() => skills.create(valid)).message).toMatch(/already exists/);
  });

  it('the built-in skill is always present and read-only; a same-named user skill overrides it', async () => {
    expect(skills.list().map((skill) => [skill.name, skill.builtIn])).toEqual([
      ['document-generation', true],
    ]);
    expect(errorOf(() => skills.remove('document-generation')).message).toMatch(
      /built-in skill and cannot be changed or removed/,
    );
    expect(errorOf(() => skills.update('document-generation', { icon: 'x' })).code).toBe(
      'invalid-input',
    );

    const override = skills.create({
      name: 'document-generation',
      whenToUse: 'Load before any company document.',
      instructions: 'Use the company template.',
    });
    expect(skills.overridesBuiltIn(override)).toBe(true);
    expect(skills.list()).toEqual([override]);
    expect(skills.get('document-generation')?.instructions).toBe('Use the company template.');
    const useSkill = createUseSkillTool({ skills });
    const output = await useSkill.execute({ name: 'document-generation' }, context);
    expect(output.content).toBe('Use the company template.');
    expect(
      skillsPromptSection({ skills: skills.list(), useSkillOffered: false, pythonOffered: true }),
    ).toBe('Use the company template.');

    expect(skills.remove('document-generation')?.builtIn).toBe(true);
    const restored = await useSkill.execute({ name: 'document-generation' }, context);
    expect(restored.content).toBe(DOCUMENT_GENERATION_INSTRUCTIONS);
    expect(skills.list().map((skill) => skill.builtIn)).toEqual([true]);
  });

  it('use_skill over the service: assets listed, unknown names listed with the built-in', async () => {
    skills.create({
      ...valid,
      assets: [{ name: 'template.docx', mime: 'application/zip', data: new Uint8Array(3) }],
    });
    const useSkill = createUseSkillTool({ skills });
    const output = await useSkill.execute({ name: 'weekly-report' }, context);
    expect(output.content).toBe(
      `${valid.instructions}\n\nAssets attached to this skill:\n- template.docx (application/zip, 3 bytes)`,
    );
    const unknown = await useSkill.execute({ name: 'monthly' }, context);
    expect(unknown).toEqual({
      content: 'Unknown skill "monthly". Available skills: document-generation, weekly-report.',
      isError: true,
    });
    expect(errorOf(() => skills.require('monthly')).code).toBe('not-found');
  });

  it('update, assets and remove on a user skill', () => {
    skills.create(valid);
    expect(skills.update('weekly-report', { icon: '🗓' }).icon).toBe('🗓');
    expect(errorOf(() => skills.update('weekly-report', { name: 'Bad' })).message).toMatch(
      /not valid/,
    );
    skills.putAsset('weekly-report', {
      name: 'a.csv',
      mime: 'text/csv',
      data: new Uint8Array([65]),
    });
    expect(skills.readAsset('weekly-report', 'a.csv')).toEqual(new Uint8Array([65]));
    skills.removeAsset('weekly-report', 'a.csv');
    expect(errorOf(() => skills.readAsset('weekly-report', 'a.csv')).code).toBe('not-found');
    expect(skills.remove('weekly-report')).toBeNull();
    expect(errorOf(() => skills.remove('weekly-report')).code).toBe('not-found');
  });

  it('secretWarning flags key-looking text only', () => {
    expect(secretWarning('Call the API with sk-abcdefghijklmnop1234')).toMatch(/contains a secret/);
    expect(secretWarning('Use password=hunter22 to log in')).toMatch(/contains a secret/);
    expect(secretWarning(valid.instructions)).toBeNull();
  });

  it('prompt templates: validation, variables, fill, CRUD', () => {
    let next = 0;
    const prompts = new PromptsService(store.library, { next: (prefix) => `${prefix}_${++next}` });
    expect(errorOf(() => prompts.create({ title: ' ', body: 'b' })).message).toBe(
      'The prompt title is empty.',
    );
    expect(errorOf(() => prompts.create({ title: 't', body: '' })).message).toBe(
      'The prompt body is empty.',
    );
    expect(
      errorOf(() => prompts.create({ title: 't', body: 'x'.repeat(20 * 1024 + 1) })).message,
    ).toMatch(/20481 bytes; the limit is 20480 bytes/);
    expect(errorOf(() => prompts.create({ title: 't', body: 'b', tags: ['a,b'] })).message).toMatch(
      /no commas/,
    );
    const created = prompts.create({
      title: ' Translate ',
      body: 'Translate {{ text }} into {{语言}}. Keep {{text}} short; {{not a var}}.',
      tags: [' work ', 'work', '', 'language'],
    });
    expect(created).toMatchObject({
      id: 'prompt_1',
      title: 'Translate',
      tags: ['work', 'language'],
      variables: ['text', '语言'],
    });
    expect(templateVariables('no placeholders')).toEqual([]);
    expect(fillTemplate(created.body, { text: 'hello', unused: 'x' })).toBe(
      'Translate hello into {{语言}}. Keep hello short; {{not a var}}.',
    );
    expect(prompts.update('prompt_1', { body: 'Hi {{name}}' }).variables).toEqual(['name']);
    expect(prompts.list().map((template) => template.id)).toEqual(['prompt_1']);
    prompts.remove('prompt_1');
    expect(errorOf(() => prompts.get('prompt_1')).code).toBe('not-found');
    expect(errorOf(() => prompts.remove('prompt_1')).code).toBe('not-found');
  });

  it('memories: list newest first, edit, archive and restore, delete', () => {
    const memories = new MemoriesService(store.memories);
    for (const [id, text] of [
      ['mem_1', 'Likes tea'],
      ['mem_2', 'Lives in Lyon'],
    ]) {
      store.memories.saveMemory({
        id: id ?? '',
        memoryText: text ?? '',
        slot: null,
        value: null,
        conversationId: null,
      });
    }
    expect(memories.list().map((memory) => memory.id)).toEqual(['mem_2', 'mem_1']);
    expect(memories.edit('mem_1', '  Likes green tea ').memoryText).toBe('Likes green tea');
    expect(errorOf(() => memories.edit('mem_1', ' ')).code).toBe('invalid-input');
    expect(errorOf(() => memories.edit('mem_1', 'x'.repeat(2001))).message).toMatch(
      /longer than 2000/,
    );
    expect(errorOf(() => memories.edit('ghost', 'text')).code).toBe('not-found');
    expect(memories.setStatus('mem_1', 'ARCHIVED').status).toBe('ARCHIVED');
    expect(memories.setStatus('mem_1', 'ACTIVE').status).toBe('ACTIVE');
    memories.remove('mem_2');
    expect(errorOf(() => memories.remove('mem_2')).code).toBe('not-found');
    expect(store.memories.listMemories().map((memory) => memory.memoryText)).toEqual([
      'Likes green tea',
    ]);
  });
});
