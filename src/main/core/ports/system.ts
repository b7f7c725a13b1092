/** Time, ids and logging: the process-wide ports (adapters/system.ts, adapters/logging/). */

export interface Clock {
  now(): number;
}

export interface IdGenerator {
  next(prefix: string): string;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
