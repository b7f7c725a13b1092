/**
 * What `chat.send` hands the chat service beyond the text: the attached files decoded from base64
 * (already validated by the contract's schema), and which backend tools to prepare before the
 * turn — the conversation's own switches can add a tool the model's defaults leave out.
 */
import type { AttachmentInputPayload } from '../../../shared/ipc/chat-extras-methods';
import type { Store } from '../../core/ports';
import type { AttachmentInput } from '../../services/attachments';

/** The attachments as the chat service takes them. */
export function decodeAttachments(payload: readonly AttachmentInputPayload[]): AttachmentInput[] {
  return payload.map((file) => ({
    name: file.name,
    data: new Uint8Array(Buffer.from(file.dataBase64, 'base64')),
    ...(file.mime ? { mime: file.mime } : {}),
  }));
}

/**
 * The tool names to prepare: an explicit selection as is; else the model's defaults plus the
 * tools the conversation switched on; undefined (all) when the model has no defaults.
 */
export function preparationSelection(
  store: Pick<Store, 'getConversation'>,
  conversationId: string | undefined,
  explicit: readonly string[] | undefined,
  modelDefaults: readonly string[] | null,
): string[] | undefined {
  if (explicit) return [...explicit];
  if (modelDefaults === null) return undefined;
  const toggles = conversationId ? (store.getConversation(conversationId)?.toolToggles ?? {}) : {};
  const switchedOn = Object.keys(toggles).filter((name) => toggles[name] === true);
  return [...new Set([...modelDefaults, ...switchedOn])];
}
