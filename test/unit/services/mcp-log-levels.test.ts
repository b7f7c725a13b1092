/**
 * A changed log-level setting reaches the servers connected now (`logging/setLevel` through the
 * live session), per service over the default; services not connected are not woken up for it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from '../../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../../src/main/adapters/sqlite/sqlite-store';
import type { McpConnector, McpLogLevel, McpSession } from '../../../src/main/core/ports';
import { McpServices } from '../../../src/main/services/mcp/mcp-services';
import { fakeMcpSession } from '../../support/fake-mcp-session';
import { recordingLogger } from '../../support/turn-harness';

describe('MCP log levels', () => {
  it('applies the current level to each live connection, per service over the default', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'aivory-mcp-levels-'));
    const store = openStore(join(directory, 'aivory.db'));
    const asked: { url: string; level: McpLogLevel }[] = [];
    const connector: McpConnector = {
      connect: (endpoint, options) => {
        const url = endpoint.transport === 'stdio' ? 'stdio' : endpoint.url;
        if (options.logLevel) asked.push({ url, level: options.logLevel });
        const session: McpSession = fakeMcpSession({
          setLogLevel: (level) => {
            asked.push({ url, level });
            return Promise.resolve(true);
          },
        });
        return Promise.resolve(session);
      },
      signIn: () => Promise.reject(new Error('no sign-in in this test')),
    };
    let levels: { logLevel: McpLogLevel; serviceLogLevels: Record<string, McpLogLevel> } = {
      logLevel: 'warning',
      serviceLogLevels: {},
    };
    let counter = 0;
    const services = new McpServices({
      store: store.mcp,
      secrets: new FileSecretStore(join(directory, 'secrets.json')),
      connector,
      resolver: { resolve: () => Promise.resolve([{ address: '45.33.0.1', family: 4 }]) },
      clock: { now: () => 1_000 + counter },
      ids: { next: (prefix) => `${prefix}_${++counter}` },
      logger: recordingLogger(),
      allowLocalCommands: () => false,
      logLevel: (service) => levels.serviceLogLevels[service.name] ?? levels.logLevel,
    });
    const signal = new AbortController().signal;
    try {
      for (const name of ['Alpha', 'Beta', 'Idle'])
        await services.add({
          name,
          url: `https://${name.toLowerCase()}.example.com/mcp`,
          description: name,
        });
      await services.sync('Alpha', { accept: true, signal });
      await services.sync('Beta', { accept: true, signal });
      expect(asked).toEqual([
        { url: 'https://alpha.example.com/mcp', level: 'warning' },
        { url: 'https://beta.example.com/mcp', level: 'warning' },
      ]);

      asked.length = 0;
      levels = { logLevel: 'error', serviceLogLevels: { Beta: 'debug' } };
      await services.applyLogLevels();
      expect(asked).toEqual([
        { url: 'https://alpha.example.com/mcp', level: 'error' },
        { url: 'https://beta.example.com/mcp', level: 'debug' },
      ]);
    } finally {
      await services.close();
      store.close();
    }
  });
});
