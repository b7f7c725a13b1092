import { describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/shared/dto';
import type { SkillSource, ToolContext } from '../../../src/main/core/ports';
import {
  createUseSkillTool,
  USE_SKILL_DESCRIPTION,
  USE_SKILL_NAME,
  USE_SKILL_SCHEMA_JSON,
} from '../../../src/main/tools/use-skill';
import {
  BUILT_IN_DOCUMENT_GENERATION,
  DOCUMENT_GENERATION_INSTRUCTIONS,
} from '../../../src/main/tools/document-generation-skill';
import { readSeed, seedToolDefinition, TOOL_PROTOCOL_SEED } from '../../support/seed';

const context: ToolContext = {
  conversationId: 'conv_1',
  signal: new AbortController().signal,
  logger: { debug() {}, info() {}, warn() {}, error() {} },
};

function skill(overrides: Partial<Skill> & { name: string }): Skill {
  return {
    icon: '',
    whenToUse: `Use for ${overrides.name}.`,
    instructions: `# ${overrides.name}\n\nDo the thing.`,
    assets: [],
    builtIn: false,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

/** A source holding fixed skills, looked up by exact name like the skills service. */
function source(skills: readonly Skill[]): SkillSource {
  return {
    get: (name) => skills.find((candidate) => candidate.name === name) ?? null,
    list: () => [...skills],
  };
}

describe('use_skill', () => {
  it('definition is the seed text, verbatim', () => {
    const seed = seedToolDefinition(readSeed(TOOL_PROTOCOL_SEED), USE_SKILL_NAME);
    expect(USE_SKILL_DESCRIPTION).toBe(seed.description);
    expect(USE_SKILL_SCHEMA_JSON).toBe(seed.schema);
    const tool = createUseSkillTool({ skills: source([]) });
    expect(tool.name).toBe('use_skill');
    expect(tool.description).toBe(seed.description);
    expect(JSON.stringify(tool.inputSchema)).toBe(seed.schema);
  });

  it('validates its arguments', () => {
    const tool = createUseSkillTool({ skills: source([]) });
    expect(tool.validate?.(null)).toBe('expected an object');
    expect(tool.validate?.({})).toBe('"name" must be a non-empty string');
    expect(tool.validate?.({ name: '  ' })).toBe('"name" must be a non-empty string');
    expect(tool.validate?.({ name: 'x'.repeat(500) })).toMatch(/longer than/);
    expect(tool.validate?.({ name: 'weekly-report' })).toBeNull();
  });

  it('returns the full instructions, verbatim, for a skill without assets', async () => {
    const tool = createUseSkillTool({ skills: source([BUILT_IN_DOCUMENT_GENERATION]) });
    const output = await tool.execute({ name: 'document-generation' }, context);
    expect(output.isError).toBeUndefined();
    expect(output.content).toBe(DOCUMENT_GENERATION_INSTRUCTIONS);
  });

  it('lists the assets by name after the instructions; the name is trimmed and lowercased', async () => {
    const withAssets = skill({
      name: 'brand-deck',
      instructions: 'Use the template.',
      assets: [
        { name: 'logo.png', mime: 'image/png', size: 2048, createdAt: 1 },
        { name: 'template.pptx', mime: 'application/zip', size: 10, createdAt: 1 },
      ],
    });
    const tool = createUseSkillTool({ skills: source([withAssets]) });
    const output = await tool.execute({ name: ' Brand-Deck ' }, context);
    expect(output.content).toBe(
      'Use the template.\n\nAssets attached to this skill:\n' +
        '- logo.png (image/png, 2048 bytes)\n- template.pptx (application/zip, 10 bytes)',
    );
  });

  it('an unknown skill is a tool error listing the available names', async () => {
    const tool = createUseSkillTool({
      skills: source([skill({ name: 'alpha' }), BUILT_IN_DOCUMENT_GENERATION]),
    });
    const output = await tool.execute({ name: 'gamma' }, context);
    expect(output).toEqual({
      content: 'Unknown skill "gamma". Available skills: alpha, document-generation.',
      isError: true,
    });
    const empty = await createUseSkillTool({ skills: source([]) }).execute({ name: 'x' }, context);
    expect(empty).toEqual({
      content: 'Unknown skill "x". No skills are registered.',
      isError: true,
    });
  });

  it('the error bounds the list of names', async () => {
    const many = Array.from({ length: 60 }, (_, index) =>
      skill({ name: `skill-${String(index).padStart(2, '0')}` }),
    );
    const output = await createUseSkillTool({ skills: source(many) }).execute(
      { name: 'nope' },
      context,
    );
    expect(output.isError).toBe(true);
    expect(output.content).toContain('skill-49');
    expect(output.content).not.toContain('skill-50');
    expect(output.content).toContain('(and 10 more)');
  });
});
