/**
 * `aivory chat --models a,b "…"`: several saved models answer one question at once (the chat
 * service's turn group). Printed one after another in the order given: the first answer as it
 * streams, each later one kept until the one before it has ended, under a header line naming its
 * model; with `--json` every event as it comes, tagged with its answer's `model`.
 */
import type { TurnEndEvent, TurnEvent } from '../../shared/turn-events';
import type { AppContext } from '../composition/app-context';
import type { ResolvedModel, TurnRequest } from '../services/chat-service';
import { MAX_ANSWER_MODELS } from '../services/chat-service';
import { EXIT_CANCELED, EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import type { PrintOptions } from './chat-turn';
import { reportEnd, TurnPrinter } from './chat-turn';

/** One model named by `--models`, resolved, with the name its header shows. */
export interface NamedModel {
  model: ResolvedModel;
  /** The saved model's label. */
  label: string;
}

/** `--models a,b`: saved models by id, label or model name, each once, at most four. */
export async function resolveModelList(
  context: Pick<AppContext, 'models'>,
  value: string,
): Promise<NamedModel[]> {
  const references = value
    .split(',')
    .map((reference) => reference.trim())
    .filter((reference) => reference !== '');
  if (references.length === 0)
    throw usageError('--models needs saved models: ids, labels or names, split by commas.');
  if (references.length > MAX_ANSWER_MODELS)
    throw usageError(`--models: at most ${MAX_ANSWER_MODELS} models answer one question.`);
  const named: NamedModel[] = [];
  for (const reference of references) {
    const saved = context.models.lookup(reference);
    if (named.some((entry) => entry.model.id === saved.id))
      throw usageError(`--models names ${saved.label} twice.`);
    named.push({ model: await context.models.resolveTurn(saved.id, {}), label: saved.label });
  }
  return named;
}

export interface PrintedGroup {
  /** Each answer's end, in the order the models were given (null: it never ended). */
  ends: (TurnEndEvent | null)[];
  /** Each answer's message id, in the same order (null: it never started). */
  messageIds: (string | null)[];
  conversationId: string | null;
  /** The exit code: the first answer's that did not end well, else 0. */
  code: number;
}

/** One answer as printed: its printer and, until its turn to be shown, what it wrote. */
interface PrintedAnswer {
  printer: TurnPrinter;
  held: { to: 'stdout' | 'stderr'; text: string }[];
  live: boolean;
  end: TurnEndEvent | null;
  code: number | null;
}

/** Runs the group and prints it (see the file's comment). */
export async function runPrintedGroup(
  context: Pick<AppContext, 'chat'>,
  io: CliIo,
  request: TurnRequest,
  labels: readonly string[],
  options: PrintOptions,
  signal: AbortSignal,
): Promise<PrintedGroup> {
  const answers: PrintedAnswer[] = [];
  const indexOf = new Map<string, number>();
  const modelOf = new Map<string, string>();
  const messageIds: (string | null)[] = labels.map(() => null);
  let shown = 0;
  let conversationId: string | null = null;

  const answerIo = (index: number): CliIo => {
    const write =
      (to: 'stdout' | 'stderr') =>
      (text: string): void => {
        const answer = answers[index];
        if (answer?.live) io[to](text);
        else answer?.held.push({ to, text });
      };
    return { ...io, stdout: write('stdout'), stderr: write('stderr') };
  };
  /** Shows the next answers whose turn has come: held output first, then live. */
  const advance = (): void => {
    for (;;) {
      const answer = answers[shown];
      if (!answer) return;
      if (!answer.live) {
        answer.live = true;
        for (const { to, text } of answer.held.splice(0)) io[to](text);
      }
      if (answer.end === null && answer.code === null) return;
      shown += 1;
      if (answers[shown]) io.stdout('\n');
    }
  };

  for await (const event of (await context.chat()).runTurn(request, signal)) {
    if (event.type === 'turn-start') {
      const index = event.group?.index ?? 0;
      indexOf.set(event.turnId, index);
      modelOf.set(event.turnId, event.model);
      conversationId = event.conversationId;
      messageIds[index] = event.messageId;
      answers[index] = {
        printer: new TurnPrinter(answerIo(index), options),
        held: [],
        live: false,
        end: null,
        code: null,
      };
    }
    if (options.json) {
      io.stdout(`${taggedJson(event, modelOf.get(event.turnId) ?? '')}\n`);
      if (event.type === 'turn-end') {
        const answer = answers[indexOf.get(event.turnId) ?? -1];
        if (answer) [answer.end, answer.code] = [event, reportEnd(event, true, io)];
      }
      continue;
    }
    const index = indexOf.get(event.turnId);
    const answer = index === undefined ? undefined : answers[index];
    if (index === undefined || !answer) continue;
    if (event.type === 'turn-start') {
      answerIo(index).stdout(`── ${labels[index] ?? event.model} (${event.model}) ──\n`);
    }
    answer.printer.print(event);
    if (event.type === 'turn-end') {
      answer.printer.close();
      answer.end = event;
      answer.code = reportEnd(event, false, answerIo(index), 'aivory: this answer was stopped');
    }
    advance();
  }
  // Whatever is still held (an answer that never ended): shown now, in order.
  for (const answer of answers) {
    if (!answer || answer.live) continue;
    for (const { to, text } of answer.held.splice(0)) io[to](text);
  }
  const codes = labels.map((_label, index) => answers[index]?.code ?? EXIT_CANCELED);
  return {
    ends: labels.map((_label, index) => answers[index]?.end ?? null),
    messageIds,
    conversationId,
    code: codes.find((code) => code !== EXIT_OK) ?? EXIT_OK,
  };
}

/** An event as a `--json` line, `type` first, then the `model` of the answer it belongs to. */
export function taggedJson(event: TurnEvent, model: string): string {
  const { type, ...rest } = event;
  return JSON.stringify({ type, model, ...rest });
}

/** What asks the user during an answer (as `TurnRequest` takes them). */
type Askers = Pick<TurnRequest, 'approve' | 'elicit' | 'sample'>;

/**
 * Each answer's approver, elicitor and sampling question (`TurnRequest.answerAskers`), made by
 * `make` over an io whose questions start with the answer's model label; the answers' questions
 * are put one at a time, so two never share the terminal.
 */
export function labelledAskers(
  io: CliIo,
  labels: readonly string[],
  make: (io: CliIo) => Askers,
): NonNullable<TurnRequest['answerAskers']> {
  let tail: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(run: () => Promise<T>): Promise<T> => {
    const next = tail.then(run);
    tail = next.catch(() => undefined);
    return next;
  };
  return ({ index }) => {
    const label = labels[index] ?? '';
    const labelled: CliIo = {
      ...io,
      stderr: (text) => io.stderr(text.startsWith('\n') ? `\n[${label}] ${text.slice(1)}` : text),
    };
    const { approve, elicit, sample } = make(labelled);
    return {
      ...(approve
        ? { approve: (request, signal) => oneAtATime(() => approve(request, signal)) }
        : {}),
      ...(elicit ? { elicit: (request, signal) => oneAtATime(() => elicit(request, signal)) } : {}),
      ...(sample ? { sample: (prompt, signal) => oneAtATime(() => sample(prompt, signal)) } : {}),
    };
  };
}
