/**
 * The skills part of the system prompt (seed: 内置文档生成技能). A model offered `use_skill` sees an
 * index, one `name: when to use` line per skill, and loads the full text on demand. A model without
 * `use_skill` but with `python_execute` gets the complete fixed document-generation skill instead.
 * The built-in document-generation skill is exposed only when python_execute is offered; a user
 * skill of the same name overrides it in both forms.
 */
import type { Skill } from '../../shared/dto';
import {
  DOCUMENT_GENERATION_INSTRUCTIONS,
  DOCUMENT_GENERATION_NAME,
  DOCUMENT_GENERATION_WHEN_TO_USE,
} from '../tools/document-generation-skill';

/** Index lines kept: more than this many skills dilute recall and the prompt. */
export const MAX_INDEXED_SKILLS = 50;
/** UTF-8 bytes of the whole index section, header and overflow note included. */
export const MAX_SKILLS_INDEX_BYTES = 4 * 1024;
/** UTF-8 bytes of an inlined skill body; a larger user override is cut with a marker. */
export const MAX_INLINE_SKILL_BYTES = 16 * 1024;

export const SKILLS_INDEX_HEADER =
  'Skills: when a task matches a line below, call use_skill with that name first to load its full instructions. Each line is "name: when to use it".';

/** What the section needs of a skill. `builtIn` entries are ignored: the section adds its own. */
export type SkillPromptEntry = Pick<Skill, 'name' | 'whenToUse' | 'instructions'> & {
  builtIn?: boolean;
};

export interface SkillsPromptOptions {
  /** The user's skills (built-in ones may be included; they are recognised and skipped). */
  skills: readonly SkillPromptEntry[];
  /** Whether use_skill is among the turn's tools. */
  useSkillOffered: boolean;
  /** Whether python_execute is among the turn's tools. */
  pythonOffered: boolean;
}

/**
 * Returns the section to append to the system prompt, or '' when there is nothing to say. The
 * index lists the document-generation skill first, then the others by name; it never exceeds 50
 * lines or 4 KB, and ends with a note counting the skills it left out.
 */
export function skillsPromptSection(options: SkillsPromptOptions): string {
  const userSkills = options.skills.filter((skill) => skill.builtIn !== true);
  const override = userSkills.find((skill) => skill.name === DOCUMENT_GENERATION_NAME);
  const documentGeneration: SkillPromptEntry | null =
    override ??
    (options.pythonOffered
      ? {
          name: DOCUMENT_GENERATION_NAME,
          whenToUse: DOCUMENT_GENERATION_WHEN_TO_USE,
          instructions: DOCUMENT_GENERATION_INSTRUCTIONS,
        }
      : null);
  if (options.useSkillOffered) {
    const others = userSkills
      .filter((skill) => skill.name !== DOCUMENT_GENERATION_NAME)
      .sort((left, right) => left.name.localeCompare(right.name));
    return skillsIndex(documentGeneration === null ? others : [documentGeneration, ...others]);
  }
  if (options.pythonOffered && documentGeneration !== null) {
    return truncateUtf8(documentGeneration.instructions, MAX_INLINE_SKILL_BYTES);
  }
  return '';
}

/** The index line of one skill, exactly as the seed shows it: `name: when to use`. */
export function skillIndexLine(skill: Pick<Skill, 'name' | 'whenToUse'>): string {
  return `${skill.name}: ${skill.whenToUse.replace(/\s+/g, ' ').trim()}`;
}

function skillsIndex(skills: readonly SkillPromptEntry[]): string {
  if (skills.length === 0) return '';
  const lines = [SKILLS_INDEX_HEADER];
  let bytes = utf8Length(SKILLS_INDEX_HEADER);
  let listed = 0;
  for (const skill of skills) {
    if (listed === MAX_INDEXED_SKILLS) break;
    const line = skillIndexLine(skill);
    const remaining = skills.length - listed - 1;
    // Keep room for the overflow note whenever skills would be left out after this one.
    const reserve = remaining > 0 ? utf8Length(overflowNote(remaining)) + 1 : 0;
    if (bytes + 1 + utf8Length(line) + reserve > MAX_SKILLS_INDEX_BYTES) break;
    lines.push(line);
    bytes += 1 + utf8Length(line);
    listed += 1;
  }
  if (listed < skills.length) lines.push(overflowNote(skills.length - listed));
  return lines.join('\n');
}

function overflowNote(count: number): string {
  return `(${count} more skill${count === 1 ? '' : 's'} not listed.)`;
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** `text` when it fits in `limit` UTF-8 bytes; else its longest fitting prefix and a marker. */
function truncateUtf8(text: string, limit: number): string {
  if (utf8Length(text) <= limit) return text;
  const marker = '\n[… the rest of this skill is cut: it is longer than the prompt allows]';
  const budget = limit - utf8Length(marker);
  let end = 0;
  let used = 0;
  for (const character of text) {
    const size = utf8Length(character);
    if (used + size > budget) break;
    used += size;
    end += character.length;
  }
  return `${text.slice(0, end)}${marker}`;
}
