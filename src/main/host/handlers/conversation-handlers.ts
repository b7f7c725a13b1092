/**
 * `conversations.*`: list, full-text search (FTS5 snippets, plain text), one conversation with its
 * shown messages, their versions and turn summaries, show another version, rename, pin, delete (a
 * conversation, or one question with its answer), export as Markdown or JSON text.
 */
import type { Conversation } from '../../../shared/dto';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { exportConversation } from '../../services/conversation-export';
import { deleteExchange } from '../../services/message-exchange';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { requireConversation as requireStoredConversation } from '../../services/conversation-lookup';

type ConversationHandlers = Pick<
  ApiHandlers,
  | 'conversations.list'
  | 'conversations.search'
  | 'conversations.get'
  | 'conversations.rename'
  | 'conversations.pin'
  | 'conversations.delete'
  | 'conversations.deleteExchange'
  | 'conversations.showVersion'
  | 'conversations.export'
>;

/** Longest file name stem an export gets from its conversation title. */
const MAX_FILE_STEM_CHARS = 60;

/** The conversation handlers over the host context. */
export function createConversationHandlers(context: HostContext): ConversationHandlers {
  const { stores } = context.app;
  const requireConversation = (id: string): Conversation =>
    requireStoredConversation(stores.conversations, id);
  return {
    'conversations.list': () => stores.conversations.listConversations(),
    'conversations.search': ({ query, limit }) =>
      stores.conversations.searchMessages(query, limit).map((hit) => ({
        ...hit,
        title: stores.conversations.getConversation(hit.conversationId)?.title ?? '',
      })),
    'conversations.get': ({ id }) => {
      const conversation = requireConversation(id);
      const messages = stores.conversations.listMessages(id);
      const allVersions = stores.conversations.listVersions(id);
      const versions: Record<string, string[]> = {};
      for (const message of messages) {
        const siblings = allVersions[message.id];
        if (siblings) versions[message.id] = siblings;
      }
      return {
        conversation,
        messages,
        versions,
        turns: stores.conversations.listTurnRecords(id).map((record) => ({
          turnId: record.id,
          messageId: record.messageId,
          model: record.modelName,
          stopReason: record.stopReason,
          toolCalls: record.toolCalls,
          durationMs: record.durationMs,
          budget: record.budget,
          usage: record.usage,
          ...(record.omittedMessages === undefined
            ? {}
            : { omittedMessages: record.omittedMessages }),
          error:
            record.errorCode === null
              ? null
              : { code: record.errorCode, message: record.errorMessage ?? '' },
          taint: record.taint,
        })),
      };
    },
    'conversations.rename': ({ id, title }) => {
      requireConversation(id);
      stores.conversations.renameConversation(id, title);
      return requireConversation(id);
    },
    'conversations.pin': ({ id, pinned }) => {
      requireConversation(id);
      stores.conversations.setConversationPinned(id, pinned);
      return requireConversation(id);
    },
    'conversations.delete': ({ id }) => {
      requireConversation(id);
      stores.conversations.deleteConversation(id);
      return { ok: true };
    },
    'conversations.deleteExchange': ({ id, messageId }) => {
      requireConversation(id);
      return { deleted: deleteExchange(stores.conversations, id, messageId) };
    },
    'conversations.showVersion': ({ id, messageId }) => {
      requireConversation(id);
      stores.conversations.showVersion(id, messageId);
      return { ok: true };
    },
    'conversations.export': ({ id, format }): InvokeResponse<'conversations.export'> => {
      const conversation = requireConversation(id);
      const text = exportConversation(conversation, stores.conversations.listMessages(id), format);
      return {
        fileName: `${fileStem(conversation.title)}.${format}`,
        mime: format === 'json' ? 'application/json' : 'text/markdown',
        text,
      };
    },
  };
}

/** A file name stem from a title: letters and digits of any script, the rest as dashes. */
export function fileStem(title: string): string {
  const stem = title
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_FILE_STEM_CHARS);
  return stem === '' ? 'conversation' : stem;
}
