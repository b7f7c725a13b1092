import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_DOCUMENT_GENERATION,
  DOCUMENT_GENERATION_INSTRUCTIONS,
  DOCUMENT_GENERATION_NAME,
  DOCUMENT_GENERATION_WHEN_TO_USE,
} from '../../../src/main/tools/document-generation-skill';
import {
  MAX_INDEXED_SKILLS,
  MAX_INLINE_SKILL_BYTES,
  MAX_SKILLS_INDEX_BYTES,
  SKILLS_INDEX_HEADER,
  skillIndexLine,
  skillsPromptSection,
} from '../../../src/main/services/skills-prompt-section';
import { buildSystemPrompt } from '../../../src/main/services/system-prompt';
import { readSeed, seedBetween, TOOL_PROTOCOL_SEED } from '../../support/seed';

const seed = readSeed(TOOL_PROTOCOL_SEED);
/** The index line the seed shows to models with progressive loading (支持渐进加载的模型看到：). */
const SEED_INDEX_LINE = seedBetween(seed, '支持渐进加载的模型看到：', '没有 use_skill 的模型');
/** The exact body given to models without use_skill (准确正文如下：). */
const SEED_BODY = seedBetween(seed, '准确正文如下：', '管理员创建同名技能时');

function userSkill(name: string, whenToUse = `Use when the task is about ${name}.`) {
  return { name, whenToUse, instructions: `# ${name}\n\nSteps.` };
}

describe('the built-in document-generation skill is the seed text, byte for byte', () => {
  it('index line', () => {
    expect(SEED_INDEX_LINE.startsWith('document-generation: MUST load this')).toBe(true);
    expect(`${DOCUMENT_GENERATION_NAME}: ${DOCUMENT_GENERATION_WHEN_TO_USE}`).toBe(SEED_INDEX_LINE);
    expect(skillIndexLine(BUILT_IN_DOCUMENT_GENERATION)).toBe(SEED_INDEX_LINE);
  });

  it('body', () => {
    expect(SEED_BODY.startsWith('## Document-generation recipes')).toBe(true);
    expect(SEED_BODY.endsWith('(up to 3 attempts).')).toBe(true);
    expect(DOCUMENT_GENERATION_INSTRUCTIONS).toBe(SEED_BODY);
    expect(BUILT_IN_DOCUMENT_GENERATION).toMatchObject({
      name: 'document-generation',
      instructions: SEED_BODY,
      builtIn: true,
    });
  });
});

describe('skillsPromptSection', () => {
  it('with use_skill and python: the index, with the seed line for the built-in skill first', () => {
    const section = skillsPromptSection({
      skills: [userSkill('weekly-report'), userSkill('alpha')],
      useSkillOffered: true,
      pythonOffered: true,
    });
    expect(section.split('\n')).toEqual([
      SKILLS_INDEX_HEADER,
      SEED_INDEX_LINE,
      'alpha: Use when the task is about alpha.',
      'weekly-report: Use when the task is about weekly-report.',
    ]);
    expect(section).not.toContain('## Document-generation recipes');
  });

  it('with use_skill but no python: user skills only (the built-in needs python_execute)', () => {
    expect(
      skillsPromptSection({
        skills: [userSkill('alpha')],
        useSkillOffered: true,
        pythonOffered: false,
      }),
    ).toBe(`${SKILLS_INDEX_HEADER}\nalpha: Use when the task is about alpha.`);
    expect(skillsPromptSection({ skills: [], useSkillOffered: true, pythonOffered: false })).toBe(
      '',
    );
  });

  it('without use_skill but with python: exactly the full fixed body, no index', () => {
    const section = skillsPromptSection({
      skills: [userSkill('alpha')],
      useSkillOffered: false,
      pythonOffered: true,
    });
    expect(section).toBe(SEED_BODY);
  });

  it('without use_skill and without python: nothing', () => {
    expect(
      skillsPromptSection({
        skills: [userSkill('alpha')],
        useSkillOffered: false,
        pythonOffered: false,
      }),
    ).toBe('');
  });

  it('a user skill named document-generation overrides the built-in in both forms', () => {
    const override = {
      name: 'document-generation',
      whenToUse: 'Load before making any company document.',
      instructions: 'Use the company template.',
    };
    const index = skillsPromptSection({
      skills: [override],
      useSkillOffered: true,
      pythonOffered: true,
    });
    expect(index).toContain('document-generation: Load before making any company document.');
    expect(index).not.toContain(SEED_INDEX_LINE);
    const inline = skillsPromptSection({
      skills: [override],
      useSkillOffered: false,
      pythonOffered: true,
    });
    expect(inline).toBe('Use the company template.');
  });

  it('entries marked built-in are not taken for overrides', () => {
    const section = skillsPromptSection({
      skills: [{ ...BUILT_IN_DOCUMENT_GENERATION, whenToUse: 'tampered' }],
      useSkillOffered: true,
      pythonOffered: true,
    });
    expect(section).toBe(`${SKILLS_INDEX_HEADER}\n${SEED_INDEX_LINE}`);
  });

  it('the index keeps at most 50 skills and notes how many it left out', () => {
    const skills = Array.from({ length: 70 }, (_, index) =>
      userSkill(`s${String(index).padStart(2, '0')}`, 'Short.'),
    );
    const section = skillsPromptSection({ skills, useSkillOffered: true, pythonOffered: false });
    const lines = section.split('\n');
    expect(lines.filter((line) => line.endsWith(': Short.'))).toHaveLength(MAX_INDEXED_SKILLS);
    expect(lines.at(-1)).toBe('(20 more skills not listed.)');
    expect(Buffer.byteLength(section)).toBeLessThanOrEqual(MAX_SKILLS_INDEX_BYTES);
  });

  it('the index stays within 4 KB with long lines, the built-in line kept first', () => {
    const skills = Array.from({ length: 40 }, (_, index) =>
      userSkill(`skill-${String(index).padStart(2, '0')}`, `长${'很'.repeat(290)}。`),
    );
    const section = skillsPromptSection({ skills, useSkillOffered: true, pythonOffered: true });
    expect(Buffer.byteLength(section)).toBeLessThanOrEqual(MAX_SKILLS_INDEX_BYTES);
    const lines = section.split('\n');
    expect(lines[1]).toBe(SEED_INDEX_LINE);
    const listed = lines.filter((line) => line.startsWith('skill-')).length;
    expect(listed).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`(${40 - listed} more skills not listed.)`);
  });

  it('an oversized override body is cut at 16 KB with a marker', () => {
    const override = {
      name: 'document-generation',
      whenToUse: 'Load before documents.',
      instructions: '文'.repeat(20_000),
    };
    const inline = skillsPromptSection({
      skills: [override],
      useSkillOffered: false,
      pythonOffered: true,
    });
    expect(Buffer.byteLength(inline)).toBeLessThanOrEqual(MAX_INLINE_SKILL_BYTES);
    expect(inline).toMatch(/^文+\n\[… the rest of this skill is cut/);
  });

  it('buildSystemPrompt places the section after the base prompt and before memories', () => {
    const section = skillsPromptSection({ skills: [], useSkillOffered: true, pythonOffered: true });
    const prompt = buildSystemPrompt({
      now: Date.UTC(2025, 0, 2),
      memories: [
        {
          id: 'm1',
          memoryText: 'Likes tea',
          slot: null,
          value: null,
          status: 'ACTIVE',
          createdAt: 1,
          conversationId: null,
          origin: null,
        },
      ],
      skillsSection: section,
    });
    expect(prompt).toContain(`\n\n${SKILLS_INDEX_HEADER}\n${SEED_INDEX_LINE}\n\nFacts the user`);
    const without = buildSystemPrompt({
      now: Date.UTC(2025, 0, 2),
      memories: [],
      skillsSection: '',
    });
    expect(without).not.toContain('Skills:');
    expect(without).toBe(buildSystemPrompt({ now: Date.UTC(2025, 0, 2), memories: [] }));
  });
});
