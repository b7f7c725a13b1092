/**
 * The saved services as an `mcpServers` config — the shape Claude Desktop, Claude Code's
 * `.mcp.json` and Cursor read, and `aivory mcp import` reads back. Secrets never leave: each env
 * and header keeps its name, its value is a placeholder the user fills in; a secret part of a URL
 * or an argument (`mcp-secret-parts.ts`) reads the same placeholder in its place.
 */
import type { McpService } from '../../../shared/mcp';
import { hasSecretPart, replaceSecretParts } from './mcp-secret-parts';

/** What stands in for every env and header value. */
export const EXPORT_SECRET_PLACEHOLDER = '<secret: not exported>';

type ExportedServer =
  | { command: string; args: string[]; env?: Record<string, string> }
  | { type: 'http' | 'sse'; url: string; headers?: Record<string, string> };

export interface McpConfigExport {
  config: { mcpServers: Record<string, ExportedServer> };
  /** `service: NAME` for each value left out, for the note on stderr. */
  omitted: string[];
}

export function exportMcpConfig(services: readonly McpService[]): McpConfigExport {
  const mcpServers: Record<string, ExportedServer> = {};
  const omitted: string[] = [];
  const placeholders = (service: McpService, entries: McpService['env']) => {
    for (const entry of entries) omitted.push(`${service.name}: ${entry.name}`);
    return Object.fromEntries(entries.map((entry) => [entry.name, EXPORT_SECRET_PLACEHOLDER]));
  };
  const parts = (service: McpService, where: string, text: string) => {
    if (!hasSecretPart(text)) return text;
    omitted.push(`${service.name}: ${where}`);
    return replaceSecretParts(text, EXPORT_SECRET_PLACEHOLDER);
  };
  for (const service of services) {
    if (service.transport === 'stdio') {
      mcpServers[service.name] = {
        command: service.command ?? '',
        args: service.args.map((arg, index) => parts(service, `argument ${index + 1}`, arg)),
        ...(service.env.length > 0 ? { env: placeholders(service, service.env) } : {}),
      };
    } else {
      mcpServers[service.name] = {
        type: service.transport === 'sse' ? 'sse' : 'http',
        url: parts(service, 'url', service.url ?? ''),
        ...(service.headers.length > 0 ? { headers: placeholders(service, service.headers) } : {}),
      };
    }
  }
  return { config: { mcpServers }, omitted };
}
