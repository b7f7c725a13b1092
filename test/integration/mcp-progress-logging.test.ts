/**
 * Progress and logging against the real server-everything over stdio: a model's call of
 * `trigger-long-running-operation` through the MCP turn tools and the turn's progress channel
 * yields `tool-progress` events with growing progress between its `tool-call-end` and
 * `tool-result`; the server's log messages (`toggle-simulated-logging`, at the level sent with
 * logging/setLevel) land in the service's log file with their level.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TurnEvent } from '../../src/shared/turn-events';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import type { ArtifactSink } from '../../src/main/core/ports';
import { mcpStderrLog, mcpStderrLogPath } from '../../src/main/services/mcp/mcp-stderr-log';
import { buildEntries } from '../../src/main/services/mcp/mcp-turn-tools';
import { TurnProgress } from '../../src/main/services/turn-progress';
import { EVERYTHING_SCRIPT } from '../support/mcp-everything-server';
import { localMcpServices } from '../support/local-mcp-services';
import { recordingLogger } from '../support/turn-harness';

const home = mkdtempSync(join(tmpdir(), 'aivory-mcp-progress-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('MCP progress and logging with server-everything', () => {
  it('turns progress notifications into tool-progress events and logs server messages', async () => {
    const logger = recordingLogger();
    const logs = join(home, 'logs');
    const store = openStore(join(home, 'aivory.db')).mcp;
    const mcp = localMcpServices(home, {
      store,
      logger,
      stderrSink: mcpStderrLog(logs),
      logLevel: () => 'debug',
    });
    try {
      const { service } = await mcp.add({
        name: 'everything',
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SCRIPT, 'stdio'],
        description: 'The reference server',
      });
      const signal = AbortSignal.timeout(60_000);
      await mcp.sync('everything', { accept: true, signal });
      mcp.setEnabled('everything', true);
      const artifacts: ArtifactSink = {
        save: () => Promise.reject(new Error('no artifacts here')),
      } as unknown as ArtifactSink;
      const entries = buildEntries(
        { services: mcp, store, artifacts, scratchConversationId: 'scratch' },
        new Set(),
      );
      const long = entries.find((entry) => entry.mcpTool === 'trigger-long-running-operation');
      const toggle = entries.find((entry) => entry.mcpTool === 'toggle-simulated-logging');
      if (!long || !toggle) throw new Error('tools missing');

      // A model's call, as the chat service runs it: wrapped, between its start and result.
      const progress = new TurnProgress('turn_1', { now: () => Date.now() });
      const tool = progress.wrap(long.tool);
      async function* turn(): AsyncGenerator<TurnEvent, void> {
        const base = { turnId: 'turn_1', toolCallId: 'call_1', name: tool.name };
        yield { type: 'tool-call-end', ...base, arguments: { duration: 2, steps: 4 } };
        const output = await tool.execute(
          { duration: 2, steps: 4 },
          { conversationId: null, signal, logger },
        );
        yield {
          type: 'tool-result',
          ...base,
          status: output.isError === true ? 'error' : 'ok',
          output: output.content,
          durationMs: 0,
          artifacts: [],
        };
      }
      const events: TurnEvent[] = [];
      for await (const event of progress.merge(turn())) events.push(event);
      const types = events.map((event) => event.type);
      expect(types[0]).toBe('tool-call-end');
      expect(types.at(-1)).toBe('tool-result');
      const reports = events.flatMap((event) => (event.type === 'tool-progress' ? [event] : []));
      // The last notification may race the answer (the SDK drops progress after the result).
      expect(reports.length).toBeGreaterThanOrEqual(3);
      expect(reports[0]).toMatchObject({ toolCallId: 'call_1', progress: 1, total: 4 });
      const values = reports.map((report) => report.progress);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(new Set(values).size).toBe(values.length);
      const result = events.at(-1);
      expect(result?.type === 'tool-result' && result.output).toContain(
        'Long running operation completed',
      );

      // Logging: asked at `debug`, the first simulated message (any level) is sent at once.
      const toggled = await toggle.callAsUser({}, { conversationId: null, signal, logger });
      expect(toggled.content).toContain('Started simulated');
      const file = mcpStderrLogPath(logs, service.id);
      const logged = () => {
        try {
          return readFileSync(file, 'utf8');
        } catch {
          return '';
        }
      };
      await vi.waitFor(
        () =>
          expect(logged()).toMatch(
            /\[server log: (debug|info|notice|warning|error|critical|alert|emergency)\] \S/,
          ),
        { timeout: 20_000 },
      );
      await toggle.callAsUser({}, { conversationId: null, signal, logger });
    } finally {
      await mcp.close();
    }
  }, 90_000);
});
