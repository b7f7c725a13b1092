/**
 * `aivory skills list|show NAME|add --name N --when "…" --file FILE [--icon X] [--asset PATH]…|
 * remove NAME`: the skills the model loads with use_skill, shared with the desktop app.
 */
import { parseArgs } from 'node:util';
import type { Skill } from '../../shared/dto';
import type { AppContext } from '../composition/app-context';
import {
  MAX_ASSET_BYTES,
  MAX_INSTRUCTIONS_BYTES,
  secretWarning,
} from '../services/skill-validation';
import { SkillsService } from '../services/skills-service';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { readAssetFile, readTextFile } from './input-files';
import { formatBytes } from '../../shared/byte-size';

const USAGE =
  'Usage: aivory skills list | show NAME | add --name NAME --when "SENTENCE" --file INSTRUCTIONS.md ' +
  '[--icon ICON] [--asset PATH]… | remove NAME';

export function skillsCommand(argv: string[], context: AppContext, io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      when: { type: 'string' },
      file: { type: 'string' },
      icon: { type: 'string' },
      asset: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    },
  });
  const [action = 'list', target, ...extra] = positionals;
  if (extra.length > 0) {
    throw usageError(
      `Unexpected argument "${extra.join(' ')}". Repeat --asset for each file. ${USAGE}`,
    );
  }
  const skills = new SkillsService(context.stores.library);
  switch (action) {
    case 'list': {
      const all = skills.list();
      if (values.json) io.stdout(`${JSON.stringify(all)}\n`);
      else for (const skill of all) io.stdout(`${listLine(skills, skill)}\n`);
      return EXIT_OK;
    }
    case 'show': {
      if (!target) throw usageError('Usage: aivory skills show NAME');
      const skill = skills.require(target);
      if (values.json) io.stdout(`${JSON.stringify(skill)}\n`);
      else io.stdout(showText(skills, skill));
      return EXIT_OK;
    }
    case 'add': {
      if (target) throw usageError(`Give the name with --name, not as "${target}". ${USAGE}`);
      if (!values.name || values.when === undefined || !values.file) throw usageError(USAGE);
      const instructions = readTextFile(values.file, '--file', MAX_INSTRUCTIONS_BYTES);
      const assets = (values.asset ?? []).map((path) => readAssetFile(path, MAX_ASSET_BYTES));
      const skill = skills.create({
        name: values.name,
        whenToUse: values.when,
        instructions,
        assets,
        ...(values.icon === undefined ? {} : { icon: values.icon }),
      });
      const warning = secretWarning(`${skill.whenToUse}\n${skill.instructions}`);
      if (warning) io.stderr(`warning: ${warning}\n`);
      const note = skills.overridesBuiltIn(skill) ? ' (overrides the built-in skill)' : '';
      io.stdout(`Added skill ${skill.name}${note}.\n`);
      return EXIT_OK;
    }
    case 'remove': {
      if (!target) throw usageError('Usage: aivory skills remove NAME');
      const restored = skills.remove(target);
      io.stdout(`Removed skill ${target}.\n`);
      if (restored) io.stdout(`The built-in ${restored.name} skill applies again.\n`);
      return EXIT_OK;
    }
    default:
      throw usageError(`Unknown action "${action}". ${USAGE}`);
  }
}

function origin(skills: SkillsService, skill: Skill): string {
  if (skill.builtIn) return 'built-in';
  return skills.overridesBuiltIn(skill) ? 'overrides built-in' : '';
}

/** `ICON NAME [origin]<TAB>when to use`. */
function listLine(skills: SkillsService, skill: Skill): string {
  const tag = origin(skills, skill);
  return `${skill.icon || '-'} ${skill.name}${tag ? ` [${tag}]` : ''}\t${skill.whenToUse}`;
}

function showText(skills: SkillsService, skill: Skill): string {
  const lines = [
    `${skill.icon ? `${skill.icon} ` : ''}${skill.name}`,
    `When to use: ${skill.whenToUse}`,
  ];
  const tag = origin(skills, skill);
  if (tag) lines.push(`Origin: ${tag}`);
  if (!skill.builtIn) lines.push(`Updated: ${new Date(skill.updatedAt).toISOString()}`);
  for (const asset of skill.assets) {
    lines.push(`Asset: ${asset.name} (${asset.mime}, ${formatBytes(asset.size)})`);
  }
  return `${lines.join('\n')}\n\n${skill.instructions}\n`;
}
