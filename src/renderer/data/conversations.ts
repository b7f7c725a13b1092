/**
 * Conversations through the host: the list, search, pages of a conversation's messages, edits of
 * the tree (versions, deleting an exchange), rename / pin / delete / export, the conversation's
 * settings and tool toggles, and its sandbox workspace. The list and the open conversation live
 * in the store (`state/conversation-slice.ts`), which calls these; the settings dialog and the
 * composer's tool toggles hold a form or a popover's state of their own over these calls.
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest, InvokeResponse } from '../../shared/ipc-contract';

/** What a conversation page call answers (the messages, their versions, the next cursor). */
export type ConversationPage = InvokeResponse<'conversations.get'>;

export function listConversations(
  bridge: AivoryBridge,
): Promise<InvokeResponse<'conversations.list'>> {
  return bridge.invoke('conversations.list');
}

export function searchConversations(
  bridge: AivoryBridge,
  query: string,
): Promise<InvokeResponse<'conversations.search'>> {
  return bridge.invoke('conversations.search', { query });
}

/** The latest page of a conversation, or the page around `messageId` (a search hit). */
export function openConversation(
  bridge: AivoryBridge,
  id: string,
  messageId: string | null,
): Promise<ConversationPage> {
  return messageId === null
    ? bridge.invoke('conversations.get', { id })
    : bridge.invoke('conversations.around', { id, messageId });
}

export function olderMessages(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.older'>,
): Promise<InvokeResponse<'conversations.older'>> {
  return bridge.invoke('conversations.older', request);
}

export function newerMessages(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.newer'>,
): Promise<InvokeResponse<'conversations.newer'>> {
  return bridge.invoke('conversations.newer', request);
}

export function deleteExchange(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.deleteExchange'>,
): Promise<InvokeResponse<'conversations.deleteExchange'>> {
  return bridge.invoke('conversations.deleteExchange', request);
}

export async function showVersion(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.showVersion'>,
): Promise<void> {
  await bridge.invoke('conversations.showVersion', request);
}

export async function renameConversation(
  bridge: AivoryBridge,
  id: string,
  title: string,
): Promise<void> {
  await bridge.invoke('conversations.rename', { id, title });
}

export function pinConversation(
  bridge: AivoryBridge,
  id: string,
  pinned: boolean,
): Promise<InvokeResponse<'conversations.pin'>> {
  return bridge.invoke('conversations.pin', { id, pinned });
}

export async function deleteConversation(bridge: AivoryBridge, id: string): Promise<void> {
  await bridge.invoke('conversations.delete', { id });
}

export function exportConversation(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.export'>,
): Promise<InvokeResponse<'conversations.export'>> {
  return bridge.invoke('conversations.export', request);
}

export function conversationSettings(
  bridge: AivoryBridge,
  id: string,
): Promise<InvokeResponse<'conversations.settings'>> {
  return bridge.invoke('conversations.settings', { id });
}

export function setConversationSettings(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.setSettings'>,
): Promise<InvokeResponse<'conversations.setSettings'>> {
  return bridge.invoke('conversations.setSettings', request);
}

export function conversationTools(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.tools'>,
): Promise<InvokeResponse<'conversations.tools'>> {
  return bridge.invoke('conversations.tools', request);
}

export function setConversationTools(
  bridge: AivoryBridge,
  request: InvokeRequest<'conversations.setTools'>,
): Promise<InvokeResponse<'conversations.setTools'>> {
  return bridge.invoke('conversations.setTools', request);
}

/** Empties the conversation's sandbox workspace (the old one kept as an archive). */
export function resetWorkspace(
  bridge: AivoryBridge,
  conversationId: string,
): Promise<InvokeResponse<'sandbox.resetWorkspace'>> {
  return bridge.invoke('sandbox.resetWorkspace', { conversationId });
}
