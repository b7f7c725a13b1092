/**
 * `aivory prompts list|show ID|add --title T --file BODY.md [--tags a,b]|remove ID`: the personal
 * library of prompt templates, shared with the desktop app's composer.
 */
import { parseArgs } from 'node:util';
import type { PromptTemplateWithVariables } from '../../shared/dto';
import type { AppContext } from '../composition/app-context';
import { MAX_PROMPT_BODY_BYTES, PromptsService } from '../services/prompts-service';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { readTextFile } from './input-files';

const USAGE =
  'Usage: aivory prompts list | show ID | add --title TITLE --file BODY.md [--tags a,b] | remove ID';

export function promptsCommand(argv: string[], context: AppContext, io: CliIo): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      title: { type: 'string' },
      file: { type: 'string' },
      tags: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [action = 'list', id, ...extra] = positionals;
  if (extra.length > 0) throw usageError(`Unexpected argument "${extra.join(' ')}". ${USAGE}`);
  const prompts = new PromptsService(context.stores.library, context.ids);
  switch (action) {
    case 'list': {
      const templates = prompts.list();
      if (values.json) io.stdout(`${JSON.stringify(templates)}\n`);
      else if (templates.length === 0)
        io.stdout(
          'No prompt templates yet. Add one with: aivory prompts add --title T --file BODY.md\n',
        );
      else for (const template of templates) io.stdout(`${listLine(template)}\n`);
      return EXIT_OK;
    }
    case 'show': {
      if (!id) throw usageError('Usage: aivory prompts show ID');
      const template = prompts.get(id);
      if (values.json) io.stdout(`${JSON.stringify(template)}\n`);
      else io.stdout(showText(template));
      return EXIT_OK;
    }
    case 'add': {
      if (id) throw usageError(`Give the title with --title, not as "${id}". ${USAGE}`);
      if (values.title === undefined || !values.file) throw usageError(USAGE);
      const body = readTextFile(values.file, '--file', MAX_PROMPT_BODY_BYTES);
      const template = prompts.create({
        title: values.title,
        body,
        tags: values.tags === undefined ? [] : values.tags.split(','),
      });
      io.stdout(`${template.id}\n`);
      return EXIT_OK;
    }
    case 'remove': {
      if (!id) throw usageError('Usage: aivory prompts remove ID');
      prompts.remove(id);
      io.stdout(`Removed prompt template ${id}.\n`);
      return EXIT_OK;
    }
    default:
      throw usageError(`Unknown action "${action}". ${USAGE}`);
  }
}

function variablesText(template: PromptTemplateWithVariables): string {
  return template.variables.map((name) => `{{${name}}}`).join(' ');
}

/** `ID<TAB>TITLE<TAB>tags<TAB>{{variables}}`. */
function listLine(template: PromptTemplateWithVariables): string {
  return [template.id, template.title, template.tags.join(','), variablesText(template)].join('\t');
}

function showText(template: PromptTemplateWithVariables): string {
  const lines = [`${template.title}  (${template.id})`];
  if (template.tags.length > 0) lines.push(`Tags: ${template.tags.join(', ')}`);
  if (template.variables.length > 0) lines.push(`Variables: ${variablesText(template)}`);
  return `${lines.join('\n')}\n\n${template.body}${template.body.endsWith('\n') ? '' : '\n'}`;
}
