/**
 * A server's log messages and logging/setLevel, over the SDK's in-memory transport (no
 * sockets): the level is sent only to a server that offers logging, messages become one bounded
 * line with their level, and a flood is cut to the rate with one line saying how many were dropped.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import type { McpLogEntry } from '../../../../src/main/core/ports';
import {
  forwardServerLog,
  MAX_LOG_MESSAGES_PER_SECOND,
  MAX_LOG_TEXT_CHARS,
  setServerLogLevel,
} from '../../../../src/main/adapters/mcp/mcp-logging';

async function pair(logging: boolean) {
  const server = new Server(
    { name: 'logs', version: '1' },
    { capabilities: logging ? { logging: {} } : {} },
  );
  const levels: string[] = [];
  if (logging) {
    server.setRequestHandler('logging/setLevel', (request) => {
      levels.push(request.params.level);
      return {};
    });
  }
  const client = new Client({ name: 'aivory', version: '1' }, { capabilities: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { server, client, clientSide, levels };
}

describe('MCP logging', () => {
  it('sends logging/setLevel only to a server that offers logging', async () => {
    const withLogging = await pair(true);
    await withLogging.client.connect(withLogging.clientSide);
    expect(await setServerLogLevel(withLogging.client, 'info', 5000)).toBe(true);
    expect(withLogging.levels).toEqual(['info']);
    const without = await pair(false);
    await without.client.connect(without.clientSide);
    expect(await setServerLogLevel(without.client, 'info', 5000)).toBe(false);
    await Promise.all([withLogging.client.close(), without.client.close()]);
  });

  it('logs each message as one bounded line with its level, within the rate', async () => {
    const { server, client, clientSide } = await pair(true);
    const entries: McpLogEntry[] = [];
    let now = 0;
    forwardServerLog(
      client,
      (entry) => entries.push(entry),
      () => now,
    );
    await client.connect(clientSide);
    await server.sendLoggingMessage({
      level: 'error',
      logger: 'db\npool',
      data: `line one\nline two\u001b[31m ${'y'.repeat(5000)}`,
    });
    await server.sendLoggingMessage({ level: 'info', data: { rows: 3 } });
    await vi.waitFor(() => expect(entries).toHaveLength(2));
    expect(entries[0]?.level).toBe('error');
    expect(entries[0]?.logger).toBe('db pool');
    expect(entries[0]?.text.startsWith('line one line two')).toBe(true);
    expect(entries[0]?.text).not.toContain('\n');
    expect(entries[0]?.text).not.toContain('\u001b');
    expect(entries[0]?.text.length).toBeLessThanOrEqual(MAX_LOG_TEXT_CHARS);
    expect(entries[1]).toEqual({ level: 'info', text: '{"rows":3}' });

    for (let index = 0; index < MAX_LOG_MESSAGES_PER_SECOND + 5; index += 1)
      await server.sendLoggingMessage({ level: 'debug', data: `flood ${index}` });
    await vi.waitFor(() => expect(entries).toHaveLength(MAX_LOG_MESSAGES_PER_SECOND));
    now += 1000;
    await server.sendLoggingMessage({ level: 'notice', data: 'after' });
    await vi.waitFor(() => expect(entries.at(-1)?.text).toBe('after'));
    expect(entries.at(-2)?.text).toMatch(/^7 more log message\(s\) dropped/);
    await client.close();
  });
});
