/**
 * `--approve all|none|ask`: how the CLI answers approval prompts — MCP calls, and in a turn that
 * read untrusted content also web_fetch addresses that would send data to a new site. `none`
 * gives no approver: such calls are refused with a reason the model reads and the turn goes on.
 */
import { revealInvisibleCharacters } from '../../shared/untrusted-text';
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
    const why = request.reason
      ? `Asked because: ${shown(request.reason)}${
          request.taint && request.taint.length > 0
            ? ` (read: ${shown(
                request.taint
                  .map((item) => (item.detail === null ? item.tool : `${item.tool} ${item.detail}`))
                  .join(', ')
                  .slice(0, ARGUMENTS_PREVIEW_CHARS),
              )})`
            : ''
        }\n`
      : '';
    if (request.kind === 'web-fetch') {
      const url = typeof request.arguments.url === 'string' ? request.arguments.url : '';
      io.stderr(
        `\n${shown(request.toolName)} wants to open ${shown(url.slice(0, ARGUMENTS_PREVIEW_CHARS))}\n${why}`,
      );
      const answer = (await ask('Allow this fetch? [y] yes · [N] deny: ', signal))
        .trim()
        .toLowerCase();
      return answer === 'y' ? 'once' : 'deny';
    }
    // Line by line: the pretty-printing's own line breaks stay; those inside values are `\n`.
    const args = JSON.stringify(request.arguments, null, 2).split('\n').map(shown).join('\n');
    const hints = [
      request.readOnlyHint ? 'says it is read-only' : null,
      request.destructiveHint ? 'says it may be destructive' : null,
    ].filter((hint) => hint !== null);
    io.stderr(
      `\nMCP tool ${shown(request.tool)} of "${shown(request.service)}"${hints.length ? ` (${hints.join(', ')})` : ''} wants to run with:\n${
        args.length > ARGUMENTS_PREVIEW_CHARS
          ? `${args.slice(0, ARGUMENTS_PREVIEW_CHARS)}\n…`
          : args
      }\n${why}`,
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

/**
 * What a server, a page or a model wrote, as the prompt prints it: bidi overrides, zero-width
 * and control characters written out as `\u{…}` (U+202E would show `txt.exe` as `exe.txt`, an
 * escape sequence could repaint the terminal), so the user decides about what is really there.
 */
function shown(text: string): string {
  return revealInvisibleCharacters(text);
}
