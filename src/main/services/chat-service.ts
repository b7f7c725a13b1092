/**
 * Runs turns for the app and the CLI: decides the turn's tools, stores the user's message, builds
 * the history, runs the orchestrator, persists the assistant message progressively and records the
 * turn before its `turn-end` goes out.
 */
import type {
  Conversation,
  Message,
  MessagePart,
  ModelDefaults,
  SamplingParameters,
  ToolMode,
  TurnMode,
} from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import { messageText } from '../../shared/message-parts';
import type { TokenUsage, TurnEndEvent, TurnEvent, TurnGroup } from '../../shared/turn-events';
import type { LimitOverrides } from '../core/orchestrator/budgets';
import { resolveTurnLimits } from '../core/orchestrator/budgets';
import { runTurn } from '../core/orchestrator/run-turn';
import type {
  Approver,
  ChatImage,
  ChatMessage,
  ArtifactSink,
  Clock,
  ConversationStore,
  ConversationTitler,
  IdGenerator,
  LlmClient,
  Logger,
  McpElicitor,
  McpSampler,
  MemoryStore,
  PromptTemplateStore,
  SettingsStore,
  SkillStore,
  Tool,
  ToolContext,
  ToolOutput,
  TurnClaim,
  TurnTools,
} from '../core/ports';
import type { AttachmentInput } from './attachments';
import {
  attachmentsOf,
  checkAttachments,
  describeAttachments,
  storeAttachments,
} from './attachments';
import { buildHistory, replayableMessages, selectByPolicy } from './history';
import type { TurnSettings } from './conversation-settings';
import { resolveTurnSettings, withConversationInstructions } from './conversation-settings';
import { capTurnTools, MAX_TURN_TOOLS, turnToolNames } from './tool-selection';
import { AnswerRecord, MESSAGE_STATUS_BY_STOP } from './answer-record';
import { mergeStreams } from './merge-streams';
import { PYTHON_EXECUTE_NAME } from '../tools/python-execute';
import { USE_SKILL_NAME } from '../tools/use-skill';
import { RunningTurns } from './running-turns';
import { UnsavedAnswerEnds } from './unsaved-answer-ends';
import type { EarlierMessages, TurnPathRequest } from './turn-path';
import { NO_EARLIER_MESSAGES, isCompleteAnswer, readTurnPath } from './turn-path';
import { skillsPromptSection } from './skills-prompt-section';
import { buildSystemPrompt } from './system-prompt';
import { TurnProgress } from './turn-progress';
import { withElicitor } from './turn-elicitation';
import type { McpSamplingAsk, SamplingAlwaysAllow } from './turn-sampling';
import { createSampler, withSampler } from './turn-sampling';

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
  /** The saved model's temperature / top_p / max tokens for its conversations. */
  defaults?: ModelDefaults;
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
  /**
   * A new conversation's own tool switches (ignored with `conversationId`: a conversation keeps
   * its own): stored with it, and this first turn already follows them.
   */
  toolToggles?: Record<string, boolean>;
  /** Files attached to the user's message. */
  attachments?: AttachmentInput[];
  /**
   * MCP services (ids or names) whose accepted tools this turn offers instead of the model's MCP
   * defaults (or every enabled service); with `tools` the only MCP tools offered.
   */
  mcpServices?: string[];
  /** Answers MCP approval prompts; absent: tools that need approval are refused. */
  approve?: Approver;
  /** Answers an MCP server's elicitation during the turn's calls; absent: declined. */
  elicit?: McpElicitor;
  /**
   * Asks the user whether an MCP server may have the turn's model answer it during a call
   * (`turn-sampling.ts`); absent: every sampling request is refused.
   */
  sample?: McpSamplingAsk;
  /** The turn's id, chosen by the caller (the desktop needs it before the turn starts). */
  turnId?: string;
  /**
   * Answer the conversation's last user message again (`text` and `attachments` are not used):
   * its answer, which must be the conversation's last message and must have failed, been
   * stopped or be empty, is removed first. Needs `conversationId`.
   */
  retry?: boolean;
  /**
   * Write a new version of this answer (an assistant message on the conversation's shown path)
   * from the same context: its question is answered again and the new answer becomes its sibling
   * (`text` and `attachments` are not used). Needs `conversationId`.
   */
  regenerate?: string;
  /**
   * Ask this question (a user message on the shown path) again with `text` instead: the new
   * question becomes its sibling, keeps its attached files (plus `attachments`), and is answered;
   * what followed the old one stays in its branch. Needs `conversationId`.
   */
  editOf?: string;
  /**
   * Other saved models that answer the same question beside `model`, at once (at most
   * `MAX_ANSWER_MODELS` in all): each answer a sibling version under the question, its own turn
   * (`TurnStartEvent.group`). Only for a new question or an edit (not a retry or a new version).
   */
  compareWith?: ResolvedModel[];
  /**
   * Who answers each answer's approvals, elicitations and sampling requests when several models
   * answer (so a card can say which answer asks); absent: `approve`, `elicit`, `sample`.
   */
  answerAskers?: (answer: {
    turnId: string;
    model: ResolvedModel;
    index: number;
  }) => Pick<TurnRequest, 'approve' | 'elicit' | 'sample'>;
}

/** At most this many models answer one question side by side. */
export const MAX_ANSWER_MODELS = 4;

/** What every answer to one question shares (`ChatService.answer`). */
interface SharedTurnInput {
  request: TurnRequest;
  conversation: Conversation;
  /** The shown path before the question, as far back as a window reaches: the history. */
  previous: EarlierMessages;
  attachmentParts: MessagePart[];
  /** The question's text. */
  text: string;
}

/** What is one answer's own. */
interface AnswerInput {
  model: ResolvedModel;
  tools: Tool[];
  turnId: string;
  /** The question it answers (absent: after the end of the shown path). */
  parentId?: string;
  /** Its message, when already created (a group creates them all first). */
  messageId?: string;
  group?: TurnGroup;
  approve?: Approver;
  elicit?: McpElicitor;
  sample?: McpSamplingAsk;
  signal: AbortSignal;
}

export interface ChatServiceDependencies {
  /** The turn's conversation, its messages and its turn record. */
  conversations: ConversationStore;
  /**
   * Where answer ends the store refused wait (made here when absent); the app passes its own so
   * its windows can show them before they are written (`AppContext.unsavedAnswerEnds`).
   */
  unsavedEnds?: UnsavedAnswerEnds;
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
  /** The saved prompts a conversation's settings may name as its instructions. */
  prompts?: Pick<PromptTemplateStore, 'getPromptTemplate'>;
  /** The services whose sampling requests need no approval (`mcp.samplingAlwaysAllow`). */
  samplingAlwaysAllow?: SamplingAlwaysAllow;
  /** Told about a conversation's first complete answer (a title from its model); absent: none. */
  titles?: ConversationTitler;
}

/** Conversation titles are the first words of the first message, cut to this length. */
const MAX_TITLE_CHARS = 60;

export class ChatService {
  private readonly active = new Map<string, AbortController>();
  /** Every turn running, so closing the app ends them first (`close`). */
  private readonly turns = new RunningTurns();
  /** Answers whose end a full disk or a lock kept from the store, written at the next chance. */
  private readonly unsavedEnds: UnsavedAnswerEnds;

  constructor(private readonly dependencies: ChatServiceDependencies) {
    this.unsavedEnds = dependencies.unsavedEnds ?? new UnsavedAnswerEnds(dependencies);
  }

  /**
   * Runs one turn and yields its events, `turn-start` first and `turn-end` last. The message is
   * on disk throughout, finished and its turn recorded before `turn-end` is yielded; stopping the
   * iteration early finishes it as canceled. Throws `busy` (nothing stored) while another turn
   * runs in the conversation, in any process (`ConversationStore.claimTurn`), and `canceled` once
   * the app is closing (`close`).
   */
  async *runTurn(request: TurnRequest, signal: AbortSignal): AsyncGenerator<TurnEvent, void> {
    const leave = this.turns.enter();
    try {
      yield* this.runEnteredTurn(request, AbortSignal.any([signal, this.turns.signal]));
    } finally {
      leave();
    }
  }

  /**
   * Ends every running turn before the app stops what they use (the sandbox, the MCP servers):
   * each is aborted, so no further model request goes out, and stored as `interrupted`; waits
   * for them a bounded time (`TURN_CLOSE_GRACE_MS`). Turns asked for afterwards are refused.
   */
  async close(): Promise<void> {
    await this.turns.close();
    this.unsavedEnds.close();
  }

  /** `runTurn` once the turn is counted among the running ones (`turns`). */
  private async *runEnteredTurn(
    request: TurnRequest,
    signal: AbortSignal,
  ): AsyncGenerator<TurnEvent, void> {
    const { conversations, ids } = this.dependencies;
    // An earlier answer whose end could not be stored is ended first (it is history too).
    if (this.unsavedEnds.size > 0) this.unsavedEnds.retry();
    const again = request.retry === true || request.regenerate !== undefined;
    const attachmentInputs = again ? [] : (request.attachments ?? []);
    if ((again || request.editOf !== undefined) && !request.conversationId)
      throw new AivoryError(
        'invalid-input',
        'A retry, a new version or an edit needs the conversation.',
      );
    if (!again && request.text.trim() === '' && attachmentInputs.length === 0)
      throw new AivoryError('invalid-input', 'The message is empty.');
    checkCompared(request, again);
    checkAttachments(attachmentInputs);
    const existing = request.conversationId
      ? conversations.getConversation(request.conversationId)
      : null;
    if (request.conversationId && !existing) {
      throw new AivoryError('not-found', `No conversation with id ${request.conversationId}.`);
    }
    const turnId = request.turnId ?? ids.next('turn');
    // The conversation is claimed before its messages are read or anything is stored, and given
    // back only after the answer is finished: a turn already running in it, in this process or
    // any other on the same database, refuses this one (issue 21: they interleaved).
    const held: HeldConversation = {
      claim: existing ? claimConversation(conversations, existing.id, turnId) : null,
    };
    try {
      yield* this.runClaimedTurn(request, signal, { existing, turnId, held });
    } finally {
      held.claim?.release();
    }
  }

  /**
   * `runTurn` once the conversation is claimed (a new conversation is claimed here as soon as it
   * exists, in `held`): everything from checking what the turn builds on to recording the turn.
   */
  private async *runClaimedTurn(
    request: TurnRequest,
    signal: AbortSignal,
    started: { existing: Conversation | null; turnId: string; held: HeldConversation },
  ): AsyncGenerator<TurnEvent, void> {
    const { conversations, ids } = this.dependencies;
    const { existing, turnId, held } = started;
    const again = request.retry === true || request.regenerate !== undefined;
    const attachmentInputs = again ? [] : (request.attachments ?? []);
    // What the turn builds on is checked before anything changes. The shown path is read once,
    // newest first in pages (the claim is already held: no other turn changes it meanwhile),
    // keeping only what a window of the turn's models can hold (`turn-path.ts`).
    const answerModels = [request.model, ...(request.compareWith ?? [])];
    const path = existing
      ? await readTurnPath(conversations, existing.id, {
          tailEnds: tailEnds(request),
          reach: Math.max(...answerModels.map((model) => model.contextWindow)),
        })
      : null;
    const basis = path ? turnBasis(path.tail, path.earlier, request) : null;
    const text = basis?.question ? messageText(basis.question.parts).trim() : request.text.trim();
    const newToggles = existing ? {} : (request.toolToggles ?? {});
    // Each model its own tools (its defaults differ), all decided before anything is stored.
    const toolsByModel: Tool[][] = [];
    for (const model of answerModels) {
      toolsByModel.push(
        await this.pickTools({ ...request, model }, existing ? existing.toolToggles : newToggles),
      );
    }
    const conversation =
      existing ??
      conversations.createConversation({
        id: ids.next('conv'),
        title: titleFrom(text === '' ? (attachmentInputs[0]?.name ?? '') : text),
        modelId: request.model.id,
      });
    if (!existing && Object.keys(newToggles).length > 0) {
      conversations.setConversationToolToggles(conversation.id, newToggles);
    }
    held.claim ??= claimConversation(conversations, conversation.id, turnId);
    // The conversation remembers the model its last turn used: reopened, it continues with it.
    if (existing && existing.modelId !== request.model.id) {
      conversations.setConversationModel(existing.id, request.model.id);
    }
    const previous = basis?.before ?? path?.earlier ?? NO_EARLIER_MESSAGES;
    /** Where the answer goes: absent, after the end of the shown path (the new question). */
    let answerParent: string | undefined;
    let attachmentParts: MessagePart[];
    if (basis?.question) {
      // A retry or a new version: the stored question is answered again.
      if (basis.replaced) conversations.deleteMessage(basis.replaced.id);
      answerParent = basis.question.id;
      attachmentParts = basis.question.parts.filter((part) => part.kind === 'attachment');
    } else {
      const stored = await storeAttachments(
        this.dependencies.attachments,
        conversation.id,
        attachmentInputs,
      );
      const kept = basis?.edited?.parts.filter((part) => part.kind === 'attachment') ?? [];
      attachmentParts = [...kept, ...stored];
      const question = conversations.createMessage({
        id: ids.next('msg'),
        conversationId: conversation.id,
        // An edit is a new version of the question: it follows what the old one followed.
        ...(basis?.edited ? { parentId: basis.edited.parentId } : {}),
        role: 'user',
        status: 'complete',
        parts: [...(text === '' ? [] : [{ kind: 'text' as const, text }]), ...attachmentParts],
      });
      // Several answers all follow the new question (not the one before them).
      if (answerModels.length > 1) answerParent = question.id;
    }
    const shared: SharedTurnInput = { request, conversation, previous, attachmentParts, text };
    if (answerModels.length === 1) {
      yield* this.answer(shared, {
        model: request.model,
        tools: toolsByModel[0] ?? [],
        turnId,
        ...(answerParent === undefined ? {} : { parentId: answerParent }),
        ...(request.approve ? { approve: request.approve } : {}),
        ...(request.elicit ? { elicit: request.elicit } : {}),
        ...(request.sample ? { sample: request.sample } : {}),
        signal,
      });
      return;
    }
    yield* this.answerAll(shared, {
      groupId: turnId,
      parentId: answerParent ?? '',
      models: answerModels,
      toolsByModel,
      signal,
    });
  }

  /**
   * The answers of several models to the question just stored (a turn group): each a sibling
   * message under it, its own turn (id, record, tools and budgets, approvals named by its turn),
   * built from the same history, none seeing another's output; they stream at once and their
   * events come interleaved, each tagged by its turn id. The first model's answer is the one the
   * conversation shows until the user keeps another (`conversations.showVersion`). One answer can
   * be stopped alone (`cancelTurn` with its turn id); the group's id stops them all.
   */
  private async *answerAll(
    shared: SharedTurnInput,
    group: {
      groupId: string;
      parentId: string;
      models: ResolvedModel[];
      toolsByModel: Tool[][];
      signal: AbortSignal;
    },
  ): AsyncGenerator<TurnEvent, void> {
    const { conversations, ids } = this.dependencies;
    const { request, conversation } = shared;
    const stopAll = new AbortController();
    const answers = group.models.map((model, index) => {
      const turnId = ids.next('turn');
      const messageId = ids.next('msg');
      conversations.createMessage({
        id: messageId,
        conversationId: conversation.id,
        parentId: group.parentId,
        role: 'assistant',
        status: 'streaming',
        parts: [],
      });
      return { model, index, turnId, messageId, own: new AbortController() };
    });
    const first = answers[0];
    if (first) conversations.showVersion(conversation.id, first.messageId);
    // The conversation has one sandbox, which runs one call at a time (another is refused as
    // busy): the answers' Python calls take turns.
    const sandboxCall = oneCallAtATime(PYTHON_EXECUTE_NAME);
    const streams = answers.map((answer) => {
      this.active.set(answer.turnId, answer.own);
      const askers = request.answerAskers?.({
        turnId: answer.turnId,
        model: answer.model,
        index: answer.index,
      }) ?? {
        ...(request.approve ? { approve: request.approve } : {}),
        ...(request.elicit ? { elicit: request.elicit } : {}),
        ...(request.sample ? { sample: request.sample } : {}),
      };
      const events = this.answer(shared, {
        model: answer.model,
        tools: (group.toolsByModel[answer.index] ?? []).map(sandboxCall),
        turnId: answer.turnId,
        parentId: group.parentId,
        messageId: answer.messageId,
        group: { id: group.groupId, index: answer.index, size: answers.length },
        ...askers,
        signal: AbortSignal.any([group.signal, stopAll.signal, answer.own.signal]),
      });
      return this.forgetWhenDone(answer.turnId, events);
    });
    yield* mergeStreams(streams, () => stopAll.abort());
  }

  /** Yields the answer's events; its turn can no longer be stopped alone once it has ended. */
  private async *forgetWhenDone(
    turnId: string,
    events: AsyncGenerator<TurnEvent, void>,
  ): AsyncGenerator<TurnEvent, void> {
    try {
      for await (const event of events) {
        if (event.type === 'turn-end') this.active.delete(turnId);
        yield event;
      }
    } finally {
      this.active.delete(turnId);
    }
  }

  /**
   * One answer to the stored question: its message (created here unless the group made it), the
   * history, the orchestrator's events written to the message and the turn recorded before
   * `turn-end` is yielded.
   */
  private async *answer(
    shared: SharedTurnInput,
    own: AnswerInput,
  ): AsyncGenerator<TurnEvent, void> {
    const { conversations, ids, clock, logger } = this.dependencies;
    const { request, conversation, previous, attachmentParts, text } = shared;
    const { tools, turnId } = own;
    const model = own.model;
    const pythonOffered = tools.some((tool) => tool.name === PYTHON_EXECUTE_NAME);
    const attachmentNote = await describeAttachments(
      attachmentsOf(attachmentParts),
      pythonOffered,
      model.vision === true,
    );
    const userText = [text, attachmentNote.text].filter((piece) => piece !== '').join('\n\n');
    // The content of attached files is untrusted too (a downloaded page, a document with hidden
    // text, an image with text in it): the turn starts tainted (docs/architecture/turn-taint.md).
    const initialTaint = attachmentNote.inlined.map((name) => ({
      tool: 'attachment',
      detail: name,
    }));
    const messageId = own.messageId ?? ids.next('msg');
    if (own.messageId === undefined) {
      conversations.createMessage({
        id: messageId,
        conversationId: conversation.id,
        ...(own.parentId === undefined ? {} : { parentId: own.parentId }),
        role: 'assistant',
        status: 'streaming',
        parts: [],
      });
    }
    const answer = new AnswerRecord(
      {
        conversations,
        clock,
        logger,
        interrupted: () => this.turns.isClosing(),
        unsavedEnds: this.unsavedEnds,
      },
      {
        turnId,
        conversationId: conversation.id,
        messageId,
        modelId: model.id,
        modelName: model.model,
      },
    );
    const settings = resolveTurnSettings(
      conversation.settings,
      model.defaults,
      this.dependencies.prompts,
    );
    if (settings.promptMissing) {
      logger.warn('the saved prompt of the conversation settings is gone; none used', {
        conversationId: conversation.id,
      });
    }
    try {
      const { messages, omittedMessages } = this.history({
        previous,
        settings,
        userText,
        userImages: attachmentNote.images,
        contextWindow: model.contextWindow,
        useSkillOffered: tools.some((tool) => tool.name === USE_SKILL_NAME),
        pythonOffered,
      });
      answer.omittedMessages = omittedMessages;
      yield {
        type: 'turn-start',
        turnId,
        conversationId: conversation.id,
        messageId,
        model: model.model,
        toolMode: model.toolMode,
        mode: request.mode,
        ...(omittedMessages > 0 ? { omittedMessages } : {}),
        ...(model.id === null ? {} : { modelId: model.id }),
        ...(own.group ? { group: own.group } : {}),
      };
      const progress = new TurnProgress(turnId, clock);
      const client = this.dependencies.createLlmClient(model);
      const llm = withSampling(client, settings.sampling);
      // An MCP server's sampling: the same client, without the conversation's parameters (the
      // server's own apply); its tokens join the turn's usage, its budget stops it.
      let samplingUsage: TokenUsage | null = null;
      const sample =
        own.sample &&
        createSampler({
          llm: client,
          model: model.model,
          ask: own.sample,
          alwaysAllow: this.dependencies.samplingAlwaysAllow,
          refusal: () => (answer.budgetSpent() ? "the turn's tool-call budget is spent" : null),
          onUsage: (usage) => {
            samplingUsage = addUsage(samplingUsage, usage);
          },
          logger,
        });
      const events = runTurn(
        { llm, clock, ids, logger },
        {
          ...(own.approve ? { approve: own.approve } : {}),
          turnId,
          conversationId: conversation.id,
          model: model.model,
          toolMode: model.toolMode,
          messages,
          tools: tools.map((tool) =>
            progress.wrap(withSampler(withElicitor(tool, own.elicit), sample)),
          ),
          limits: resolveTurnLimits(request.mode, this.dependencies.limitOverrides),
          initialTaint,
          ...(model.vision === true ? { vision: true } : {}),
        },
        AbortSignal.any([own.signal, answer.unsaved.signal]),
      );
      for await (const merged of progress.merge(events)) {
        const event = answer.take(
          merged.type === 'turn-end' && samplingUsage !== null
            ? { ...merged, usage: addUsage(merged.usage ?? null, samplingUsage) }
            : merged,
        );
        // The conversation's first complete answer: its model may now give it a short title (of
        // several answers, the first model's).
        if (
          event.type === 'turn-end' &&
          (own.group?.index ?? 0) === 0 &&
          isFirstAnswer(previous, event)
        ) {
          this.dependencies.titles?.firstAnswer({
            conversationId: conversation.id,
            question: text === '' ? conversation.title : text,
            answer: event.answer,
            llm: client,
            model: model.model,
          });
        }
        yield event;
      }
    } finally {
      answer.finish(null);
    }
  }

  /**
   * What the model is sent: the system prompt (memories, skills, the conversation's instructions),
   * the earlier messages the context policy and the window keep, and the new message; with how
   * many earlier messages were left out.
   */
  private history(input: {
    previous: EarlierMessages;
    settings: TurnSettings;
    userText: string;
    userImages: readonly ChatImage[];
    contextWindow: number;
    useSkillOffered: boolean;
    pythonOffered: boolean;
  }): { messages: ChatMessage[]; omittedMessages: number } {
    const { memories, skills, clock } = this.dependencies;
    // Which earlier messages are replayed at all, decided once: a pass over those a window reaches.
    const replayed = replayableMessages(input.previous.recent);
    const messages = buildHistory({
      systemPrompt: withConversationInstructions(
        buildSystemPrompt({
          now: clock.now(),
          memories: memories.listMemories(),
          skillsSection: skillsPromptSection({
            skills: skills.listSkills(),
            useSkillOffered: input.useSkillOffered,
            pythonOffered: input.pythonOffered,
          }),
        }),
        input.settings.instructions,
      ),
      previous: selectByPolicy(replayed, input.settings.contextPolicy),
      userText: input.userText,
      userImages: input.userImages,
      contextWindow: input.contextWindow,
    });
    // Left out by the context policy or the window (the system prompt and the new message are the
    // two messages not replayed from before), counting those past every window.
    const replayedCount = replayed.length + input.previous.olderReplayed;
    return { messages, omittedMessages: Math.max(0, replayedCount - (messages.length - 2)) };
  }

  /**
   * The turn's tools: the names by the layers (`turnToolNames`: global switch, then the turn's
   * one-off selection or the model's defaults with the conversation's toggles), then built for this
   * turn. A tool the user named that cannot run is an error; one the layers picked is left out.
   */
  private async pickTools(request: TurnRequest, toggles: Record<string, boolean>): Promise<Tool[]> {
    const { tools, settings, logger } = this.dependencies;
    const candidates = await tools.candidates();
    const selection = {
      ...(request.tools ? { tools: request.tools } : {}),
      ...(request.mcpServices ? { mcpServices: request.mcpServices } : {}),
    };
    const names = turnToolNames(
      candidates,
      { switches: settings.getToolAvailability(), model: request.model, toggles },
      selection,
    );
    const { tools: built, missing } = await tools.build(names);
    for (const { name, reason } of missing) {
      if (request.tools?.includes(name))
        throw new AivoryError('invalid-input', `Tool "${name}" is not available: ${reason}`);
      logger.debug('tool left out of the turn', { tool: name, reason });
    }
    // One request carries at most MAX_TURN_TOOLS: built-ins and the turn's own choices stay.
    const capped = capTurnTools(
      candidates,
      built.map((tool) => tool.name),
      selection,
    );
    if (capped.dropped.length === 0) return built;
    logger.warn(
      `too many tools for one request: ${capped.dropped.length} of ${built.length} left out (at most ${MAX_TURN_TOOLS}; choose services with --mcp or a model's MCP defaults)`,
      { dropped: capped.dropped.slice(0, 50) },
    );
    const kept = new Set(capped.names);
    return built.filter((tool) => kept.has(tool.name));
  }

  /**
   * A sampler outside a turn (`aivory mcp call`): `model` answers after `ask` approves (or the
   * service is always allowed); at most MAX_SAMPLING_PER_TURN requests.
   */
  sampler(model: ResolvedModel, ask: McpSamplingAsk | undefined): McpSampler {
    return createSampler({
      llm: this.dependencies.createLlmClient(model),
      model: model.model,
      ask,
      alwaysAllow: this.dependencies.samplingAlwaysAllow,
      logger: this.dependencies.logger,
    });
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
          // Stored by now (see runTurn): past its turn-end a turn can no longer be canceled (a
          // group's answers end one by one under their own ids: its own stays till the last).
          if (event.type === 'turn-end' && event.turnId === turnId) this.active.delete(turnId);
          emit(event);
        }
      } finally {
        this.active.delete(turnId);
      }
    })();
    return { turnId, done };
  }

  /** Aborts a running turn (a group's id: all its answers; an answer's: that one); false when none runs. */
  cancelTurn(turnId: string): boolean {
    const controller = this.active.get(turnId);
    if (!controller) return false;
    controller.abort();
    return true;
  }
}

/**
 * The calls of the tool `name` made through the returned wrapper, one after another across every
 * tool it wraps (the other tools are returned as they are).
 */
function oneCallAtATime(name: string): (tool: Tool) => Tool {
  let tail: Promise<unknown> = Promise.resolve();
  return (tool) => {
    if (tool.name !== name) return tool;
    const execute = (args: unknown, context: ToolContext): Promise<ToolOutput> => {
      const run = tail.then(() => tool.execute(args, context));
      tail = run.catch(() => undefined);
      return run;
    };
    // defineProperty: a frozen tool's `execute` cannot be shadowed by assignment.
    return Object.defineProperty(Object.create(tool) as Tool, 'execute', { value: execute });
  };
}

/** Several models answer only a new question or an edit, each model once, at most four. */
function checkCompared(request: TurnRequest, again: boolean): void {
  const others = request.compareWith ?? [];
  if (others.length === 0) return;
  if (again)
    throw new AivoryError(
      'invalid-input',
      'Several models answer a new question or an edited one, not a retry or a new version.',
    );
  if (others.length + 1 > MAX_ANSWER_MODELS)
    throw new AivoryError(
      'invalid-input',
      `At most ${MAX_ANSWER_MODELS} models can answer one question.`,
    );
  const keys = [request.model, ...others].map(
    (model) => model.id ?? `${model.baseUrl}\u0000${model.model}`,
  );
  if (new Set(keys).size !== keys.length)
    throw new AivoryError('invalid-input', 'Each model can answer a question only once.');
}

/** The conversation's turn claim, once taken (a new conversation's only once it exists). */
interface HeldConversation {
  claim: TurnClaim | null;
}

/** What a refused claim says: the user only has to wait, or stop the other turn. */
export const CONVERSATION_BUSY_MESSAGE =
  'This conversation is answering in another window or process; wait for it to finish (or stop it there), then send again.';

/** Claims the conversation for the turn, or throws `busy` when a turn runs in it anywhere. */
function claimConversation(
  conversations: Pick<ConversationStore, 'claimTurn'>,
  conversationId: string,
  turnId: string,
): TurnClaim {
  const claim = conversations.claimTurn(conversationId, turnId);
  if (claim === null) throw new AivoryError('busy', CONVERSATION_BUSY_MESSAGE);
  return claim;
}

/** Two token counts added (either may be absent). */
function addUsage(a: TokenUsage | null, b: TokenUsage): TokenUsage {
  return {
    inputTokens: (a?.inputTokens ?? 0) + b.inputTokens,
    outputTokens: (a?.outputTokens ?? 0) + b.outputTokens,
  };
}

/** The client with the turn's sampling parameters added to every request (absent: not sent). */
function withSampling(client: LlmClient, sampling: SamplingParameters): LlmClient {
  if (Object.keys(sampling).length === 0) return client;
  return { stream: (request, signal) => client.stream({ ...request, ...sampling }, signal) };
}

/** A complete, non-empty answer in a conversation that had no complete answer before it. */
function isFirstAnswer(previous: EarlierMessages, end: TurnEndEvent): boolean {
  if (MESSAGE_STATUS_BY_STOP[end.stopReason] !== 'complete' || end.answer.trim() === '')
    return false;
  return !previous.olderAnswer && !previous.recent.some(isCompleteAnswer);
}

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
}

/** What a turn that does not simply continue the conversation builds on. */
interface TurnBasis {
  /** The history before the question. */
  before: EarlierMessages;
  /** A retry or a new version: the stored question answered again. */
  question?: Message;
  /** A retry: the failed answer, removed first. */
  replaced?: Message;
  /** An edit: the question the new one replaces. */
  edited?: Message;
}

/**
 * How much of the path's end a turn needs whole (`TurnPath.tail`): nothing for a new question;
 * the last two messages for a retry; back to the question of the answer written again, or to the
 * question edited.
 */
function tailEnds(request: TurnRequest): TurnPathRequest['tailEnds'] {
  const { regenerate, editOf } = request;
  if (request.retry === true) return (newestFirst) => newestFirst.length >= 2;
  if (regenerate !== undefined) return (newestFirst) => newestFirst.at(-2)?.id === regenerate;
  if (editOf !== undefined) return (newestFirst) => newestFirst.at(-1)?.id === editOf;
  return () => true;
}

/**
 * Checks a retry, a new version or an edit against the end of the shown path (`tailEnds`: the
 * message it names, when it is on the path, is the tail's first or second); null for a plain turn.
 */
function turnBasis(
  path: readonly Message[],
  before: EarlierMessages,
  request: TurnRequest,
): TurnBasis | null {
  if (request.retry === true) return retryTarget(path, before);
  if (request.regenerate !== undefined) {
    const index = path.findIndex((message) => message.id === request.regenerate);
    const answer = path[index];
    const question = path[index - 1];
    if (answer?.role !== 'assistant' || question?.role !== 'user') {
      throw new AivoryError(
        'invalid-input',
        'Only an answer shown in the conversation can be written again.',
      );
    }
    if (answer.status === 'streaming') {
      throw new AivoryError('invalid-input', 'This answer is still being written: stop it first.');
    }
    return { before, question };
  }
  if (request.editOf !== undefined) {
    const index = path.findIndex((message) => message.id === request.editOf);
    const edited = path[index];
    if (edited?.role !== 'user') {
      throw new AivoryError(
        'invalid-input',
        'Only a question shown in the conversation can be edited.',
      );
    }
    if (path.slice(index).some((message) => message.status === 'streaming')) {
      throw new AivoryError('invalid-input', 'An answer is still being written: stop it first.');
    }
    return { before, edited };
  }
  return null;
}

/**
 * What a retry answers again: the conversation's last message must be an answer that failed,
 * was stopped or interrupted, or came back empty, right after the user's question.
 */
function retryTarget(
  messages: readonly Message[],
  before: EarlierMessages,
): Required<Omit<TurnBasis, 'edited'>> {
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
  return { replaced: failed, question, before };
}
