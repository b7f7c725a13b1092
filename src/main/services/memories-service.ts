/**
 * Saved memories as the user manages them (settings page, `aivory memories`): list, edit the
 * text, archive or restore, confirm, delete. ACTIVE memories go into later system prompts;
 * ARCHIVED ones are kept but left out; PENDING ones (saved after a turn read untrusted content)
 * stay out until the user confirms them.
 */
import type { Memory, MemoryStatus } from '../../shared/dto';
import { AivoryError } from '../../shared/errors';
import type { MemoryStore } from '../core/ports';
import { MAX_MEMORY_TEXT_CHARS } from '../tools/save-memory';

export class MemoriesService {
  constructor(
    private readonly store: Pick<
      MemoryStore,
      'listMemories' | 'getMemory' | 'updateMemory' | 'deleteMemory'
    >,
  ) {}

  /** Every memory, newest first, archived ones included. */
  list(): Memory[] {
    return this.store.listMemories().reverse();
  }

  /** Replaces the text (trimmed, non-empty, at most 2000 characters); keeps the status. */
  edit(id: string, text: string): Memory {
    const memoryText = text.trim();
    if (memoryText === '') throw new AivoryError('invalid-input', 'The memory text is empty.');
    if (memoryText.length > MAX_MEMORY_TEXT_CHARS) {
      throw new AivoryError(
        'invalid-input',
        `The memory text is longer than ${MAX_MEMORY_TEXT_CHARS} characters.`,
      );
    }
    this.require(id);
    return this.store.updateMemory(id, { memoryText });
  }

  /** ACTIVE puts the memory back into system prompts; ARCHIVED keeps it out. */
  setStatus(id: string, status: MemoryStatus): Memory {
    this.require(id);
    return this.store.updateMemory(id, { status });
  }

  /**
   * Confirms a PENDING memory: it becomes ACTIVE (its origin is kept). A memory that is not
   * pending is an `invalid-input` error, so a confirmation never restores an archived one.
   */
  confirm(id: string): Memory {
    const memory = this.require(id);
    if (memory.status !== 'PENDING') {
      throw new AivoryError(
        'invalid-input',
        `Memory ${id} is not pending (it is ${memory.status}); only pending memories are confirmed.`,
      );
    }
    return this.store.updateMemory(id, { status: 'ACTIVE' });
  }

  /** Deletes the memory; an unknown id is a `not-found` error. */
  remove(id: string): void {
    if (!this.store.deleteMemory(id)) throw notFound(id);
  }

  private require(id: string): Memory {
    const memory = this.store.getMemory(id);
    if (memory === null) throw notFound(id);
    return memory;
  }
}

function notFound(id: string): AivoryError {
  return new AivoryError('not-found', `No memory with id ${id}.`);
}
