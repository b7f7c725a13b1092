/**
 * One connection's view of whether its database is known to be damaged: found by this process
 * (a statement failed with SQLITE_CORRUPT or NOTADB, `PRAGMA quick_check` failed) or recorded by
 * any process (`damage-marker.ts`). `Statements` asks it before every write and refuses once it
 * knows (issue 42, item 5): reads that still work go on working, so the user can export.
 */
import type Database from 'better-sqlite3';
import type { StorageError } from '../../../shared/errors';
import { knownDamage } from './damage-marker';
import { damagedDatabase } from './storage-faults';

export class DamageWatch {
  private damage: StorageError | null;
  /** True once this process committed a write to the file (the message then says so). */
  private written = false;

  /** `damage`: what was known when the connection was opened (it is then read-only). */
  constructor(
    private readonly database: Database.Database,
    damage: StorageError | null,
  ) {
    this.damage = damage;
  }

  get hasWritten(): boolean {
    return this.written;
  }

  /** A write was committed. */
  wrote(): void {
    this.written = true;
  }

  /**
   * The damage known now, or null: this process's finding, else another's marker (one `stat`
   * when there is none). Once known, the connection refuses writes itself (`query_only`).
   */
  current(): StorageError | null {
    if (this.damage === null) {
      const record = knownDamage(this.database.name);
      if (record !== null)
        this.found(
          damagedDatabase(this.database.name, record.detail, undefined, { written: this.written }),
        );
    }
    return this.damage;
  }

  /** This process found `damage`: nothing more is written through this connection. */
  found(damage: StorageError): void {
    this.damage ??= damage;
    try {
      if (!this.database.readonly) this.database.pragma('query_only = ON');
    } catch {
      // A connection that cannot take the pragma is still refused by `Statements`.
    }
  }
}
