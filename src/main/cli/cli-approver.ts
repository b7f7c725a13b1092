/** `--approve all|none|ask`: how the CLI answers MCP approval prompts. */
import type { ApprovalAnswer, Approver } from '../core/ports';
import { usageError } from './cli-errors';
import type { CliIo } from './cli-io';

const ARGUMENTS_PREVIEW_CHARS = 2000;

/** Default: ask on a terminal, refuse otherwise (nobody to ask). */
export function cliApprover(flag: string | undefined, io: CliIo): Approver | undefined {
  const mode = flag ?? (io.ask ? 'ask' : 'none');
  if (mode === 'all') return () => Promise.resolve('once');
  if (mode === 'none') return undefined;
  if (mode !== 'ask') throw usageError('--approve must be all, none or ask.');
  const ask = io.ask;
  if (!ask) throw usageError('--approve ask needs a terminal; use --approve all or none.');
  return async (request, signal) => {
    const args = JSON.stringify(request.arguments, null, 2);
    const hints = [
      request.readOnlyHint ? 'says it is read-only' : null,
      request.destructiveHint ? 'says it may be destructive' : null,
    ].filter((hint) => hint !== null);
    io.stderr(
      `\nMCP tool ${request.tool} of "${request.service}"${hints.length ? ` (${hints.join(', ')})` : ''} wants to run with:\n${
        args.length > ARGUMENTS_PREVIEW_CHARS
          ? `${args.slice(0, ARGUMENTS_PREVIEW_CHARS)}\n…`
          : args
      }\n`,
    );
    const answer = (
      await ask('Allow? [y] once · [c] this conversation · [a] always · [N] deny: ', signal)
    )
      .trim()
      .toLowerCase();
    const answers: Record<string, ApprovalAnswer> = { y: 'once', c: 'conversation', a: 'always' };
    return answers[answer] ?? 'deny';
  };
}
