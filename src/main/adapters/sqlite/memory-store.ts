/** Long-term memories in SQLite, for `SqliteStore`: saved, listed, edited and deleted. */
import type { Memory } from '../../../shared/dto';
import type { Clock, MemoryPatch, MemoryStore, NewMemory } from '../../core/ports';
import { toMemory } from './row-mapping';
import type { MemoryRow } from './row-mapping';
import type { Statements } from './statements';
import { notFound } from './store-errors';

export class SqliteMemories implements MemoryStore {
  constructor(
    private readonly sql: Statements,
    private readonly clock: Clock,
  ) {}

  /**
   * Inserts a memory stamped now and `ACTIVE` unless told otherwise, or updates the one with the
   * same id (keeping its creation time, and its status and origin when none is given). Returns
   * what is stored.
   */
  saveMemory(input: NewMemory): Memory {
    return this.sql.write(() => {
      this.sql.run(
        `INSERT INTO memories (id, memory_text, slot, value, status, created_at, conversation_id,
           origin_turn_id, origin_reason)
         VALUES (@id, @memoryText, @slot, @value, COALESCE(@status, 'ACTIVE'), @createdAt,
           @conversationId, @originTurnId, @originReason)
         ON CONFLICT (id) DO UPDATE SET memory_text = excluded.memory_text, slot = excluded.slot,
           value = excluded.value, status = COALESCE(@status, memories.status),
           conversation_id = excluded.conversation_id,
           origin_turn_id = CASE WHEN @originReason IS NULL THEN memories.origin_turn_id
             ELSE excluded.origin_turn_id END,
           origin_reason = COALESCE(@originReason, memories.origin_reason)`,
        {
          id: input.id,
          memoryText: input.memoryText,
          slot: input.slot,
          value: input.value,
          status: input.status ?? null,
          createdAt: this.clock.now(),
          conversationId: input.conversationId,
          originTurnId: input.origin?.turnId ?? null,
          originReason: input.origin?.reason ?? null,
        },
      );
      const row = this.sql.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', input.id);
      if (row === undefined) throw notFound('Memory', input.id);
      return toMemory(row);
    });
  }

  /** Oldest first. */
  listMemories(): Memory[] {
    return this.sql
      .all<MemoryRow>('SELECT * FROM memories ORDER BY created_at, rowid')
      .map(toMemory);
  }

  getMemory(id: string): Memory | null {
    const row = this.sql.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', id);
    return row === undefined ? null : toMemory(row);
  }

  /** Changes only the given fields; throws `not-found` when the memory does not exist. */
  updateMemory(id: string, patch: MemoryPatch): Memory {
    return this.sql.write(() => {
      const current = this.getMemory(id);
      if (current === null) throw notFound('Memory', id);
      this.sql.run(
        'UPDATE memories SET memory_text = ?, status = ? WHERE id = ?',
        patch.memoryText ?? current.memoryText,
        patch.status ?? current.status,
        id,
      );
      return {
        ...current,
        memoryText: patch.memoryText ?? current.memoryText,
        status: patch.status ?? current.status,
      };
    });
  }

  deleteMemory(id: string): boolean {
    return this.sql.run('DELETE FROM memories WHERE id = ?', id).changes > 0;
  }
}
