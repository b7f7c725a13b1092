/**
 * use_skill: loads the full instructions of one registered skill (the system prompt carries only
 * the one-line index). Definition verbatim from the seed (docs/seeds/000_67077f376ad9eee3.txt,
 * 注入提示词的内置工具定义); checked by a test.
 */
import type { Skill } from '../../shared/dto';
import type { SkillSource, Tool, ToolOutput } from '../core/ports';
import { builtInArgumentCheck } from './arguments/argument-check';

export const USE_SKILL_NAME = 'use_skill';

export const USE_SKILL_DESCRIPTION =
  "Load the full instructions for one of the skills the user/admin has registered (returned text contains the skill's complete how-to).";

export const USE_SKILL_SCHEMA_JSON =
  '{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}';

/** Names listed in the unknown-skill error; enough to correct a typo without flooding the model. */
const MAX_LISTED_NAMES = 50;
/** A skill name is at most 64 characters; anything much longer is not a name. */
const MAX_NAME_CHARS = 200;

const validate = builtInArgumentCheck(USE_SKILL_SCHEMA_JSON, {
  properties: { name: { nonBlank: true, maxLength: MAX_NAME_CHARS } },
});

/** The requested name as skills are named: trimmed, lowercase (models vary the case). */
function requestedName(args: unknown): string {
  const name: unknown = Object.fromEntries(Object.entries(args ?? {})).name;
  return String(name).trim().toLowerCase();
}

/** The tool's result text: the instructions verbatim, then the assets by name when there are any. */
export function formatSkillForModel(skill: Skill): string {
  if (skill.assets.length === 0) return skill.instructions;
  const assets = skill.assets.map(
    (asset) => `- ${asset.name} (${asset.mime}, ${asset.size} bytes)`,
  );
  return `${skill.instructions}\n\nAssets attached to this skill:\n${assets.join('\n')}`;
}

/** The tool error for a name no skill has: it lists the names that exist. */
export function unknownSkillMessage(name: string, available: readonly string[]): string {
  if (available.length === 0) return `Unknown skill "${name}". No skills are registered.`;
  const shown = available.slice(0, MAX_LISTED_NAMES).join(', ');
  const more =
    available.length > MAX_LISTED_NAMES ? ` (and ${available.length - MAX_LISTED_NAMES} more)` : '';
  return `Unknown skill "${name}". Available skills: ${shown}${more}.`;
}

export function createUseSkillTool(dependencies: { skills: SkillSource }): Tool {
  const inputSchema: Record<string, unknown> = JSON.parse(USE_SKILL_SCHEMA_JSON);
  return {
    name: USE_SKILL_NAME,
    description: USE_SKILL_DESCRIPTION,
    inputSchema,
    timeoutMs: 5_000,
    validate,
    execute: (args): Promise<ToolOutput> => {
      const name = requestedName(args);
      const skill = dependencies.skills.get(name);
      if (skill === null) {
        const available = dependencies.skills.list().map((candidate) => candidate.name);
        return Promise.resolve({ content: unknownSkillMessage(name, available), isError: true });
      }
      return Promise.resolve({ content: formatSkillForModel(skill) });
    },
  };
}
