/** Data the renderer's store tests feed their in-memory bridges. */
import type { Conversation } from '../../../src/shared/dto';

/** A conversation titled with its id, created and updated at 1, with nothing set. */
export function conversationDto(id: string, modelId: string | null = null): Conversation {
  return {
    id,
    title: id,
    createdAt: 1,
    updatedAt: 1,
    modelId,
    toolToggles: {},
    settings: {},
    pinnedAt: null,
  };
}
