/**
 * Finds the image a conversation last generated (image_generate's `previous_generation`): the
 * newest artifact that follows an image_generate result in the stored messages, read back from
 * the user's disk.
 */
import { readFile } from 'node:fs/promises';
import type { MessagePart } from '../../shared/dto';
import type { ArtifactReference } from '../../shared/turn-events';
import type { ConversationStore, ImageFile } from '../core/ports';
import { IMAGE_GENERATE_NAME } from '../tools/image-generate';

export async function previousGeneratedImage(
  store: Pick<ConversationStore, 'listMessages'>,
  conversationId: string,
): Promise<ImageFile | null> {
  const messages = store.listMessages(conversationId);
  for (let index = messages.length - 1; index >= 0; index--) {
    const found = generatedImagesOf(messages[index]?.parts ?? []).at(-1);
    if (!found) continue;
    try {
      return {
        bytes: new Uint8Array(await readFile(found.path)),
        name: found.name,
        mime: found.mime,
      };
    } catch {
      return null; // The user deleted the file: there is nothing to edit.
    }
  }
  return null;
}

/** Every image artifact placed after a successful image_generate result, in order. */
export function generatedImagesOf(parts: readonly MessagePart[]): ArtifactReference[] {
  let afterGeneration = false;
  const found: ArtifactReference[] = [];
  for (const part of parts) {
    if (part.kind === 'tool-result')
      afterGeneration = part.name === IMAGE_GENERATE_NAME && part.status === 'ok';
    else if (part.kind === 'artifact' && afterGeneration && part.artifact.mime.startsWith('image/'))
      found.push(part.artifact);
  }
  return found;
}
