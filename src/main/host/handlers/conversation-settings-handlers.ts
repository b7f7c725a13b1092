/**
 * `conversations.settings` / `conversations.setSettings`: a conversation's instructions,
 * parameters and context policy (`stores.conversations.setConversationSettings`), with its
 * model's defaults, the saved prompts and the conversation's info (turn records' totals).
 */
import type { Conversation, ConversationSettings } from '../../../shared/dto';
import { AivoryError } from '../../../shared/errors';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { conversationTotals, resolveInstructions } from '../../services/conversation-settings';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { requireConversation as requireStoredConversation } from '../../services/conversation-lookup';

type ConversationSettingsHandlers = Pick<
  ApiHandlers,
  'conversations.settings' | 'conversations.setSettings'
>;
type SettingsView = InvokeResponse<'conversations.settings'>;

export function createConversationSettingsHandlers(
  context: HostContext,
): ConversationSettingsHandlers {
  const { stores } = context.app;
  const requireConversation = (id: string): Conversation =>
    requireStoredConversation(stores.conversations, id);
  return {
    'conversations.settings': ({ id }) => settingsView(context, requireConversation(id)),
    'conversations.setSettings': ({ id, settings }) => {
      const conversation = requireConversation(id);
      const chosen = settings.systemPrompt;
      // A prompt picked now must exist (one deleted later is only reported).
      if (chosen?.kind === 'prompt' && !stores.library.getPromptTemplate(chosen.promptId)) {
        throw new AivoryError('not-found', `No saved prompt with id ${chosen.promptId}.`);
      }
      stores.conversations.setConversationSettings(id, settings);
      return settingsView(context, { ...conversation, settings });
    },
  };
}

function settingsView(context: HostContext, conversation: Conversation): SettingsView {
  const { stores } = context.app;
  const settings: ConversationSettings = conversation.settings;
  const model = context.app.models.find(conversation.modelId) ?? undefined;
  const totals = conversationTotals(stores.conversations.listTurnRecords(conversation.id));
  return {
    settings,
    modelDefaults: model?.defaults ?? {},
    modelLabel: model?.label ?? null,
    prompts: stores.library
      .listPromptTemplates()
      .map((prompt) => ({ id: prompt.id, title: prompt.title })),
    promptMissing: resolveInstructions(settings, stores.library).promptMissing,
    info: {
      createdAt: conversation.createdAt,
      messages: stores.conversations.countShownMessages(conversation.id),
      turns: totals.turns,
      models: totals.models,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      turnsWithoutUsage: totals.turnsWithoutUsage,
    },
  };
}
