/** Small typed helpers over one better-sqlite3 connection, shared by the store classes. */
import type Database from 'better-sqlite3';

export class Statements {
  constructor(private readonly database: Database.Database) {}

  run(sql: string, ...parameters: unknown[]): Database.RunResult {
    return this.database.prepare(sql).run(...parameters);
  }

  get<Row>(sql: string, ...parameters: unknown[]): Row | undefined {
    return this.database.prepare<unknown[], Row>(sql).get(...parameters);
  }

  all<Row>(sql: string, ...parameters: unknown[]): Row[] {
    return this.database.prepare<unknown[], Row>(sql).all(...parameters);
  }

  /** Runs `body` in an IMMEDIATE transaction (nested calls become savepoints). */
  write<T>(body: () => T): T {
    return this.database.transaction(body).immediate();
  }
}
