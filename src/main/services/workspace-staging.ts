/**
 * Keeps a conversation's sandbox /workspace/uploads complete: every file the user attached and
 * every image image_generate produced in the conversation is there, in its original format
 * (python_execute's contract in the seed). Runs whenever python_execute opens the conversation's
 * session, so a workspace that was reaped, restored, or created before a sandbox existed catches
 * up; files already present (by name) are not sent again.
 */
import type { Message } from '../../shared/dto';
import type { ArtifactReference } from '../../shared/turn-events';
import { readFile } from 'node:fs/promises';
import type { UploadTarget } from '../core/ports';
import { attachmentsOf } from './attachments';
import { generatedImagesOf } from './generated-images';

/** Conversation id used when a tool runs outside a conversation (`aivory tool …`). */
export const SCRATCH_CONVERSATION_ID = 'aivory-cli-scratch';

/** The files a conversation's workspace should hold in uploads/, first occurrence per name. */
export function conversationUploads(messages: readonly Message[]): ArtifactReference[] {
  const byName = new Map<string, ArtifactReference>();
  for (const message of messages) {
    const files =
      message.role === 'user' ? attachmentsOf(message.parts) : generatedImagesOf(message.parts);
    for (const file of files) if (!byName.has(file.name)) byName.set(file.name, file);
  }
  return [...byName.values()];
}

/**
 * Uploads the files missing from /workspace/uploads. Returns the names sent. A file deleted from
 * the user's disk is skipped (nothing to stage); other failures propagate.
 */
export async function stageUploads(
  target: UploadTarget,
  sessionId: string,
  files: readonly ArtifactReference[],
  signal: AbortSignal,
): Promise<string[]> {
  if (files.length === 0) return [];
  const present = new Set(
    (await target.list(sessionId, 'uploads', signal))
      .filter((entry) => entry.type === 'file')
      .map((entry) => entry.path.replace(/^uploads\//, '')),
  );
  const sent: string[] = [];
  for (const file of files) {
    if (present.has(file.name)) continue;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(file.path));
    } catch {
      continue;
    }
    await target.upload(sessionId, file.name, bytes, { directory: 'uploads', signal });
    sent.push(file.name);
  }
  return sent;
}
