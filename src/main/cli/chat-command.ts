/**
 * `aivory chat`: one turn through the same services as the app, stored in a conversation; with no
 * MESSAGE the interactive chat (`chat-session.ts`).
 */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { TurnMode } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { AppContext } from '../composition/app-context';
import { requireConversation } from '../services/conversation-lookup';
import type { AttachmentInput } from '../services/attachments';
import { MAX_ATTACHMENT_BYTES } from '../../shared/ipc/limits';
import { mergeOverrides, modelOverridesFromEnv } from '../services/model-resolution';
import { EXIT_OK, usageError } from './cli-errors';
import type { CliIo } from './cli-io';
import { cliApprover } from './cli-approver';
import { cliElicitor } from './cli-elicitor';
import { cliSamplingAsk } from './cli-sampler';
import { ATTACH_RESOURCE_FLAG, readResourceAttachments, takeResourceFlags } from './chat-resources';
import { parseServiceList, parseToolList } from './cli-args';
import { readInputFile } from './input-files';

export { parseServiceList, parseToolList } from './cli-args';
import type { PrintedTurn } from './chat-turn';
import { continueLine, reportEnd, runPrintedTurn } from './chat-turn';
import { chatSession } from './chat-session';
import type { NamedModel } from './chat-models';
import { labelledAskers, resolveModelList, runPrintedGroup } from './chat-models';
import type { TurnRequest } from '../services/chat-service';

export async function chatCommand(argv: string[], context: AppContext, io: CliIo): Promise<number> {
  const { argv: args, resources } = takeResourceFlags(argv);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      model: { type: 'string' },
      models: { type: 'string' },
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
      continue: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'show-reasoning': { type: 'boolean', default: false },
    },
  });
  if (values.continue && values.conversation !== undefined)
    throw usageError('Give --continue (the latest conversation) or --conversation ID, not both.');
  const conversationId = values.continue ? latestConversation(context) : values.conversation;
  const text = positionals.join(' ');
  // Files first, then the resources' files (read once the turn is ready to run).
  const attachments: AttachmentInput[] = (values.attach ?? []).map((path) => {
    const name = basename(path);
    return { name, data: readInputFile(path, '--attach', MAX_ATTACHMENT_BYTES) };
  });
  const attachmentCount = attachments.length + resources.length;
  const regenerate = values.regenerate
    ? lastAnswerId(context, conversationId, text, attachmentCount)
    : undefined;
  if (values.edit !== undefined && !conversationId)
    throw usageError('--edit needs --conversation ID (the question to edit is in it).');
  // No message: the interactive chat (a terminal, or lines on standard input).
  const interactive = regenerate === undefined && text.trim() === '' && attachmentCount === 0;
  if (interactive && (values.json || values.edit !== undefined || io.lineInput === undefined))
    throw usageError(
      values.json
        ? '--json needs a MESSAGE (the interactive chat prints text).'
        : 'Usage: aivory chat [options] MESSAGE (see aivory --help).',
    );
  if (values.models !== undefined) {
    if (interactive) throw usageError('--models needs a MESSAGE (one question for every model).');
    const clash = (['base-url', 'api-key', 'model', 'tool-mode', 'vision'] as const).find(
      (flag) => values[flag] !== undefined,
    );
    if (clash) throw usageError(`--models names saved models: give it without --${clash}.`);
  }
  const mode = parseMode(values.mode);
  if (conversationId) requireConversation(context.stores.conversations, conversationId);
  const conversationModelId = conversationId
    ? (context.stores.conversations.getConversation(conversationId)?.modelId ?? null)
    : null;
  const overrides = mergeOverrides(
    {
      baseUrl: values['base-url'],
      apiKey: values['api-key'],
      model: values.model,
      toolMode: values['tool-mode'],
      vision: values.vision,
    },
    modelOverridesFromEnv(io.env),
  );
  const named = values.models === undefined ? null : await resolveModelList(context, values.models);
  const model =
    named?.[0]?.model ?? (await context.models.resolveConversation(conversationModelId, overrides));
  // What the user chose for this turn; the chat service decides the turn's tools from it.
  const tools = parseToolList(values.tools);
  const mcpServices = parseServiceList(values.mcp);
  for (const name of mcpServices ?? []) context.mcp.get(name);
  const printOptions = { json: values.json, showReasoning: values['show-reasoning'] };
  if (interactive) {
    return chatSession(context, io, {
      ...(conversationId ? { conversationId } : {}),
      model,
      overrides,
      mode,
      ...(tools ? { tools } : {}),
      ...(mcpServices ? { mcpServices } : {}),
      flags: { approve: values.approve, elicit: values.elicit, sampling: values.sampling },
      print: printOptions,
    });
  }
  const approve = cliApprover(values.approve, io);
  const elicit = cliElicitor(values.elicit, io);
  const sample = cliSamplingAsk(values.sampling, io);
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  io.onInterrupt(onInterrupt);
  let turn: PrintedTurn;
  try {
    // Read last, once everything else checked out: the servers are asked only for a turn that runs.
    attachments.push(...(await readResourceAttachments(context.mcp, resources, controller.signal)));
    const request: TurnRequest = {
      text,
      model,
      mode,
      ...(named && named.length > 1
        ? {
            compareWith: named.slice(1).map((entry) => entry.model),
            answerAskers: labelledAskers(
              io,
              named.map((entry) => entry.label),
              (labelled) => {
                const own = {
                  approve: cliApprover(values.approve, labelled),
                  sample: cliSamplingAsk(values.sampling, labelled),
                };
                return {
                  ...(own.approve ? { approve: own.approve } : {}),
                  elicit: cliElicitor(values.elicit, labelled),
                  ...(own.sample ? { sample: own.sample } : {}),
                };
              },
            ),
          }
        : {}),
      ...(conversationId ? { conversationId } : {}),
      ...(regenerate ? { regenerate } : {}),
      ...(values.edit === undefined ? {} : { editOf: values.edit }),
      ...(tools ? { tools } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(mcpServices ? { mcpServices } : {}),
      ...(approve ? { approve } : {}),
      elicit,
      ...(sample ? { sample } : {}),
    };
    if (named && named.length > 1) {
      const group = await runPrintedGroup(
        context,
        io,
        request,
        named.map((entry) => entry.label),
        printOptions,
        controller.signal,
      );
      if (!values.json && group.conversationId !== null) {
        versionLines(io, group.conversationId, group.messageIds, named);
        if (group.code === EXIT_OK) continueLine(io, group.conversationId);
      }
      await context.titles.settled();
      return group.code;
    }
    turn = await runPrintedTurn(context, io, request, printOptions, controller.signal);
  } finally {
    io.offInterrupt(onInterrupt);
  }
  const code = reportEnd(turn.end, values.json, io);
  // How to go on: the id on stderr, after everything else (stdout keeps only the answer). A
  // failed or stopped turn ends with its one error line instead.
  if (!values.json && code === EXIT_OK && turn.conversationId !== null)
    continueLine(io, turn.conversationId);
  // A title the model is writing for a new conversation is worth the wait (Ctrl-C ends it).
  await context.titles.settled();
  return code;
}

/**
 * After several answers (stderr, dimmed): which one the conversation goes on from (the first),
 * and how to keep another instead.
 */
function versionLines(
  io: CliIo,
  conversationId: string,
  messageIds: readonly (string | null)[],
  named: readonly NamedModel[],
): void {
  messageIds.forEach((messageId, index) => {
    if (messageId === null) return;
    const label = named[index]?.label ?? '';
    io.stderr(
      `${io.dim(
        index === 0
          ? `kept: the answer of ${label} (the others are versions of it)`
          : `keep ${label}'s instead: aivory conversations version ${conversationId} ${messageId}`,
      )}
`,
    );
  });
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

/** `--continue`: the conversation with the latest activity. */
function latestConversation(context: AppContext): string {
  const latest = context.stores.conversations.listConversations()[0];
  if (!latest)
    throw new AivoryError(
      'not-found',
      'There is no conversation to continue yet. Start one with: aivory chat',
    );
  return latest.id;
}

export function parseMode(value: string | undefined): TurnMode {
  if (value === 'fast' || value === 'normal' || value === 'deep') return value;
  throw new AivoryError('invalid-input', `--mode must be fast, normal or deep, not "${value}".`);
}
