/**
 * `McpServices` over a data directory of its own, the real connector and no DNS (local services
 * only), as the MCP integration tests build it; `overrides` adds or replaces dependencies.
 */
import { join } from 'node:path';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { McpServicesDependencies } from '../../src/main/services/mcp/mcp-services';
import { McpServices } from '../../src/main/services/mcp/mcp-services';
import { recordingLogger } from './turn-harness';

export function localMcpServices(
  home: string,
  overrides: Partial<McpServicesDependencies> = {},
): McpServices {
  let counter = 0;
  return new McpServices({
    store: openStore(join(home, 'aivory.db')).mcp,
    secrets: new FileSecretStore(join(home, 'secrets.json')),
    connector: createMcpConnector(),
    resolver: { resolve: () => Promise.reject(new Error('no lookups here')) },
    clock: { now: () => Date.now() },
    ids: { next: (prefix) => `${prefix}_${++counter}` },
    logger: recordingLogger(),
    allowLocalCommands: () => true,
    ...overrides,
  });
}
