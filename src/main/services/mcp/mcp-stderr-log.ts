/**
 * A stdio MCP server's stderr, one file per service under the logs folder, so a server that
 * fails to start can be diagnosed. Each file is capped: past the cap it starts over.
 */
import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MAX_LOG_BYTES = 1024 * 1024;

/** The log file of a service's stderr. */
export function mcpStderrLogPath(directory: string, serviceId: string): string {
  return join(directory, `${serviceId.replace(/[^A-Za-z0-9_-]/g, '_')}.log`);
}

export function mcpStderrLog(directory: string): (serviceId: string, line: string) => void {
  return (serviceId, line) => {
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      const path = mcpStderrLogPath(directory, serviceId);
      let size = 0;
      try {
        size = statSync(path).size;
      } catch {
        // Not there yet.
      }
      const text = `${new Date().toISOString()} ${line.slice(0, 4000)}\n`;
      if (size > MAX_LOG_BYTES) writeFileSync(path, text, { mode: 0o600 });
      else appendFileSync(path, text, { mode: 0o600 });
    } catch {
      // A log that cannot be written must not break the server's use.
    }
  };
}
