/**
 * Small typed helpers over one better-sqlite3 connection, shared by the store classes. A full
 * disk, a lock held too long by another program, a damaged file or a read-only folder comes out
 * of every one of them as a `StorageError` naming the file and what to do (`storage-faults.ts`).
 * Once the file is known to be damaged (`damage-watch.ts`), every write is refused before it
 * starts, with that damage as the error; reads go on.
 */
import type Database from 'better-sqlite3';
import { DamageWatch } from './damage-watch';
import { storageFault } from './storage-faults';

export class Statements {
  readonly damage: DamageWatch;

  constructor(
    private readonly database: Database.Database,
    damage?: DamageWatch,
  ) {
    this.damage = damage ?? new DamageWatch(database, null);
  }

  /** A statement that writes; outside a transaction it is one, and refused on known damage. */
  run(sql: string, ...parameters: unknown[]): Database.RunResult {
    const alone = !this.database.inTransaction;
    if (alone) this.refuseWhenDamaged();
    const result = this.translated(() => this.database.prepare(sql).run(...parameters));
    if (alone && result.changes > 0) this.damage.wrote();
    return result;
  }

  get<Row>(sql: string, ...parameters: unknown[]): Row | undefined {
    return this.translated(() => this.database.prepare<unknown[], Row>(sql).get(...parameters));
  }

  all<Row>(sql: string, ...parameters: unknown[]): Row[] {
    return this.translated(() => this.database.prepare<unknown[], Row>(sql).all(...parameters));
  }

  /** Runs `body`, a read outside any transaction (no lock to wait for in WAL mode). */
  read<T>(body: () => T): T {
    return this.translated(body);
  }

  /**
   * Runs `body` in an IMMEDIATE transaction (nested calls become savepoints); refused before it
   * starts once the file is known to be damaged.
   */
  write<T>(body: () => T): T {
    const outermost = !this.database.inTransaction;
    if (outermost) this.refuseWhenDamaged();
    const result = this.translated(() => this.database.transaction(body).immediate());
    if (outermost) this.damage.wrote();
    return result;
  }

  private refuseWhenDamaged(): void {
    const damage = this.damage.current();
    if (damage !== null) throw damage;
  }

  /**
   * Runs `action`, turning a storage failure into its `StorageError` (others pass unchanged). A
   * damaged file found here is known from now on; a write the read-only connection refused
   * because of known damage says so, not "read-only".
   */
  private translated<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      const known = this.damage.current();
      if (known !== null && isReadOnlyRefusal(error)) throw known;
      const fault = storageFault(error, this.database.name, { written: this.damage.hasWritten });
      if (fault?.problem === 'damaged') this.damage.found(fault);
      throw fault ?? error;
    }
  }
}

function isReadOnlyRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_READONLY');
}
