/**
 * One turn of `aivory chat`, run and printed: the answer on stdout; the trace, the reasoning
 * (`--show-reasoning`), the files the tools made and the usage dimmed on stderr; with `--json`
 * one TurnEvent per line on stdout and nothing else. Shared by the one-shot command and the
 * interactive chat (`chat-session.ts`).
 */
import type { TurnEndEvent, TurnEvent } from '../../shared/turn-events';
import type { AppContext } from '../composition/app-context';
import type { TurnRequest } from '../services/chat-service';
import { EXIT_CANCELED, EXIT_OK, exitCodeFor } from './cli-errors';
import type { CliIo } from './cli-io';
import {
  eventJson,
  progressThrottle,
  STOP_REASON_TEXT,
  structuredLines,
  traceLine,
  usageLine,
} from './trace-format';

export interface PrintOptions {
  json: boolean;
  showReasoning: boolean;
}

export interface PrintedTurn {
  end: TurnEndEvent | null;
  /** The turn's conversation (a new one's too), once the turn started; else null. */
  conversationId: string | null;
}

/** Runs the turn and prints its events as they come. Throws what `runTurn` throws before starting. */
export async function runPrintedTurn(
  context: Pick<AppContext, 'chat'>,
  io: CliIo,
  request: TurnRequest,
  options: PrintOptions,
  signal: AbortSignal,
): Promise<PrintedTurn> {
  const printer = new TurnPrinter(io, options);
  let end: TurnEndEvent | null = null;
  let conversationId: string | null = null;
  for await (const event of (await context.chat()).runTurn(request, signal)) {
    printer.print(event);
    if (event.type === 'turn-start') conversationId = event.conversationId;
    if (event.type === 'turn-end') end = event;
  }
  printer.close();
  return { end, conversationId };
}

/**
 * Prints a turn's events. The answer and the reasoning go to two streams that a terminal shows
 * together, so each ends its line before the other starts: the reasoning under a dimmed
 * `[reasoning]` label, closed by a blank line before the answer.
 */
export class TurnPrinter {
  private answerOpen = false;
  private reasoningOpen = false;
  private reasoningEndsLine = true;
  private readonly printProgress = progressThrottle(() => performance.now());

  constructor(
    private readonly io: CliIo,
    private readonly options: PrintOptions,
  ) {}

  print(event: TurnEvent): void {
    const { io } = this;
    if (this.options.json) {
      io.stdout(`${eventJson(event)}\n`);
      return;
    }
    if (event.type === 'reasoning-delta') {
      if (!this.options.showReasoning || event.text === '') return;
      this.endAnswerLine();
      if (!this.reasoningOpen) io.stderr(`${io.dim('[reasoning]')}\n`);
      this.reasoningOpen = true;
      io.stderr(io.dim(event.text));
      this.reasoningEndsLine = event.text.endsWith('\n');
      return;
    }
    if (event.type === 'text-delta') {
      if (event.text === '') return;
      this.endReasoning();
      io.stdout(event.text);
      this.answerOpen = !event.text.endsWith('\n');
      return;
    }
    const line = this.printProgress(event) ? traceLine(event) : null;
    if (line === null || event.type === 'budget-update') return;
    this.endReasoning();
    this.endAnswerLine();
    io.stderr(`${io.dim(line)}\n`);
    // The files a tool made, each with its whole path (the result line above is cut short).
    if (event.type === 'tool-result') {
      if (event.structured !== undefined)
        for (const structured of structuredLines(event.structured))
          io.stderr(`${io.dim(structured)}\n`);
      for (const artifact of event.artifacts) {
        io.stderr(`${io.dim(`  📎 ${artifact.name} → `)}${artifact.path}\n`);
      }
    }
  }

  /** Ends an open answer or reasoning line, once the turn is over. */
  close(): void {
    if (this.options.json) return;
    this.endReasoning();
    this.endAnswerLine();
  }

  private endAnswerLine(): void {
    if (this.answerOpen) this.io.stdout('\n');
    this.answerOpen = false;
  }

  private endReasoning(): void {
    if (!this.reasoningOpen) return;
    this.io.stderr(this.reasoningEndsLine ? '\n' : '\n\n');
    this.reasoningOpen = false;
    this.reasoningEndsLine = true;
  }
}

/**
 * What the turn's end says on stderr (usage, failure, cancel, an unusual stop) and the exit code.
 * `canceledText` is what a stopped turn prints (the interactive chat goes on after it).
 */
export function reportEnd(
  end: TurnEndEvent | null,
  json: boolean,
  io: CliIo,
  canceledText = 'aivory: canceled',
): number {
  if (!end) return EXIT_CANCELED;
  // What the turn cost, when the provider said (in --json it is turn-end's `usage`).
  if (!json && end.usage) io.stderr(`${io.dim(usageLine(end.usage))}\n`);
  if (end.stopReason === 'error') {
    io.stderr(`aivory: ${end.error?.message ?? 'the turn failed'}\n`);
    return exitCodeFor(end.error?.code ?? 'internal');
  }
  if (end.stopReason === 'canceled') {
    if (!json) io.stderr(`${canceledText}\n`);
    return EXIT_CANCELED;
  }
  if (!json && end.stopReason !== 'completed') {
    io.stderr(`${io.dim(`[${STOP_REASON_TEXT[end.stopReason]}]`)}\n`);
  }
  return EXIT_OK;
}

/** The line that says how to go on with a conversation (stderr, dimmed; never with --json). */
export function continueLine(io: CliIo, conversationId: string): void {
  io.stderr(
    `${io.dim(`conversation ${conversationId} · continue with: aivory chat --conversation ${conversationId}`)}\n`,
  );
}
