/**
 * The `mcp.*` and `approval.answer` handlers over a real AppContext against the real
 * @modelcontextprotocol/server-everything: add (header kept secret), test, sync + diff + accept,
 * enable, approval policy, remove, stdio refusals, and a chat turn whose MCP call waits for the
 * renderer's answer (allow, cancel → deny).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/main/host/event-hub';
import type { EventPayload } from '../../../src/shared/ipc-contract';
import { invokeContract } from '../../../src/shared/ipc-contract';
import type { EverythingServer } from '../../support/mcp-everything-server';
import { startEverythingServer } from '../../support/mcp-everything-server';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture, TRUSTED_SENDER } from '../../support/host/host-fixture';

const SECRET = 'Bearer sk-mcp-secret-value-123456789';
const ECHO_CALL =
  '<tool_call>{"name":"everything__echo","arguments":{"message":"hi from the turn"}}</tool_call>';

type Approval = EventPayload<'approval.request'>;

function expectContract(method: keyof typeof invokeContract, value: unknown): void {
  const parsed = invokeContract[method].response.safeParse(value);
  expect(parsed.success, `${method}: ${JSON.stringify(parsed.error?.issues ?? [])}`).toBe(true);
}

describe('MCP handlers with server-everything', () => {
  let server: EverythingServer;
  let fixture: HostFixture | null = null;
  let llm: ScriptedLlmServer | null = null;

  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await fixture?.close();
    await llm?.close();
    fixture = null;
    llm = null;
  });

  /** Adds, tests, syncs, accepts and enables "everything"; returns its id. */
  async function addEverything(host: HostFixture): Promise<string> {
    const added = await host.value('mcp.add', {
      name: 'everything',
      icon: '🧪',
      description: 'Test utilities: echo and sums.',
      transport: 'streamable-http',
      url: server.url,
      headers: [{ name: 'Authorization', value: SECRET }],
      timeoutSeconds: 30,
    });
    const id = added.service.id;
    await host.value('mcp.test', { id });
    await host.value('mcp.sync', { id });
    await host.value('mcp.accept', { id });
    await host.value('mcp.setEnabled', { id, enabled: true });
    return id;
  }

  it('add → test → sync (diff) → accept → enable → approval policy → remove; secrets stay masked', async () => {
    fixture = openHostFixture();
    const added = await fixture.value('mcp.add', {
      name: 'everything',
      icon: '🧪',
      description: 'Test utilities.',
      transport: 'streamable-http',
      url: server.url,
      headers: [{ name: 'Authorization', value: SECRET }],
    });
    expectContract('mcp.add', added);
    expect(added.notice).toContain('127.0.0.1');
    expect(added.service).toMatchObject({ testState: 'untested', syncedAt: null, enabled: false });
    const id = added.service.id;
    expect(await fixture.call('mcp.setEnabled', { id, enabled: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input', message: expect.stringContaining('never been synced') },
    });

    const tested = await fixture.value('mcp.test', { id });
    expectContract('mcp.test', tested);
    expect(tested).toMatchObject({ ok: true, service: { testState: 'connected' } });

    const synced = await fixture.value('mcp.sync', { id });
    expectContract('mcp.sync', synced);
    expect(synced.toolCount).toBeGreaterThan(3);
    expect(synced.changes.find((change) => change.tool === 'echo')?.kinds).toEqual(['added']);
    expect(synced.service).toMatchObject({ callableCount: 0, pendingChanges: synced.toolCount });
    expect((await fixture.value('mcp.diff', { id })).length).toBe(synced.toolCount);

    const accepted = await fixture.value('mcp.accept', { id });
    expect(accepted).toMatchObject({ callableCount: synced.toolCount, pendingChanges: 0 });
    expect(await fixture.value('mcp.setEnabled', { id, enabled: true })).toMatchObject({
      enabled: true,
    });
    const tools = await fixture.value('mcp.setApproval', { id, tool: 'echo', policy: 'deny' });
    expectContract('mcp.tools', tools);
    expect(tools.find((tool) => tool.name === 'echo')).toMatchObject({
      approval: 'deny',
      callable: true,
    });
    expect(
      await fixture.call('mcp.setApproval', { id, tool: 'no_such_tool', policy: 'allow' }),
    ).toMatchObject({ ok: false, error: { code: 'not-found' } });

    const listed = await fixture.value('mcp.list');
    expectContract('mcp.list', listed);
    expect(listed.services[0]?.headers).toEqual([
      { name: 'Authorization', value: expect.stringMatching(/…/) },
    ]);
    for (const value of [added, tested, synced, accepted, listed]) {
      expect(JSON.stringify(value)).not.toContain('sk-mcp-secret-value-123456789');
      expect(JSON.stringify(value)).not.toContain('secretRef');
    }

    expect(await fixture.value('mcp.remove', { id })).toEqual({ ok: true });
    expect((await fixture.value('mcp.list')).services).toEqual([]);
    expect(await fixture.call('mcp.test', { id })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  }, 120_000);

  it('conversation tool switches list the accepted MCP tools with their layer', async () => {
    fixture = openHostFixture();
    const id = await addEverything(fixture);
    const rows = await fixture.value('conversations.tools', {});
    expect(rows.tools.find((row) => row.name === 'everything__echo')).toMatchObject({
      on: true,
      layer: 'model-default',
      available: true,
    });
    await fixture.value('mcp.setEnabled', { id, enabled: false });
    const after = await fixture.value('conversations.tools', {});
    expect(after.tools.some((row) => row.name === 'everything__echo')).toBe(false);
  }, 120_000);

  it('mcp.update changes only what is given; new headers replace the saved ones, masked', async () => {
    fixture = openHostFixture();
    const id = await addEverything(fixture);
    const renamed = await fixture.value('mcp.update', { id, description: 'Echo and sums.' });
    expectContract('mcp.update', renamed);
    expect(renamed.service).toMatchObject({
      description: 'Echo and sums.',
      testState: 'connected',
      headers: [{ name: 'Authorization', value: expect.stringMatching(/…/) }],
    });
    const rekeyed = await fixture.value('mcp.update', {
      id,
      headers: [{ name: 'X-Token', value: 'another-secret-value-987654' }],
    });
    expect(rekeyed.service.headers).toEqual([
      { name: 'X-Token', value: expect.stringMatching(/…/) },
    ]);
    expect(rekeyed.service.testState).toBe('untested');
    expect(JSON.stringify(rekeyed)).not.toContain('another-secret-value-987654');
    expect(await fixture.call('mcp.update', { id, url: 'ftp://x/' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    // Unknown keys are refused by the dispatcher (a payload straight from the wire).
    expect(
      await fixture.host.dispatch('mcp.update', { id, bogus: 1 }, TRUSTED_SENDER),
    ).toMatchObject({ ok: false });
  }, 120_000);

  it('refuses bad services with the field named, and stdio unless allowed and confirmed', async () => {
    fixture = openHostFixture();
    const base = { name: 'x', icon: 'x', description: 'd', transport: 'streamable-http' } as const;
    const cases: [unknown, RegExp][] = [
      [{ ...base, description: '  ' }, /description: a tool description is required/],
      [{ ...base, url: 'ftp://example.com' }, /http:\/\/ or https:\/\//],
      [{ ...base, url: 'http://169.254.169.254/mcp' }, /Refused/],
      [{ ...base, url: server.url, headers: [{ name: 'Bad Name', value: 'v' }] }, /header/i],
      [{ ...base, url: server.url, secretRef: 'mcp.x' }, /Unrecognized key/],
    ];
    for (const [payload, message] of cases) {
      const result = await fixture.host.dispatch('mcp.add', payload, {
        transport: 'websocket',
        origin: 'http://127.0.0.1:5217',
        mainFrame: true,
        authenticated: true,
      });
      expect(result, JSON.stringify(payload)).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error.message).toMatch(message);
    }
    const stdio = {
      ...base,
      transport: 'stdio' as const,
      command: 'node',
      args: ['server.js'],
    };
    expect(await fixture.call('mcp.add', stdio)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('Local command MCP servers are off') },
    });
    await fixture.value('settings.set', { key: 'mcp', values: { allowLocalCommands: true } });
    expect(await fixture.call('mcp.add', stdio)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('confirm the command') },
    });
    const added = await fixture.value('mcp.add', { ...stdio, confirmCommand: true });
    expect(added.service).toMatchObject({
      transport: 'stdio',
      command: 'node',
      args: ['server.js'],
    });
    expect(added.notice).toContain('node server.js');
    // Editing: a new environment is a command change (NODE_OPTIONS=--require … runs code), and
    // so is turning an HTTP service into a local command.
    const id = added.service.id;
    const hostile = { id, env: [{ name: 'NODE_OPTIONS', value: '--require /tmp/evil.js' }] };
    expect(await fixture.call('mcp.update', hostile)).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('confirm the command') },
    });
    // Confirmed, a loader variable still needs its own allowance (issue 37, item 1).
    expect(await fixture.call('mcp.update', { ...hostile, confirmCommand: true })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('NODE_OPTIONS is a loader variable') },
    });
    const confirmed = await fixture.value('mcp.update', {
      ...hostile,
      allowLoaderEnv: ['NODE_OPTIONS'],
      confirmCommand: true,
    });
    expect(confirmed.service.env.map((entry) => entry.name)).toEqual(['NODE_OPTIONS']);
    expect(await fixture.value('mcp.update', { id, description: 'Only the text.' })).toMatchObject({
      service: { description: 'Only the text.' },
    });
    const http = await fixture.value('mcp.add', {
      ...base,
      name: 'Remote',
      url: server.url,
    });
    expect(
      await fixture.call('mcp.update', {
        id: http.service.id,
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
      }),
    ).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('confirm the command') },
    });
  });

  it('a turn waits for approval.answer; allowing runs the tool, canceling the turn denies', async () => {
    llm = await startScriptedLlmServer((request) => {
      const messages = (request.body.messages ?? []) as { role: string; content: string }[];
      const last = messages.at(-1)?.content ?? '';
      if (last.startsWith('<tool_result') || last.startsWith('<tool_error')) {
        return { content: `Result seen: ${last.slice(0, 80)}` };
      }
      return { content: `Calling.${ECHO_CALL}` };
    });
    fixture = openHostFixture({
      env: {
        AIVORY_BASE_URL: llm.baseUrl,
        AIVORY_MODEL: 'scripted-model',
        AIVORY_TOOL_MODE: 'prompt',
      },
    });
    const id = await addEverything(fixture);
    await fixture.value('mcp.setApproval', { id, tool: 'echo', policy: 'ask' });
    const events: HubEvent[] = [];
    fixture.host.events.subscribe((event) => events.push(event));
    const nextApproval = async (): Promise<Approval> => {
      const seen = events.filter((event) => event.name === 'approval.request').length;
      for (;;) {
        const found = events.filter((event) => event.name === 'approval.request')[seen];
        if (found?.name === 'approval.request') return found.payload;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const turnEnd = async (turnId: string) => {
      for (;;) {
        const end = events.find(
          (event) =>
            event.name === 'turn.event' &&
            event.payload.turnId === turnId &&
            event.payload.event.type === 'turn-end',
        );
        if (end?.name === 'turn.event') return end.payload.event;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const pending = nextApproval();
    const sent = await fixture.value('chat.send', { text: 'Echo something' });
    const approval = await pending;
    expect(approval).toMatchObject({
      turnId: sent.turnId,
      conversationId: sent.conversationId,
      toolName: 'everything__echo',
      service: 'everything',
      tool: 'echo',
      arguments: { message: 'hi from the turn' },
    });
    expect(
      await fixture.value('approval.answer', { approvalId: approval.approvalId, answer: 'once' }),
    ).toEqual({ accepted: true });
    expect(await turnEnd(sent.turnId)).toMatchObject({ stopReason: 'completed' });
    const stored = await fixture.value('conversations.get', { id: sent.conversationId });
    const result = stored.messages[1]?.parts.find((part) => part.kind === 'tool-result');
    expect(result).toMatchObject({ name: 'everything__echo', status: 'ok' });
    expect(result?.kind === 'tool-result' && result.output).toContain('Echo: hi from the turn');

    const second = nextApproval();
    const canceled = await fixture.value('chat.send', { text: 'Echo again' });
    const waiting = await second;
    expect(await fixture.value('chat.cancel', { turnId: canceled.turnId })).toEqual({
      canceled: true,
    });
    expect(await turnEnd(canceled.turnId)).toMatchObject({ stopReason: 'canceled' });
    expect(events).toContainEqual({
      name: 'approval.settled',
      payload: { approvalId: waiting.approvalId, answer: 'deny', reason: 'canceled' },
    });
    expect(
      await fixture.value('approval.answer', { approvalId: waiting.approvalId, answer: 'once' }),
    ).toEqual({ accepted: false });
    const logFile = join(fixture.app.dataDir, 'logs', 'aivory.log');
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    expect(log).not.toContain('sk-mcp-secret-value-123456789');
  }, 90_000);
});
