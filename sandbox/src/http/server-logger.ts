/**
 * The logger the HTTP server reports to. The entry point injects one that redacts secrets; the
 * server itself never logs headers, bodies or the API key.
 */
export interface SandboxServerLogger {
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
}

/** Used when no logger is given (tests that do not care). */
export const SILENT_LOGGER: SandboxServerLogger = {
  info() {},
  warn() {},
  error() {},
};

/** Turns a thrown value into loggable fields without assuming it is an Error. */
export function describeError(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error)
    return { error: `${error.name}: ${error.message}`, stack: error.stack };
  return { error: String(error) };
}
