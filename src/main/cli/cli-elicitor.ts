/**
 * `--elicit ask|decline|accept-defaults`: how `aivory chat` and `aivory mcp call` answer an MCP
 * server that asks the user something during a call (`elicitation/create`). On a terminal the
 * default is `ask`: the server's name and message, then each field in turn (title, description,
 * default, choices), checked and asked again until valid; an empty answer takes the default,
 * `decline` or `cancel` ends the form. A URL is printed and opened only after y; when the server
 * refused the call until the page is visited (-32042, `retry`), the CLI then waits for Enter or
 * the server's completion notification before the call is tried again. Without a
 * terminal the default is `decline`; `accept-defaults` sends every field's default and declines
 * when a required field has none (a URL is always declined there).
 */
import type {
  McpElicitation,
  McpElicitationAnswer,
  McpElicitationField,
  McpElicitationValue,
  McpElicitor,
} from '../core/ports';
import {
  checkContent,
  completedBy,
  describeProblem,
  fieldError,
} from '../../shared/mcp-elicitation';
import { usageError } from './cli-errors';
import type { CliIo } from './cli-io';

/** Times one field is asked again before the form counts as canceled. */
const MAX_TRIES = 5;

export type ElicitMode = 'ask' | 'decline' | 'accept-defaults';

/** The mode from the flag (default: ask on a terminal, decline otherwise). */
export function elicitMode(flag: string | undefined, io: CliIo): ElicitMode {
  const mode = flag ?? (io.ask ? 'ask' : 'decline');
  if (mode !== 'ask' && mode !== 'decline' && mode !== 'accept-defaults')
    throw usageError('--elicit must be ask, decline or accept-defaults.');
  if (mode === 'ask' && !io.ask)
    throw usageError('--elicit ask needs a terminal; use --elicit decline or accept-defaults.');
  return mode;
}

/** The CLI's elicitor for `flag` (see the file comment). */
export function cliElicitor(flag: string | undefined, io: CliIo): McpElicitor {
  const mode = elicitMode(flag, io);
  return async (request, signal) => {
    io.stderr(`\n${header(request)}\n`);
    if (mode === 'decline') {
      io.stderr(`${declineNote(request, flag === undefined)}\n`);
      return { action: 'decline' };
    }
    if (mode === 'accept-defaults') return acceptDefaults(request, io);
    return request.mode === 'url' ? askUrl(request, io, signal) : askForm(request, io, signal);
  };
}

/**
 * Why the request was declined and what would help. `--elicit accept-defaults` is offered only
 * for a form: a web page is never opened without a yes on a terminal, whatever the flag.
 */
function declineNote(request: McpElicitation, noTerminal: boolean): string {
  const why = noTerminal ? 'no terminal to ask' : '--elicit decline';
  if (request.mode === 'url') {
    return `Declined (${why}). Run the command on a terminal to be asked, or open the URL yourself and run it again.`;
  }
  return noTerminal
    ? `Declined (${why}; --elicit accept-defaults sends the defaults).`
    : `Declined (${why}).`;
}

function header(request: McpElicitation): string {
  const what =
    request.mode === 'form'
      ? 'asks for information'
      : request.retry === true
        ? 'needs you to open a web page before the tool can run'
        : 'asks you to open a web page';
  const lines = [
    `MCP server "${request.service}" (a third-party server, not Aivory) ${what}:`,
    indent(request.message === '' ? '(no message)' : request.message),
  ];
  if (request.url !== undefined) {
    lines.push(`  URL: ${request.url}`);
    // The site, on its own line: a long path cannot push it out of sight.
    lines.push(`  Site: ${new URL(request.url).origin}`);
  }
  return lines.join('\n');
}

function acceptDefaults(request: McpElicitation, io: CliIo): McpElicitationAnswer {
  if (request.mode === 'url') {
    io.stderr('Declined: a web page is opened only when you say so on a terminal.\n');
    return { action: 'decline' };
  }
  const checked = checkContent(request.fields, {});
  if (!checked.ok) {
    io.stderr(`Declined: "${checked.field}" has no usable default (--elicit accept-defaults).\n`);
    return { action: 'decline' };
  }
  io.stderr('Sent the defaults (--elicit accept-defaults).\n');
  return { action: 'accept', content: checked.content };
}

async function askUrl(
  request: McpElicitation,
  io: CliIo,
  signal: AbortSignal,
): Promise<McpElicitationAnswer> {
  const ask = io.ask;
  if (!ask || request.url === undefined) return { action: 'decline' };
  const answer = (await ask('Open it in your browser? [y] open · [N] decline: ', signal))
    .trim()
    .toLowerCase();
  if (answer !== 'y') return { action: 'decline' };
  if (io.openUrl) {
    await io.openUrl(request.url);
    io.stderr('Opened in your browser.\n');
  } else {
    io.stderr(`Open it yourself: ${request.url}\n`);
  }
  // URL mode: accepting is consent; nothing else is sent.
  if (request.retry !== true) return { action: 'accept', content: {} };
  return waitUntilDone(request, ask, io, signal);
}

/** -32042: Enter when the user has finished on the page, or the server's own "complete". */
async function waitUntilDone(
  request: McpElicitation,
  ask: NonNullable<CliIo['ask']>,
  io: CliIo,
  signal: AbortSignal,
): Promise<McpElicitationAnswer> {
  try {
    const line = (
      await ask(
        `When you have finished there, press Enter to try the tool again ("cancel" stops; the service may also say it is done): `,
        signal,
      )
    )
      .trim()
      .toLowerCase();
    if (line === 'cancel' || line === 'decline') return { action: 'cancel' };
  } catch (error) {
    if (!completedBy(signal)) throw error;
  }
  if (completedBy(signal)) io.stderr(`\n"${request.service}" says this step is done.\n`);
  return { action: 'accept', content: {} };
}

async function askForm(
  request: McpElicitation,
  io: CliIo,
  signal: AbortSignal,
): Promise<McpElicitationAnswer> {
  const ask = io.ask;
  if (!ask) return { action: 'decline' };
  io.stderr(
    'Answer each field (an empty answer takes the default; "decline" or "cancel" ends the form).\n',
  );
  const content: Record<string, McpElicitationValue> = {};
  for (const field of request.fields) {
    io.stderr(describeField(field));
    let tries = 0;
    for (;;) {
      const line = (await ask(`${field.title}${hint(field)}: `, signal)).trim();
      const word = line.toLowerCase();
      if (word === 'decline' || word === 'cancel') return { action: word };
      const value = line === '' ? field.default : parseValue(field, line);
      const problem =
        value === undefined && line !== '' ? { kind: 'type' as const } : fieldError(field, value);
      if (problem === null) {
        if (value !== undefined) content[field.name] = value;
        break;
      }
      tries += 1;
      if (tries >= MAX_TRIES) {
        io.stderr('Too many tries: the form is canceled.\n');
        return { action: 'cancel' };
      }
      io.stderr(`  ✗ ${describeProblem(problem)}; try again.\n`);
    }
  }
  const send = (
    await ask(`Send these answers to "${request.service}"? [Y] send · [n] decline: `, signal)
  )
    .trim()
    .toLowerCase();
  if (send === 'n' || send === 'decline') return { action: 'decline' };
  if (send === 'cancel') return { action: 'cancel' };
  return { action: 'accept', content };
}

function describeField(field: McpElicitationField): string {
  const lines = [`\n• ${field.title}${field.required ? ' (required)' : ''}`];
  if (field.description !== '') lines.push(indent(field.description));
  if (field.type === 'enum' || field.type === 'multi-enum') {
    for (const [index, option] of field.options.entries())
      lines.push(
        `  ${index + 1}) ${option.label}${option.label === option.value ? '' : ` (${option.value})`}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

function hint(field: McpElicitationField): string {
  const parts: string[] = [];
  switch (field.type) {
    case 'string':
      if (field.format !== undefined) parts.push(field.format);
      break;
    case 'number':
    case 'integer':
      parts.push(field.type);
      if (field.minimum !== undefined || field.maximum !== undefined)
        parts.push(`${field.minimum ?? '…'} to ${field.maximum ?? '…'}`);
      break;
    case 'boolean':
      parts.push('y/n');
      break;
    case 'enum':
      parts.push('number or value');
      break;
    case 'multi-enum':
      parts.push('numbers or values, comma-separated');
      break;
  }
  if (field.default !== undefined) parts.push(`default: ${shown(field, field.default)}`);
  return parts.length > 0 ? ` [${parts.join('; ')}]` : '';
}

function shown(field: McpElicitationField, value: McpElicitationValue): string {
  if (field.type === 'boolean') return value === true ? 'y' : 'n';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** The typed line as the field's value; undefined when it cannot be one. */
function parseValue(field: McpElicitationField, line: string): McpElicitationValue | undefined {
  switch (field.type) {
    case 'string':
      return line;
    case 'number':
    case 'integer': {
      const number = Number(line);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'boolean': {
      const word = line.toLowerCase();
      if (['y', 'yes', 'true'].includes(word)) return true;
      if (['n', 'no', 'false'].includes(word)) return false;
      return undefined;
    }
    case 'enum':
      return choice(field.options, line);
    case 'multi-enum': {
      const picked = line
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .map((part) => choice(field.options, part));
      return picked.every((item) => item !== undefined) ? picked : undefined;
    }
  }
}

function choice(options: { value: string; label: string }[], typed: string): string | undefined {
  const index = /^\d+$/.test(typed) ? Number(typed) - 1 : -1;
  const byIndex = options[index];
  if (byIndex !== undefined) return byIndex.value;
  return options.find((option) => option.value === typed || option.label === typed)?.value;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
