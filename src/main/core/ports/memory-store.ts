/** Long-term memories (save_memory, the memories page and `aivory memories`). */
import type { Memory, MemoryStatus } from '../../../shared/dto';

export interface MemoryPatch {
  memoryText?: string;
  status?: MemoryStatus;
}

/** What save_memory (or an import) gives; status defaults to ACTIVE, origin to none. */
export type NewMemory = Omit<Memory, 'createdAt' | 'status' | 'origin'> & {
  status?: Memory['status'];
  origin?: Memory['origin'];
};

export interface MemoryStore {
  saveMemory(input: NewMemory): Memory;
  listMemories(): Memory[];
  getMemory(id: string): Memory | null;
  /** Changes the text and/or status; throws `not-found` when the memory does not exist. */
  updateMemory(id: string, patch: MemoryPatch): Memory;
  /** Returns false when there was no such memory. */
  deleteMemory(id: string): boolean;
}

/** What save_memory needs: writing one memory. */
export type MemoryWriter = Pick<MemoryStore, 'saveMemory'>;
