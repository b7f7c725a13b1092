/** Long-term memories (save_memory, the memories page and `aivory memories`). */
import type { Memory, MemoryStatus } from '../../../shared/dto';

export interface MemoryPatch {
  memoryText?: string;
  status?: MemoryStatus;
}

export interface MemoryStore {
  saveMemory(input: Omit<Memory, 'createdAt' | 'status'> & { status?: Memory['status'] }): Memory;
  listMemories(): Memory[];
  getMemory(id: string): Memory | null;
  /** Changes the text and/or status; throws `not-found` when the memory does not exist. */
  updateMemory(id: string, patch: MemoryPatch): Memory;
  /** Returns false when there was no such memory. */
  deleteMemory(id: string): boolean;
}

/** What save_memory needs: writing one memory. */
export type MemoryWriter = Pick<MemoryStore, 'saveMemory'>;
