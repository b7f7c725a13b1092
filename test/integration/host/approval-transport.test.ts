/**
 * MCP approvals over `aivory serve`'s real WebSocket: the request reaches the browser as an event,
 * the browser's `approval.answer` resolves it, a closed socket (the last window gone) denies what
 * waits, and `mcp.stale` from McpServices reaches the browser.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/main/core/ports';
import type { BrowserHost } from '../../../src/main/host/server/browser-host';
import { startBrowserHost } from '../../../src/main/host/server/browser-host';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import type { TestSocket } from '../../support/host/ws-test-client';
import { connectTestSocket } from '../../support/host/ws-test-client';

const REQUEST: ApprovalRequest = {
  toolName: 'notes__write',
  service: 'notes',
  tool: 'write',
  arguments: { path: 'todo.md', text: '- buy tea' },
  conversationId: null,
  readOnlyHint: false,
  destructiveHint: false,
};

describe('approvals over the browser host', () => {
  let home: string;
  let app: AppContext;
  let host: BrowserHost;
  let staleListener: ((serviceId: string) => void) | null;

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'aivory-approval-'));
    mkdirSync(join(home, 'renderer'));
    writeFileSync(join(home, 'renderer', 'index.html'), '<!doctype html><title>Aivory</title>');
    const env = { AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0' };
    app = openAppContext({ env });
    staleListener = null;
    app.mcp.onStale = (listener) => {
      staleListener = listener;
    };
    host = await startBrowserHost({ app, env, port: 0, rendererDir: join(home, 'renderer') });
  });
  afterEach(async () => {
    await host.close();
    await app.close();
    rmSync(home, { recursive: true, force: true });
  });

  const connect = (): Promise<TestSocket> =>
    connectTestSocket(host.url.replace('http://', 'ws://').replace('/?token=', '/ws?token='), {
      origin: `http://127.0.0.1:${host.port}`,
    });

  it('the browser sees the exact request and its answer resolves the call', async () => {
    const socket = await connect();
    const answer = host.api.approvals.ask(REQUEST, 'turn_1', new AbortController().signal);
    const event = (await socket.waitForEvent((frame) => frame.name === 'approval.request')) as {
      payload: { approvalId: string; arguments: unknown; toolName: string };
    };
    expect(event.payload).toMatchObject({
      toolName: 'notes__write',
      arguments: { path: 'todo.md', text: '- buy tea' },
    });
    const result = await socket.request('approval.answer', {
      approvalId: event.payload.approvalId,
      answer: 'always',
    });
    expect(result.result).toEqual({ ok: true, value: { accepted: true } });
    expect(await answer).toBe('always');
    await socket.waitForEvent((frame) => frame.name === 'approval.settled');
    const malformed = await socket.request('approval.answer', {
      approvalId: event.payload.approvalId,
      answer: 'maybe',
    });
    expect(malformed.result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    socket.close();
  });

  it('closing the last socket denies a pending request; with no socket it is denied at once', async () => {
    const socket = await connect();
    const answer = host.api.approvals.ask(REQUEST, 'turn_1', new AbortController().signal);
    await socket.waitForEvent((frame) => frame.name === 'approval.request');
    socket.close();
    expect(await answer).toBe('deny');
    expect(await host.api.approvals.ask(REQUEST, null, new AbortController().signal)).toBe('deny');
  });

  it('a server announcing changed tools reaches the browser as mcp.stale', async () => {
    const socket = await connect();
    const added = await app.mcp.add({
      name: 'notes',
      description: 'My notes.',
      url: 'http://127.0.0.1:9/mcp',
    });
    expect(staleListener).not.toBeNull();
    staleListener?.(added.service.id);
    expect(await socket.waitForEvent((frame) => frame.name === 'mcp.stale')).toMatchObject({
      payload: { serviceId: added.service.id, name: 'notes' },
    });
    socket.close();
  });
});
