/**
 * How an MCP failure reaches the user: one line (`describeFailure`), and a server's error on a
 * request the user made shown as is (`showingFailures`) instead of "An internal error occurred".
 */
import type { McpService } from '../../../shared/mcp';
import type { ErrorCode } from '../../../shared/errors';
import { AivoryError } from '../../../shared/errors';
import type { Logger } from '../../core/ports';
import { McpError } from '../../core/ports';

/** One line for a failure, never a stack. */
export function describeFailure(error: unknown): string {
  if (error instanceof McpError || error instanceof AivoryError) return error.message;
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}

/**
 * Runs a request whose McpError (already one line, bounded, control characters stripped by the
 * adapter) is worth showing: as an AivoryError it reaches the CLI and the settings page as is,
 * instead of "An internal error occurred".
 */
export async function showingFailures<T>(
  logger: Logger,
  service: McpService,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    logger.warn('MCP request failed', {
      service: service.name,
      kind: error.kind,
      error: error.message,
    });
    throw new AivoryError(codeOfShown(error), `"${service.name}": ${error.message}`, {
      cause: error,
    });
  }
}

/**
 * A shown MCP failure's code: a server that answered with an error is a failed request (the CLI
 * exits 1), not a connection problem (3).
 */
function codeOfShown(error: McpError): ErrorCode {
  if (error.kind === 'canceled') return 'canceled';
  return error.kind === 'server-error' ? 'provider' : 'connection';
}
