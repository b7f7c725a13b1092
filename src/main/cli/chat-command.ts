/** `aivory chat`: one turn through the same services as the app, stored in a conversation. */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { TurnMode } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { TurnEndEvent } from '../../shared/turn-events';
import type { AppContext } from '../services/app-context';
import { requireConversation } from '../services/conversation-lookup';
import type { AttachmentInput } from '../services/attachments';
import { MAX_ATTACHMENT_BYTES } from '../services/attachments';
import {
  mergeOverrides,
  modelOverridesFromEnv,
  resolveConversationModel,
} from '../services/model-resolution';
import { EXIT_CANCELED, EXIT_OK, exitCodeFor, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { cliApprover } from './cli-approver';
import { cliElicitor } from './cli-elicitor';
import { cliSamplingAsk } from './cli-sampler';
import { ATTACH_RESOURCE_FLAG, readResourceAttachments, takeResourceFlags } from './chat-resources';
import { readInputFile } from './input-files';
import {
  eventJson,
  progressThrottle,
  STOP_REASON_TEXT,
  traceLine,
  usageLine,
} from './trace-format';

export async function chatCommand(argv: string[], context: AppContext, io: CliIo): Promise<number> {
  const { argv: args, resources } = takeResourceFlags(argv);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      model: { type: 'string' },
      'tool-mode': { type: 'string' },
      vision: { type: 'boolean' },
      mode: { type: 'string', default: 'normal' },
      tools: { type: 'string' },
      conversation: { type: 'string' },
      regenerate: { type: 'boolean', default: false },
      edit: { type: 'string' },
      attach: { type: 'string', multiple: true },
      mcp: { type: 'string' },
      approve: { type: 'string' },
      elicit: { type: 'string' },
      sampling: { type: 'string' },
      json: { type: 'boolean', default: false },
      'show-reasoning': { type: 'boolean', default: false },
    },
  });
  const text = positionals.join(' ');
  // Files first, then the resources' files (read once the turn is ready to run).
  const attachments: AttachmentInput[] = (values.attach ?? []).map((path) => {
    const name = basename(path);
    return { name, data: readInputFile(path, '--attach', MAX_ATTACHMENT_BYTES) };
  });
  const attachmentCount = attachments.length + resources.length;
  const regenerate = values.regenerate
    ? lastAnswerId(context, values.conversation, text, attachmentCount)
    : undefined;
  if (values.edit !== undefined && !values.conversation)
    throw usageError('--edit needs --conversation ID (the question to edit is in it).');
  if (regenerate === undefined && text.trim() === '' && attachmentCount === 0)
    throw usageError('Usage: aivory chat [options] MESSAGE (see aivory --help).');
  const mode = parseMode(values.mode);
  const conversationModelId = values.conversation
    ? (context.stores.conversations.getConversation(values.conversation)?.modelId ?? null)
    : null;
  const model = await resolveConversationModel(
    conversationModelId,
    mergeOverrides(
      {
        baseUrl: values['base-url'],
        apiKey: values['api-key'],
        model: values.model,
        toolMode: values['tool-mode'],
        vision: values.vision,
      },
      modelOverridesFromEnv(io.env),
    ),
    context.stores.settings.listModels(),
    context.secrets,
  );
  // What the user chose for this turn; the chat service decides the turn's tools from it.
  const tools = parseToolList(values.tools);
  const mcpServices = parseServiceList(values.mcp);
  for (const name of mcpServices ?? []) context.mcp.get(name);
  const approve = cliApprover(values.approve, io);
  const elicit = cliElicitor(values.elicit, io);
  const sample = cliSamplingAsk(values.sampling, io);
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  io.onInterrupt(onInterrupt);
  let end: TurnEndEvent | null = null;
  let answerOpen = false;
  try {
    // Read last, once everything else checked out: the servers are asked only for a turn that runs.
    attachments.push(...(await readResourceAttachments(context.mcp, resources, controller.signal)));
    const events = context.chat.runTurn(
      {
        text,
        model,
        mode,
        ...(values.conversation ? { conversationId: values.conversation } : {}),
        ...(regenerate ? { regenerate } : {}),
        ...(values.edit === undefined ? {} : { editOf: values.edit }),
        ...(tools ? { tools } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(mcpServices ? { mcpServices } : {}),
        ...(approve ? { approve } : {}),
        elicit,
        ...(sample ? { sample } : {}),
      },
      controller.signal,
    );
    const printProgress = progressThrottle(() => performance.now());
    for await (const event of events) {
      if (values.json) {
        io.stdout(`${eventJson(event)}\n`);
      } else if (event.type === 'text-delta') {
        io.stdout(event.text);
        answerOpen = !event.text.endsWith('\n');
      } else if (event.type === 'reasoning-delta' && values['show-reasoning']) {
        io.stderr(io.dim(event.text));
      } else {
        const line = printProgress(event) ? traceLine(event) : null;
        if (line && event.type !== 'budget-update') {
          if (answerOpen) io.stdout('\n');
          answerOpen = false;
          io.stderr(`${io.dim(line)}\n`);
        }
      }
      if (event.type === 'turn-end') end = event;
    }
  } finally {
    io.offInterrupt(onInterrupt);
  }
  if (!values.json && answerOpen) io.stdout('\n');
  return finish(end, values.json, io);
}

function finish(end: TurnEndEvent | null, json: boolean, io: CliIo): number {
  if (!end) return EXIT_CANCELED;
  // What the turn cost, when the provider said (in --json it is turn-end's `usage`).
  if (!json && end.usage) io.stderr(`${io.dim(usageLine(end.usage))}\n`);
  if (end.stopReason === 'error') {
    io.stderr(`aivory: ${end.error?.message ?? 'the turn failed'}\n`);
    return exitCodeFor(end.error?.code ?? 'internal');
  }
  if (end.stopReason === 'canceled') {
    if (!json) io.stderr('aivory: canceled\n');
    return EXIT_CANCELED;
  }
  if (!json && end.stopReason !== 'completed') {
    io.stderr(`${io.dim(`[${STOP_REASON_TEXT[end.stopReason]}]`)}\n`);
  }
  return EXIT_OK;
}

/** `--regenerate`: the id of the last answer shown in the conversation, checked. */
function lastAnswerId(
  context: AppContext,
  conversationId: string | undefined,
  text: string,
  attachmentCount: number,
): string {
  if (!conversationId) throw usageError('--regenerate needs --conversation ID.');
  if (text.trim() !== '' || attachmentCount > 0)
    throw usageError(
      `--regenerate answers the last question again: give no MESSAGE, --attach or ${ATTACH_RESOURCE_FLAG}.`,
    );
  requireConversation(context.stores.conversations, conversationId);
  const answer = context.stores.conversations
    .listMessages(conversationId)
    .findLast((message) => message.role === 'assistant');
  if (!answer) throw new AivoryError('invalid-input', 'This conversation has no answer yet.');
  return answer.id;
}

function parseMode(value: string | undefined): TurnMode {
  if (value === 'fast' || value === 'normal' || value === 'deep') return value;
  throw new AivoryError('invalid-input', `--mode must be fast, normal or deep, not "${value}".`);
}

/**
 * `--tools a,b c` → ['a','b','c'] (tool names have no spaces: commas or spaces separate them);
 * "none" → [] (no tools); absent → undefined (defaults).
 */
export function parseToolList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return noneMeansEmpty(value.split(/[\s,]+/));
}

/**
 * `--mcp "Notes Ω/2, files"` → ['Notes Ω/2', 'files']: service names may hold spaces, so only
 * commas separate them (each name trimmed); "none" → []; absent → undefined (defaults).
 */
export function parseServiceList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return noneMeansEmpty(value.split(',').map((name) => name.trim()));
}

function noneMeansEmpty(parts: string[]): string[] {
  const names = parts.filter((name) => name !== '');
  return names.length === 1 && names[0] === 'none' ? [] : names;
}
