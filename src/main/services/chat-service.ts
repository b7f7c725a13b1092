/**
 * Runs turns for the app and the CLI: decides the turn's tools, stores the user's message, builds
 * the history, runs the orchestrator, persists the assistant message progressively and records the
 * turn before its `turn-end` goes out.
 */
import type {
  Message,
  MessagePart,
  MessageStatus,
  ToolMode,
  TurnMode,
  TurnBudgetRecord,
  TurnTaintRecord,
} from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import { messageText } from '../../shared/message-parts';
import type { StopReason, TurnEndEvent, TurnEvent } from '../../shared/turn-events';
import type { LimitOverrides } from '../core/orchestrator/budgets';
import { resolveTurnLimits } from '../core/orchestrator/budgets';
import { runTurn } from '../core/orchestrator/run-turn';
import type {
  Approver,
  ArtifactSink,
  Clock,
  ConversationStore,
  IdGenerator,
  LlmClient,
  Logger,
  MemoryStore,
  SettingsStore,
  SkillStore,
  Tool,
  TurnTools,
} from '../core/ports';
import type { AttachmentInput } from './attachments';
import {
  attachmentsOf,
  checkAttachments,
  describeAttachments,
  storeAttachments,
} from './attachments';
import { buildHistory } from './history';
import { turnToolNames } from './tool-selection';
import { MessageWriter } from './message-writer';
import { PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { USE_SKILL_NAME } from '../tools/use-skill';
import { skillsPromptSection } from './skills-prompt-section';
import { buildSystemPrompt } from './system-prompt';

export type { TurnMcpTools } from './tool-catalog';

/** A model ready to call: from a saved configuration or from CLI flags / environment. */
export interface ResolvedModel {
  /** The saved configuration's id; null for an ad-hoc model from flags or environment. */
  id: string | null;
  baseUrl: string;
  apiKey: string | null;
  model: string;
  toolMode: ToolMode;
  contextWindow: number;
  /** Tools used when a turn names none. */
  defaultTools: string[] | null;
  /** MCP services (ids) offered when a turn names none; null or absent: every enabled one. */
  defaultMcpServices?: string[] | null;
  /**
   * Takes images (present only when true): the answered message's images go to it as image
   * parts (`vision-input.ts`).
   */
  vision?: boolean;
}

export interface TurnRequest {
  conversationId?: string;
  text: string;
  model: ResolvedModel;
  mode: TurnMode;
  /**
   * A one-off selection: exactly these tools for this turn (the model's defaults and the
   * conversation's toggles do not apply; a tool switched off globally is refused). Absent: the
   * model's defaults (or every tool) adjusted by the conversation's own toggles.
   */
  tools?: string[];
  /** Files attached to the user's message. */
  attachments?: AttachmentInput[];
  /**
   * MCP services (ids or names) whose accepted tools this turn offers instead of the model's MCP
   * defaults (or every enabled service); with `tools` the only MCP tools offered.
   */
  mcpServices?: string[];
  /** Answers MCP approval prompts; absent: tools that need approval are refused. */
  approve?: Approver;
  /** The turn's id, chosen by the caller (the desktop needs it before the turn starts). */
  turnId?: string;
  /**
   * Answer the conversation's last user message again (`text` and `attachments` are not used):
   * its answer, which must be the conversation's last message and must have failed, been
   * stopped or be empty, is removed first. Needs `conversationId`.
   */
  retry?: boolean;
}

export interface ChatServiceDependencies {
  /** The turn's conversation, its messages and its turn record. */
  conversations: ConversationStore;
  /** The memories the system prompt lists. */
  memories: Pick<MemoryStore, 'listMemories'>;
  /** The user's skills the system prompt lists. */
  skills: Pick<SkillStore, 'listSkills'>;
  /** The global tool switches. */
  settings: Pick<SettingsStore, 'getToolAvailability'>;
  /** Builds the tools the service picked for a turn (`tool-selection.ts` decides). */
  tools: TurnTools;
  createLlmClient(model: ResolvedModel): LlmClient;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  limitOverrides: LimitOverrides;
  /** Where attachment copies go (`<data>/uploads/<conversation>/`). */
  attachments: ArtifactSink;
}

/** Conversation titles are the first words of the first message, cut to this length. */
const MAX_TITLE_CHARS = 60;

const MESSAGE_STATUS_BY_STOP: Record<StopReason, MessageStatus> = {
  completed: 'complete',
  tool_budget_exceeded: 'complete',
  tool_no_progress: 'complete',
  tool_parse_failure: 'complete',
  length: 'complete',
  canceled: 'canceled',
  error: 'error',
};

export class ChatService {
  private readonly active = new Map<string, AbortController>();

  constructor(private readonly dependencies: ChatServiceDependencies) {}

  /**
   * Runs one turn and yields its events, `turn-start` first and `turn-end` last. The message is
   * on disk throughout, finished and its turn recorded before `turn-end` is yielded; stopping the
   * iteration early finishes it as canceled.
   */
  async *runTurn(request: TurnRequest, signal: AbortSignal): AsyncGenerator<TurnEvent, void> {
    const { conversations, memories, skills, ids, clock, logger } = this.dependencies;
    const retry = request.retry === true;
    const attachmentInputs = retry ? [] : (request.attachments ?? []);
    if (retry && !request.conversationId)
      throw new AivoryError('invalid-input', 'A retry needs the conversation.');
    if (!retry && request.text.trim() === '' && attachmentInputs.length === 0)
      throw new AivoryError('invalid-input', 'The message is empty.');
    checkAttachments(attachmentInputs);
    const existing = request.conversationId
      ? conversations.getConversation(request.conversationId)
      : null;
    if (request.conversationId && !existing) {
      throw new AivoryError('not-found', `No conversation with id ${request.conversationId}.`);
    }
    // A retry answers the stored question again: checked before anything changes.
    const retried = existing && retry ? retryTarget(conversations.listMessages(existing.id)) : null;
    const text = retried ? messageText(retried.question.parts).trim() : request.text.trim();
    const tools = await this.pickTools(request, existing?.toolToggles ?? {});
    const conversation =
      existing ??
      conversations.createConversation({
        id: ids.next('conv'),
        title: titleFrom(text === '' ? (attachmentInputs[0]?.name ?? '') : text),
        modelId: request.model.id,
      });
    // The conversation remembers the model its last turn used: reopened, it continues with it.
    if (existing && existing.modelId !== request.model.id) {
      conversations.setConversationModel(existing.id, request.model.id);
    }
    let previous: Message[];
    let attachmentParts: MessagePart[];
    if (retried) {
      conversations.deleteMessage(retried.failed.id);
      previous = retried.before;
      attachmentParts = retried.question.parts.filter((part) => part.kind === 'attachment');
    } else {
      previous = conversations.listMessages(conversation.id);
      attachmentParts = await storeAttachments(
        this.dependencies.attachments,
        conversation.id,
        attachmentInputs,
      );
      conversations.createMessage({
        id: ids.next('msg'),
        conversationId: conversation.id,
        role: 'user',
        status: 'complete',
        parts: [...(text === '' ? [] : [{ kind: 'text' as const, text }]), ...attachmentParts],
      });
    }
    const pythonOffered = tools.some((tool) => tool.name === PYTHON_EXECUTE_NAME);
    const attachmentNote = await describeAttachments(
      attachmentsOf(attachmentParts),
      pythonOffered,
      request.model.vision === true,
    );
    const userText = [text, attachmentNote.text].filter((piece) => piece !== '').join('\n\n');
    // The content of attached files is untrusted too (a downloaded page, a document with hidden
    // text, an image with text in it): the turn starts tainted (ARCHITECTURE.md, "Turn taint").
    const initialTaint = attachmentNote.inlined.map((name) => ({
      tool: 'attachment',
      detail: name,
    }));
    const messageId = ids.next('msg');
    conversations.createMessage({
      id: messageId,
      conversationId: conversation.id,
      role: 'assistant',
      status: 'streaming',
      parts: [],
    });
    const writer = new MessageWriter(conversations, messageId);
    const turnId = request.turnId ?? ids.next('turn');
    const startedAt = clock.now();
    let recorded = false;
    let taint: TurnTaintRecord | null = null;
    let budget: TurnBudgetRecord | null = null;
    /** Finishes the message and records the turn, once: at `turn-end`, else when stopped early. */
    const record = (end: TurnEndEvent | null): void => {
      if (recorded) return;
      recorded = true;
      const stopReason = end?.stopReason ?? 'canceled';
      writer.finish(MESSAGE_STATUS_BY_STOP[stopReason]);
      conversations.saveTurnRecord({
        id: turnId,
        conversationId: conversation.id,
        messageId,
        modelId: request.model.id,
        modelName: request.model.model,
        stopReason,
        toolCalls: end?.toolCalls ?? {},
        providerRounds: end?.providerRounds ?? 0,
        startedAt,
        durationMs: clock.now() - startedAt,
        errorCode: end?.error?.code ?? null,
        errorMessage: end?.error?.message ?? null,
        budget,
        usage: end?.usage ?? null,
        taint,
      });
    };
    try {
      yield {
        type: 'turn-start',
        turnId,
        conversationId: conversation.id,
        messageId,
        model: request.model.model,
        toolMode: request.model.toolMode,
        mode: request.mode,
      };
      const messages = buildHistory({
        systemPrompt: buildSystemPrompt({
          now: clock.now(),
          memories: memories.listMemories(),
          skillsSection: skillsPromptSection({
            skills: skills.listSkills(),
            useSkillOffered: tools.some((tool) => tool.name === USE_SKILL_NAME),
            pythonOffered,
          }),
        }),
        previous,
        userText,
        userImages: attachmentNote.images,
        contextWindow: request.model.contextWindow,
      });
      const events = runTurn(
        { llm: this.dependencies.createLlmClient(request.model), clock, ids, logger },
        {
          ...(request.approve ? { approve: request.approve } : {}),
          turnId,
          conversationId: conversation.id,
          model: request.model.model,
          toolMode: request.model.toolMode,
          messages,
          tools,
          limits: resolveTurnLimits(request.mode, this.dependencies.limitOverrides),
          initialTaint,
        },
        signal,
      );
      for await (const event of events) {
        writer.apply(event);
        if (event.type === 'budget-update') {
          budget = { perTool: event.perTool, total: event.total, rounds: event.rounds };
        }
        if (event.type === 'turn-tainted') {
          taint = { toolCallId: event.toolCallId, reasons: event.reasons };
        }
        if (event.type === 'turn-end') record(event);
        yield event;
      }
    } finally {
      record(null);
    }
  }

  /**
   * The turn's tools: the names by the layers (`turnToolNames`: global switch, then the turn's
   * one-off selection or the model's defaults with the conversation's toggles), then built for this
   * turn. A tool the user named that cannot run is an error; one the layers picked is left out.
   */
  private async pickTools(request: TurnRequest, toggles: Record<string, boolean>): Promise<Tool[]> {
    const { tools, settings, logger } = this.dependencies;
    const names = turnToolNames(
      await tools.candidates(),
      { switches: settings.getToolAvailability(), model: request.model, toggles },
      {
        ...(request.tools ? { tools: request.tools } : {}),
        ...(request.mcpServices ? { mcpServices: request.mcpServices } : {}),
      },
    );
    const { tools: built, missing } = await tools.build(names);
    for (const { name, reason } of missing) {
      if (request.tools?.includes(name))
        throw new AivoryError('invalid-input', `Tool "${name}" is not available: ${reason}`);
      logger.debug('tool left out of the turn', { tool: name, reason });
    }
    return built;
  }

  /**
   * Starts a turn in the background for the desktop app: events go to `emit` (subscribe before
   * calling), `cancelTurn(turnId)` aborts it. Resolves once the turn has ended.
   */
  startTurn(
    request: TurnRequest,
    emit: (event: TurnEvent) => void,
  ): { turnId: string; done: Promise<void> } {
    const turnId = request.turnId ?? this.dependencies.ids.next('turn');
    const controller = new AbortController();
    this.active.set(turnId, controller);
    const done = (async () => {
      try {
        for await (const event of this.runTurn({ ...request, turnId }, controller.signal)) {
          // Stored by now (see runTurn): past its turn-end a turn can no longer be canceled.
          if (event.type === 'turn-end') this.active.delete(turnId);
          emit(event);
        }
      } finally {
        this.active.delete(turnId);
      }
    })();
    return { turnId, done };
  }

  /** Aborts a running turn; false when no such turn runs. */
  cancelTurn(turnId: string): boolean {
    const controller = this.active.get(turnId);
    if (!controller) return false;
    controller.abort();
    return true;
  }
}

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
}

/**
 * What a retry answers again: the conversation's last message must be an answer that failed,
 * was stopped or interrupted, or came back empty, right after the user's question.
 */
function retryTarget(messages: readonly Message[]): {
  failed: Message;
  question: Message;
  before: Message[];
} {
  const failed = messages.at(-1);
  const question = messages.at(-2);
  const retriable =
    failed?.role === 'assistant' &&
    question?.role === 'user' &&
    (failed.status !== 'complete' || messageText(failed.parts).trim() === '');
  if (!retriable || !failed || !question) {
    throw new AivoryError(
      'invalid-input',
      'Only the last answer can be retried, when it failed, was stopped or came back empty.',
    );
  }
  return { failed, question, before: messages.slice(0, -2) };
}
