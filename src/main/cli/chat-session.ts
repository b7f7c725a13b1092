/**
 * The interactive `aivory chat` (no MESSAGE): reads lines (node:readline: line editing and
 * history on a terminal, plain lines from a pipe), runs each as a turn of the same conversation
 * and prints it as the one-shot command does. Ctrl-C stops the answer being written, not the
 * program; at the prompt a first Ctrl-C says how to quit, a second one (or Ctrl-D, or /quit)
 * quits. Commands: /new, /model [ID], /tools [a,b|none|default], /retry, /help, /quit; a line
 * starting with "//" is sent with one "/" less.
 */
import { createInterface } from 'node:readline/promises';
import type { TurnMode } from '../../shared/dto';
import { AivoryError, toPublicError } from '../../shared/errors';
import { messageText } from '../../shared/message-parts';
import type { AppContext } from '../composition/app-context';
import type { ResolvedModel, TurnRequest } from '../services/chat-service';
import type { ModelOverrides } from '../services/model-resolution';
import { savedModel } from '../services/model-resolution';
import { turnToolNames } from '../services/tool-selection';
import { cliApprover } from './cli-approver';
import { cliElicitor } from './cli-elicitor';
import type { CliIo, InterruptSignal } from './cli-io';
import { cliSamplingAsk } from './cli-sampler';
import type { PrintOptions } from './chat-turn';
import { continueLine, reportEnd, runPrintedTurn } from './chat-turn';
import { EXIT_OK } from './cli-errors';
import { parseToolList } from './cli-args';

/** The prompt before each line (standard error, so standard output keeps only the answers). */
export const SESSION_PROMPT = 'you› ';
/** Earlier questions of a continued conversation offered as line history. */
const HISTORY_QUESTIONS = 100;

export interface SessionSetup {
  conversationId?: string;
  model: ResolvedModel;
  /** The model flags and AIVORY_* variables (`/model` without a saved model goes back to them). */
  overrides: ModelOverrides;
  mode: TurnMode;
  tools?: string[];
  mcpServices?: string[];
  flags: { approve?: string; elicit?: string; sampling?: string };
  print: PrintOptions;
}

const HELP = `Type a message and press Enter. Commands:
  /new              start a new conversation
  /model [ID]       show the model and the saved ones, or switch to a saved model (id or label)
  /tools [a,b|none|default]
                    show the tools the next message offers, or choose them for this session
  /retry            answer the last question again (a new version of the answer)
  /help             this text
  /quit             quit (also Ctrl-D, or Ctrl-C twice at the prompt)
Ctrl-C while an answer is written stops it. Start a message with // to send a leading /.
`;

export async function chatSession(
  context: AppContext,
  io: CliIo,
  setup: SessionSetup,
): Promise<number> {
  const lineInput = io.lineInput;
  if (!lineInput) throw new AivoryError('invalid-input', 'No input to read the chat from.');
  const session = {
    conversationId: setup.conversationId ?? null,
    model: setup.model,
    tools: setup.tools,
  };
  const history = session.conversationId ? earlierQuestions(context, session.conversationId) : [];
  const lines = createInterface({
    input: lineInput.input,
    output: lineInput.output,
    terminal: lineInput.terminal,
    history,
    historySize: Math.max(HISTORY_QUESTIONS, history.length),
    removeHistoryDuplicates: true,
  });
  lines.setPrompt(SESSION_PROMPT);
  // The approval, form and sampling questions of a turn are asked on the same line reader.
  const sessionIo: CliIo = {
    ...io,
    ...(lineInput.terminal
      ? { ask: (question: string, signal: AbortSignal) => lines.question(question, { signal }) }
      : {}),
  };
  const approve = cliApprover(setup.flags.approve, sessionIo);
  const elicit = cliElicitor(setup.flags.elicit, sessionIo);
  const sample = cliSamplingAsk(setup.flags.sampling, sessionIo);

  let running: AbortController | null = null;
  let quitAsked = false;
  /** SIGTERM or SIGHUP arrived: the answer under way stops and the session ends after it. */
  let stopping = false;
  const interrupt = (signal: InterruptSignal = 'SIGINT'): void => {
    if (signal !== 'SIGINT') {
      stopping = true;
      if (running) running.abort();
      else lines.close();
      return;
    }
    if (running) {
      running.abort();
      return;
    }
    if (quitAsked) {
      lines.close();
      return;
    }
    quitAsked = true;
    io.stderr(`\n${io.dim('(Ctrl-C again or Ctrl-D to quit, or type /quit)')}\n`);
    if (lineInput.terminal) lines.write(null, { ctrl: true, name: 'u' });
    lines.prompt();
  };
  lines.on('SIGINT', interrupt);
  io.onInterrupt(interrupt);

  const runTurn = async (request: Omit<TurnRequest, 'model' | 'mode'>): Promise<void> => {
    const controller = new AbortController();
    running = controller;
    try {
      const turn = await runPrintedTurn(
        context,
        sessionIo,
        {
          ...request,
          model: session.model,
          mode: setup.mode,
          ...(session.conversationId ? { conversationId: session.conversationId } : {}),
          ...(session.tools ? { tools: session.tools } : {}),
          ...(setup.mcpServices ? { mcpServices: setup.mcpServices } : {}),
          ...(approve ? { approve } : {}),
          elicit,
          ...(sample ? { sample } : {}),
        },
        setup.print,
        controller.signal,
      );
      if (turn.conversationId !== null) session.conversationId = turn.conversationId;
      reportEnd(turn.end, false, io, io.dim('[stopped]'));
    } catch (error) {
      io.stderr(`aivory: ${toPublicError(error).message}\n`);
    } finally {
      running = null;
    }
  };

  const commands: Record<string, (argument: string) => Promise<boolean> | boolean> = {
    '/quit': () => false,
    '/exit': () => false,
    '/help': () => {
      io.stderr(HELP);
      return true;
    },
    '/new': () => {
      session.conversationId = null;
      io.stderr(`${io.dim('New conversation: your next message starts it.')}\n`);
      return true;
    },
    '/model': async (argument) => {
      session.model = await pickModel(context, io, session.model, setup.overrides, argument);
      return true;
    },
    '/tools': async (argument) => {
      if (argument !== '') {
        session.tools = argument === 'default' ? undefined : parseToolList(argument);
      }
      await describeTools(context, io, session);
      return true;
    },
    '/retry': async () => {
      const again = retryRequest(context, session.conversationId);
      if (typeof again === 'string') io.stderr(`aivory: ${again}\n`);
      else await runTurn({ text: '', ...again });
      return true;
    },
  };

  if (session.conversationId) {
    const conversation = context.stores.conversations.getConversation(session.conversationId);
    io.stderr(
      `${io.dim(`Continuing "${conversation?.title ?? ''}" (${session.conversationId}). /help lists the commands.`)}\n`,
    );
  } else {
    io.stderr(`${io.dim(`Chat with ${session.model.model}. /help lists the commands.`)}\n`);
  }
  try {
    lines.prompt();
    for await (const line of lines) {
      quitAsked = false;
      const text = line.trim();
      if (text.startsWith('/') && !text.startsWith('//')) {
        const [name = '', ...rest] = text.split(/\s+/);
        const command = commands[name];
        if (!command) {
          io.stderr(`aivory: unknown command ${name}; /help lists them.\n`);
        } else {
          try {
            if (!(await command(rest.join(' ')))) break;
          } catch (error) {
            io.stderr(`aivory: ${toPublicError(error).message}\n`);
          }
        }
      } else if (text !== '') {
        await runTurn({ text: text.startsWith('//') ? text.slice(1) : text });
      }
      if (stopping) break;
      lines.prompt();
    }
  } finally {
    io.offInterrupt(interrupt);
    lines.close();
  }
  if (lineInput.terminal) io.stderr('\n');
  if (session.conversationId) continueLine(io, session.conversationId);
  await context.titles.settled();
  return EXIT_OK;
}

/** The user's earlier questions in the conversation, newest first (readline's history order). */
function earlierQuestions(context: AppContext, conversationId: string): string[] {
  return context.stores.conversations
    .listMessages(conversationId)
    .filter((message) => message.role === 'user')
    .map((message) => messageText(message.parts).replace(/\s+/g, ' ').trim())
    .filter((text) => text !== '')
    .reverse()
    .slice(0, HISTORY_QUESTIONS);
}

/**
 * `/retry`: a failed, stopped or empty last answer is answered again in its place; a complete one
 * gets a new version. A string says why there is nothing to retry.
 */
function retryRequest(
  context: AppContext,
  conversationId: string | null,
): Pick<TurnRequest, 'retry' | 'regenerate'> | string {
  if (!conversationId) return 'nothing to retry yet: send a message first.';
  const path = context.stores.conversations.listMessages(conversationId);
  const answer = path.at(-1);
  if (answer?.role !== 'assistant') return 'there is no answer to retry.';
  const failed = answer.status !== 'complete' || messageText(answer.parts).trim() === '';
  return failed ? { retry: true } : { regenerate: answer.id };
}

/** `/model`: lists the models, or switches to a saved one by id or label. */
async function pickModel(
  context: AppContext,
  io: CliIo,
  current: ResolvedModel,
  overrides: ModelOverrides,
  argument: string,
): Promise<ResolvedModel> {
  const saved = context.models.list();
  if (argument === '') {
    io.stderr(
      `Model: ${current.model} at ${current.baseUrl}${current.id ? ` (${current.id})` : ''}\n`,
    );
    for (const model of saved) {
      const mark = model.id === current.id ? '*' : ' ';
      io.stderr(`${mark} ${model.id}\t${model.label}\t${model.model}\n`);
    }
    if (saved.length > 0) io.stderr(`${io.dim('Switch with /model ID.')}\n`);
    return current;
  }
  if (argument === 'default') {
    const model = await context.models.resolve(overrides);
    io.stderr(`Model: ${model.model}\n`);
    return model;
  }
  const match = saved.find((model) => model.id === argument || model.label === argument);
  if (!match)
    throw new AivoryError(
      'not-found',
      `No saved model "${argument}"; /model lists them (aivory models add saves one).`,
    );
  const model = await savedModel(match, context.secrets);
  io.stderr(`Model: ${match.label} (${model.model})\n`);
  return model;
}

/** `/tools`: the tools the next message offers, by the chat service's own layers. */
async function describeTools(
  context: AppContext,
  io: CliIo,
  session: { conversationId: string | null; model: ResolvedModel; tools: string[] | undefined },
): Promise<void> {
  const toggles = session.conversationId
    ? (context.stores.conversations.getConversation(session.conversationId)?.toolToggles ?? {})
    : {};
  const names = turnToolNames(
    await context.tools.candidates(),
    { switches: context.stores.settings.getToolAvailability(), model: session.model, toggles },
    session.tools ? { tools: session.tools } : {},
  );
  const chosen = session.tools ? 'chosen for this session' : "the model's defaults";
  io.stderr(
    names.length === 0 ? `No tools (${chosen}).\n` : `Tools (${chosen}): ${names.join(', ')}\n`,
  );
}
