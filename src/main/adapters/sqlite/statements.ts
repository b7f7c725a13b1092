/**
 * Small typed helpers over one better-sqlite3 connection, shared by the store classes. A full
 * disk, a lock held too long by another program, a damaged file or a read-only folder comes out
 * of every one of them as a `StorageError` naming the file and what to do (`storage-faults.ts`).
 */
import type Database from 'better-sqlite3';
import { storageFault } from './storage-faults';

export class Statements {
  constructor(private readonly database: Database.Database) {}

  run(sql: string, ...parameters: unknown[]): Database.RunResult {
    return this.translated(() => this.database.prepare(sql).run(...parameters));
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

  /** Runs `body` in an IMMEDIATE transaction (nested calls become savepoints). */
  write<T>(body: () => T): T {
    return this.translated(() => this.database.transaction(body).immediate());
  }

  /** Runs `action`, turning a storage failure into its `StorageError` (others pass unchanged). */
  private translated<T>(action: () => T): T {
    try {
      return action();
    } catch (error) {
      throw storageFault(error, this.database.name) ?? error;
    }
  }
}
