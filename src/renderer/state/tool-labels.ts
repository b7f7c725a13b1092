/**
 * Friendly names for the built-in tools and skill, for people. The model keeps reading the exact
 * names and descriptions of the product documents: these only change what the UI shows. Any
 * other name (an MCP tool, a user's skill) shows as it is.
 */
import type { Translate } from '../i18n/i18n';

/** The built-in tools with a friendly name (`toolLabel.<name>`). */
const LABELLED_TOOLS = [
  'python_execute',
  'aivory_web_search',
  'web_fetch',
  'fetch_image',
  'image_generate',
  'save_memory',
  'use_skill',
] as const;

/** The built-in skills with a friendly name and description (`skillLabel.*`, `skillAbout.*`). */
const LABELLED_SKILLS = ['document-generation'] as const;

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** The name people read for tool `name` (the name itself for a tool we do not label). */
export function toolLabel(name: string, t: Translate): string {
  return isOneOf(LABELLED_TOOLS, name) ? t(`toolLabel.${name}`) : name;
}

/** Whether `name` has a friendly name (so the UI shows the real name as a detail too). */
export function hasToolLabel(name: string): boolean {
  return isOneOf(LABELLED_TOOLS, name);
}

/**
 * The name and description people read for a skill: a built-in skill's friendly ones, a user's
 * skill as written.
 */
export function skillLabel(
  skill: { name: string; whenToUse: string; builtIn: boolean },
  t: Translate,
): { name: string; about: string } {
  if (skill.builtIn && isOneOf(LABELLED_SKILLS, skill.name)) {
    return { name: t(`skillLabel.${skill.name}`), about: t(`skillAbout.${skill.name}`) };
  }
  return { name: skill.name, about: skill.whenToUse };
}
