/**
 * `--sampling ask|deny|allow`: how `aivory chat` and `aivory mcp call` answer an MCP server that
 * asks the user's model for a completion during a call (`sampling/createMessage`). On a terminal
 * the default is `ask`: the server's name, its system prompt and messages (plain text, each cut
 * to a few lines), the max tokens and the model that would answer, then y (once) / N / a (always
 * for this server, remembered in `mcp.samplingAlwaysAllow`). Without a terminal the default is
 * `deny`; `allow` answers every request without asking (the user's explicit choice for this run).
 * `deny` refuses even a server that is always allowed.
 */
import type { McpSampler, McpSamplingPrompt } from '../core/ports';
import type { AppContext } from '../composition/app-context';
import { modelOverridesFromEnv } from '../services/model-resolution';
import type { McpSamplingAsk } from '../services/turn-sampling';
import { usageError } from './cli-errors';
import type { CliIo } from './cli-io';

/** Characters of each message printed (the rest is counted). */
const SHOWN_CHARS = 600;

export type SamplingMode = 'ask' | 'deny' | 'allow';

/** The mode from the flag (default: ask on a terminal, deny otherwise). */
export function samplingMode(flag: string | undefined, io: CliIo): SamplingMode {
  const mode = flag ?? (io.ask ? 'ask' : 'deny');
  if (mode !== 'ask' && mode !== 'deny' && mode !== 'allow')
    throw usageError('--sampling must be ask, deny or allow.');
  if (mode === 'ask' && !io.ask)
    throw usageError('--sampling ask needs a terminal; use --sampling deny or allow.');
  return mode;
}

/** The CLI's sampling approval for `flag`; undefined when every request is denied. */
export function cliSamplingAsk(flag: string | undefined, io: CliIo): McpSamplingAsk | undefined {
  const mode = samplingMode(flag, io);
  if (mode === 'deny') return undefined;
  return async (prompt, signal) => {
    io.stderr(`\n${describeSampling(prompt)}\n`);
    if (mode === 'allow') {
      io.stderr('Allowed (--sampling allow).\n');
      return 'once';
    }
    const ask = io.ask;
    if (!ask) return 'deny';
    const answer = (
      await ask('Let the model answer? [y] once · [a] always for this server · [N] deny: ', signal)
    )
      .trim()
      .toLowerCase();
    if (answer === 'y' || answer === 'yes') return 'once';
    if (answer === 'a' || answer === 'always') return 'always';
    return 'deny';
  };
}

/** The request as the terminal shows it: plain text, indented, each part cut. */
export function describeSampling(prompt: McpSamplingPrompt): string {
  const lines = [
    `MCP server "${prompt.service}" (a third-party server, not Aivory) asks your model to write a reply.`,
    `  Model: ${prompt.model} · at most ${prompt.maxTokens} tokens`,
  ];
  if (prompt.systemPrompt !== '')
    lines.push('  Its system prompt:', indent(cut(prompt.systemPrompt)));
  for (const message of prompt.messages)
    lines.push(
      `  ${message.role === 'user' ? 'User' : 'Assistant'} (from the server):`,
      indent(cut(message.text)),
    );
  lines.push('  The reply goes to that server only.');
  return lines.join('\n');
}

function cut(text: string): string {
  const chars = [...text];
  if (chars.length <= SHOWN_CHARS) return text;
  return `${chars.slice(0, SHOWN_CHARS).join('')}… (${chars.length - SHOWN_CHARS} more characters)`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/**
 * A server's sampling during `mcp call`: there is no conversation, so the default model answers
 * (as `aivory chat` would pick it); without a model every request is refused, with a notice.
 */
export async function mcpCallSampler(
  context: AppContext,
  io: CliIo,
  flag: string | undefined,
): Promise<McpSampler> {
  const ask = cliSamplingAsk(flag, io);
  if (ask === undefined)
    return () => Promise.resolve({ action: 'decline', reason: 'sampling is off for this run' });
  try {
    const model = await context.models.resolveTurn(undefined, modelOverridesFromEnv(io.env));
    return (await context.chat()).sampler(model, ask);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return (request) => {
      io.stderr(
        `\nMCP server "${request.service}" asked your model for a reply; denied: no model to answer (${why}).\n`,
      );
      return Promise.resolve({ action: 'decline', reason: 'no model is configured' });
    };
  }
}
