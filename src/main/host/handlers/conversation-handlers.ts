/**
 * `conversations.*`: list, full-text search (FTS5 snippets, plain text), one conversation with its
 * shown messages a page at a time (latest first) with their versions and turn summaries, show another version, rename, pin, delete (a
 * conversation, or one question with its answer), export as a Markdown or JSON file the UI downloads.
 */
import type { Conversation, Message, TurnRecord } from '../../../shared/dto';
import type { MessagePageRequest } from '../../core/ports';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { deleteConversation } from '../../services/conversation-deletion';
import { formatSlice, formattedExportPieces } from '../../services/conversation-export';
import { writeAppExport } from '../../services/export-file';
import { deleteExchange } from '../../services/message-exchange';
import { readShownPathPages } from '../../services/shown-path';
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';
import { requireConversation as requireStoredConversation } from '../../services/conversation-lookup';

type ConversationHandlers = Pick<
  ApiHandlers,
  | 'conversations.list'
  | 'conversations.search'
  | 'conversations.get'
  | 'conversations.older'
  | 'conversations.around'
  | 'conversations.newer'
  | 'conversations.rename'
  | 'conversations.pin'
  | 'conversations.delete'
  | 'conversations.deleteExchange'
  | 'conversations.showVersion'
  | 'conversations.export'
>;

type MessagePageView = InvokeResponse<'conversations.older'>;

/**
 * Messages per page: several screens of rows (the list renders only those in view), and a read
 * of a few milliseconds at most.
 */
export const MESSAGE_PAGE_SIZE = 100;

/** Messages read before a search hit when a window opens around it (the hit included). */
export const AROUND_BEFORE = 50;

/** Longest file name stem an export gets from its conversation title. */
const MAX_FILE_STEM_CHARS = 60;

/** The conversation handlers over the host context. */
export function createConversationHandlers(context: HostContext): ConversationHandlers {
  const { stores } = context.app;
  const requireConversation = (id: string): Conversation =>
    requireStoredConversation(stores.conversations, id);
  /** One page of the shown path with its versions and turn summaries. */
  const readPage = (id: string, request: MessagePageRequest): MessagePageView => {
    const page = stores.conversations.listMessagePage(id, request);
    return { ...describe(id, page.messages), older: page.older };
  };
  /** What the messages of a page show beside them: their versions and turn summaries. */
  const describe = (id: string, stored: Message[]): Omit<MessagePageView, 'older'> => {
    // Answers name their model as the picker does: the saved model's label, when it exists.
    const labels = new Map(context.app.models.list().map((model) => [model.id, model.label]));
    // An answer whose end the store refused (a full disk) shows that end, not `streaming`.
    const unsaved = stored.flatMap((message) => {
      const end = context.app.unsavedAnswerEnds.endOf(message.id);
      return end === undefined ? [] : [end];
    });
    const messages =
      unsaved.length === 0
        ? stored
        : stored.map((message) => {
            const end = unsaved.find((candidate) => candidate.messageId === message.id);
            return end === undefined ? message : { ...message, status: end.status };
          });
    const records = stores.conversations.listTurnRecordsOf(messages.map((message) => message.id));
    for (const end of unsaved) {
      if (end.record !== undefined && !records.some((record) => record.messageId === end.messageId))
        records.push(end.record);
    }
    return {
      messages,
      versions: stores.conversations.listVersionsOf(id, messages),
      turns: records.map((record) => turnSummary(record, labels)),
    };
  };
  /** The page after `after` on the shown path; null when `after` is not on it. */
  const readNewer = (id: string, after: string): InvokeResponse<'conversations.newer'> | null => {
    const page = stores.conversations.listNewerPage(id, { after, limit: MESSAGE_PAGE_SIZE });
    return page === null ? null : { ...describe(id, page.messages), newer: page.newer };
  };
  return {
    'conversations.list': () => stores.conversations.listConversations(),
    'conversations.search': ({ query, limit }) =>
      stores.conversations.searchMessages(query, limit).map((hit) => ({
        ...hit,
        title: stores.conversations.getConversation(hit.conversationId)?.title ?? '',
      })),
    'conversations.get': ({ id, through }) => ({
      conversation: requireConversation(id),
      ...readPage(id, { limit: MESSAGE_PAGE_SIZE, ...(through === undefined ? {} : { through }) }),
    }),
    'conversations.older': ({ id, from, through }) => {
      requireConversation(id);
      return readPage(id, {
        from,
        limit: MESSAGE_PAGE_SIZE,
        ...(through === undefined ? {} : { through }),
      });
    },
    'conversations.around': ({ id, messageId }) => {
      const conversation = requireConversation(id);
      const after = readNewer(id, messageId);
      // Not on the shown path (another version shown since the search): its latest page.
      if (after === null)
        return { conversation, ...readPage(id, { limit: MESSAGE_PAGE_SIZE }), newer: null };
      const before = readPage(id, { from: messageId, limit: AROUND_BEFORE });
      return {
        conversation,
        messages: [...before.messages, ...after.messages],
        turns: [...before.turns, ...after.turns],
        versions: { ...before.versions, ...after.versions },
        older: before.older,
        newer: after.newer,
      };
    },
    'conversations.newer': ({ id, after }) => {
      requireConversation(id);
      // Off the path (another version shown meanwhile): nothing after it; the renderer reloads.
      return readNewer(id, after) ?? { messages: [], turns: [], versions: {}, newer: null };
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
    'conversations.delete': async ({ id }) => {
      requireConversation(id);
      await deleteConversation(stores.conversations, id);
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
    'conversations.export': async ({
      id,
      format,
    }): Promise<InvokeResponse<'conversations.export'>> => {
      const conversation = requireConversation(id);
      // Read and formatted a page at a time, only the text kept, and written to a file: a big
      // conversation done at once held serve's thread (its 20,000 messages held, the garbage
      // collector copied them), and its text was one ~14 MB message to the UI.
      const slices = await readShownPathPages(stores.conversations, id, (messages) =>
        formatSlice(messages, format),
      );
      const fileName = `${fileStem(conversation.title)}.${format}`;
      const written = await writeAppExport(
        context.app.dataDir,
        fileName,
        formattedExportPieces(conversation, slices, format),
      );
      return {
        fileName,
        mime: format === 'json' ? 'application/json' : 'text/markdown',
        path: written.path,
        bytes: written.bytes,
      };
    },
  };
}

/** What the renderer shows of a turn beside its answer. */
function turnSummary(
  record: TurnRecord,
  labels: ReadonlyMap<string, string>,
): MessagePageView['turns'][number] {
  return {
    turnId: record.id,
    messageId: record.messageId,
    model: record.modelName,
    modelLabel: record.modelId === null ? null : (labels.get(record.modelId) ?? null),
    stopReason: record.stopReason,
    toolCalls: record.toolCalls,
    durationMs: record.durationMs,
    budget: record.budget,
    usage: record.usage,
    ...(record.omittedMessages === undefined ? {} : { omittedMessages: record.omittedMessages }),
    error:
      record.errorCode === null
        ? null
        : { code: record.errorCode, message: record.errorMessage ?? '' },
    taint: record.taint,
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
