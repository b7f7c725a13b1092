/**
 * `chat.send` / `chat.cancel`: starts a turn in the background through the chat service, publishes
 * its TurnEvents on the hub (`turn.event`) as they come and answers once the turn has started, with
 * the ids the renderer needs. The turn id is chosen here, before the turn starts (approvals and
 * `chat.cancel` use it); the chat service records the turn before it yields `turn-end`, so a
 * renderer reloading the conversation on `turn-end` sees its final state. A turn that fails before
 * it starts (empty text, unknown conversation, no model, an unknown tool) answers with that error.
 */
import { AivoryError, toPublicError } from '../../../shared/errors';
import type { InvokeResponse, ParsedRequest } from '../../../shared/ipc-contract';
import type { TurnEndEvent } from '../../../shared/turn-events';
import { modelOverridesFromEnv } from '../../services/model-resolution';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { decodeAttachments } from './turn-inputs';

type ChatHandlers = Pick<ApiHandlers, 'chat.send' | 'chat.cancel'>;

/** The chat handlers over the host context. */
export function createChatHandlers(context: HostContext): ChatHandlers {
  return {
    'chat.send': async (request) => startTurn(context, request),
    'chat.cancel': async ({ turnId }) => ({
      canceled: (await context.app.chat()).cancelTurn(turnId),
    }),
  };
}

async function startTurn(
  context: HostContext,
  request: ParsedRequest<'chat.send'>,
): Promise<InvokeResponse<'chat.send'>> {
  const { app, events } = context;
  // The renderer's model, else the CLI's order (AIVORY_* start-up environment, saved default).
  // Which tools the turn offers is the chat service's decision; only the user's choice goes in.
  const model = await app.models.resolveTurn(request.modelId, modelOverridesFromEnv(context.env));
  const compareWith = await Promise.all(
    (request.compareModelIds ?? []).map((id) => app.models.resolveTurn(id, {})),
  );
  const chat = await app.chat();
  const turnId = app.ids.next('turn');
  /** How many answers start (one per model); the request is answered once all have. */
  const size = 1 + compareWith.length;
  return new Promise((resolve, reject) => {
    let started = false;
    /** The turns that have started and not yet ended, by id. */
    const open = new Set<string>();
    const answers: { turnId: string; messageId: string; model: string; index: number }[] = [];
    let conversationId: string | null = request.conversationId ?? null;
    const { done } = chat.startTurn(
      {
        turnId,
        text: request.text,
        model,
        ...(compareWith.length > 0
          ? {
              compareWith,
              // Each answer asks under its own turn id, so a card can say which answer asks.
              answerAskers: (answer: { turnId: string }) => ({
                approve: context.approvals.approverFor(() => answer.turnId),
                elicit: context.elicitations.elicitorFor(
                  () => answer.turnId,
                  () => conversationId,
                ),
                sample: context.samplings.askFor(
                  () => answer.turnId,
                  () => conversationId,
                ),
              }),
            }
          : {}),
        mode: request.mode ?? app.settings.get('chat').defaultMode,
        // MCP approvals go to the windows as `approval.request`; canceling the turn denies them.
        approve: context.approvals.approverFor(() => turnId),
        // An MCP server's questions go to the windows as `elicitation.request`, never to the model.
        elicit: context.elicitations.elicitorFor(
          () => turnId,
          () => conversationId,
        ),
        // An MCP server's sampling asks the windows (`sampling.request`) before the model answers.
        sample: context.samplings.askFor(
          () => turnId,
          () => conversationId,
        ),
        ...(request.conversationId ? { conversationId: request.conversationId } : {}),
        ...(request.tools ? { tools: request.tools } : {}),
        ...(request.toolToggles ? { toolToggles: request.toolToggles } : {}),
        ...(request.attachments?.length
          ? { attachments: decodeAttachments(request.attachments) }
          : {}),
        ...(request.retry ? { retry: true } : {}),
        ...(request.regenerate ? { regenerate: request.regenerate } : {}),
        ...(request.editOf ? { editOf: request.editOf } : {}),
      },
      (event) => {
        // Several models: each answer's events go out under its own turn id.
        events.publish('turn.event', { turnId: event.turnId, event });
        if (event.type === 'turn-end') open.delete(event.turnId);
        if (event.type === 'turn-start') {
          open.add(event.turnId);
          conversationId = event.conversationId;
          answers.push({
            turnId: event.turnId,
            messageId: event.messageId,
            model: event.model,
            index: event.group?.index ?? 0,
          });
        }
        if (event.type === 'turn-start' && !started && answers.length === size) {
          started = true;
          answers.sort((a, b) => a.index - b.index);
          resolve({
            turnId,
            conversationId: event.conversationId,
            messageId: answers[0]?.messageId ?? event.messageId,
            ...(size > 1 ? { answers: answers.map(({ index: _index, ...answer }) => answer) } : {}),
          });
        }
      },
    );
    done.then(
      () => {
        if (!started) reject(new AivoryError('internal', 'The turn ended before it started.'));
      },
      (error: unknown) => {
        if (!started) {
          reject(error);
          return;
        }
        app.logger.error('turn failed after it started', { error: String(error) });
        for (const id of open)
          events.publish('turn.event', { turnId: id, event: failedEnd(id, error) });
      },
    );
  });
}

/** The turn-end a renderer gets when a started turn broke without reporting its end. */
function failedEnd(turnId: string, error: unknown): TurnEndEvent {
  return {
    type: 'turn-end',
    turnId,
    stopReason: 'error',
    answer: '',
    toolCalls: {},
    providerRounds: 0,
    durationMs: 0,
    error: toPublicError(error),
  };
}
