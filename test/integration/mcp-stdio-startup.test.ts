/**
 * A local (stdio) MCP server that exits during the handshake: `test` and `sync` say so with the
 * child's last stderr line (bounded, control characters stripped) and name the service's log
 * file, which holds every line. The child is a one-line Node script; nothing else runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import { FileSecretStore } from '../../src/main/adapters/secrets/file-secret-store';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { McpServices } from '../../src/main/services/mcp/mcp-services';
import { mcpStderrLog, mcpStderrLogPath } from '../../src/main/services/mcp/mcp-stderr-log';
import { recordingLogger } from '../support/turn-harness';

const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-stdio-startup-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const CHILD = [
  'console.error("starting the weather server");',
  'console.error("Error: WEATHER_TOKEN is not set\\u001b[31m (see --help)" + "x".repeat(2000));',
  'process.exit(3);',
].join(' ');

describe('a stdio server that exits during the handshake', () => {
  it('names its log file and shows its last stderr line', async () => {
    const logs = join(home, 'logs', 'mcp');
    let counter = 0;
    const mcp = new McpServices({
      store: openStore(join(home, 'aivory.db')).mcp,
      secrets: new FileSecretStore(join(home, 'secrets.json')),
      connector: createMcpConnector(),
      resolver: { resolve: () => Promise.reject(new Error('no lookups here')) },
      clock: { now: () => Date.now() },
      ids: { next: (prefix) => `${prefix}_${++counter}` },
      logger: recordingLogger(),
      allowLocalCommands: () => true,
      stderrSink: mcpStderrLog(logs),
      stderrLogPath: (serviceId) => mcpStderrLogPath(logs, serviceId),
    });
    try {
      const { service } = await mcp.add({
        name: 'weather',
        command: process.execPath,
        args: ['-e', CHILD],
        description: 'Weather',
      });
      const log = mcpStderrLogPath(logs, service.id);
      const tested = await mcp.test('weather', AbortSignal.timeout(30_000));
      expect(tested.ok).toBe(false);
      expect(tested.message).toContain(
        `exited before completing the MCP handshake; its last error output: "Error: WEATHER_TOKEN is not set [31m (see --help)xxx`,
      );
      expect(tested.message).toContain(`…" (its log: ${log})`);
      expect(tested.message.length).toBeLessThan(700);
      // eslint-disable-next-line no-control-regex
      expect(tested.message).not.toMatch(/[\u0000-\u001f]/);
      expect(existsSync(log)).toBe(true);
      expect(readFileSync(log, 'utf8')).toContain('starting the weather server');
      await expect(
        mcp.sync('weather', { accept: false, signal: AbortSignal.timeout(30_000) }),
      ).rejects.toThrow(`(its log: ${log})`);
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
