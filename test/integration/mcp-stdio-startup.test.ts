/**
 * A local (stdio) MCP server that exits during the handshake: `test` and `sync` say so with the
 * child's last stderr line (bounded, control characters stripped) and name the service's log
 * file, which holds every line. The child is a one-line Node script; nothing else runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mcpStderrLog, mcpStderrLogPath } from '../../src/main/services/mcp/mcp-stderr-log';
import { localMcpServices } from '../support/local-mcp-services';

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
    const mcp = localMcpServices(home, {
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
  }, 120_000);
});
