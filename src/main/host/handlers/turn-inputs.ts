/**
 * What `chat.send` hands the chat service beyond the text: the attached files decoded from base64
 * (already validated by the contract's schema). Which tools the turn offers is the chat service's
 * decision alone (`tool-selection.ts`); the handler only passes what the user chose.
 */
import type { AttachmentInputPayload } from '../../../shared/ipc/chat-extras-methods';
import type { AttachmentInput } from '../../services/attachments';

/** The attachments as the chat service takes them. */
export function decodeAttachments(payload: readonly AttachmentInputPayload[]): AttachmentInput[] {
  return payload.map((file) => ({
    name: file.name,
    data: new Uint8Array(Buffer.from(file.dataBase64, 'base64')),
    ...(file.mime ? { mime: file.mime } : {}),
  }));
}
