/**
 * One MCP session per service in `aivory serve` (issue 23, item 2), over its real WebSocket API:
 * the real server-everything over Streamable HTTP (it prints each session id it creates), a
 * scripted model driving the turns. Two turns and the service page share one server session, so
 * a session-scoped resource link returned by a tool in one round is read later; an edit, or
 * switching the service off, closes the session at once (the next turn gets a new one); a server
 * killed and restarted between turns costs the next turn nothing (its call reconnects once).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHost } from '../../../src/main/host/server/browser-host';
import { startBrowserHost } from '../../../src/main/host/server/browser-host';
import type { AppContext } from '../../../src/main/composition/app-context';
import { openAppContext } from '../../../src/main/composition/app-context';
import type { McpSessionEnd } from '../../../src/main/services/mcp/mcp-connections';
import type { HostFrame } from '../../../src/shared/ipc/ws-frames';
import type { EverythingServer } from '../../support/mcp-everything-server';
import { startEverythingServer } from '../../support/mcp-everything-server';
import type { ScriptedLlmServer, ScriptedResponse } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { TestSocket } from '../../support/host/ws-test-client';
import { connectTestSocket } from '../../support/host/ws-test-client';

const NOTE = 'Shared across turns.\n'.repeat(20);
const NOTE_URI = 'demo://resource/session/note.txt.gz';

interface ToolResult {
  name: string;
  status: string;
  output: string;
}

type TurnEventFrame = { payload: { event: { type: string } & Record<string, unknown> } };

describe('aivory serve: one MCP session per service, across turns and the service page', () => {
  let home: string;
  let app: AppContext;
  let host: BrowserHost;
  let llm: ScriptedLlmServer;
  let server: EverythingServer;
  let client: TestSocket;
  let serviceId = '';
  let modelId = '';
  let conversationId: string | undefined;
  /** What the scripted model answers next, one entry per request. */
  const replies: ScriptedResponse[] = [];
  /** Each end of the service's session, as McpServices reported it. */
  const ends: McpSessionEnd[] = [];

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'aivory-mcp-sessions-'));
    server = await startEverythingServer('streamableHttp');
    llm = await startScriptedLlmServer(
      () => replies.shift() ?? { content: 'Nothing more was scripted.' },
    );
    const env = { AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0' };
    app = openAppContext({ env });
    app.mcp.onSessionEnd((id, why) => {
      if (id === serviceId) ends.push(why);
    });
    host = await startBrowserHost({ app, env, port: 0, rendererDir: home });
    client = await connectTestSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, {
      origin: `http://127.0.0.1:${host.port}`,
    });
    const added = await value<{ service: { id: string } }>('mcp.add', {
      name: 'everything',
      icon: '🧪',
      description: 'Test tools.',
      transport: 'streamable-http',
      url: server.url,
    });
    serviceId = added.service.id;
    await value('mcp.sync', { id: serviceId, accept: true });
    await value('mcp.setEnabled', { id: serviceId, enabled: true });
    // Called in tainted turns too (a tool's output taints the turn): no approval card here.
    for (const tool of ['echo', 'gzip-file-as-resource'])
      await value('mcp.setApproval', { id: serviceId, tool, policy: 'allow-even-after-web' });
    modelId = (
      await value<{ id: string }>('models.save', {
        label: 'Scripted',
        baseUrl: llm.baseUrl,
        model: 'scripted-model',
        toolMode: 'native',
        defaultTools: [],
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await host?.close();
    await app?.close();
    await llm?.close();
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  async function value<T = unknown>(method: string, payload?: unknown): Promise<T> {
    const frame = await client.request(method, payload);
    if (!frame.result.ok) throw new Error(`${method}: ${frame.result.error.message}`);
    return frame.result.value as T;
  }

  /** One turn of the conversation with these model replies; the tool results it showed. */
  async function turn(...script: ScriptedResponse[]): Promise<ToolResult[]> {
    replies.push(...script, { content: 'Done.' });
    const from = client.frames.length;
    const sent = await value<{ turnId: string; conversationId: string }>('chat.send', {
      text: 'Go on.',
      modelId,
      ...(conversationId === undefined ? {} : { conversationId }),
    });
    conversationId = sent.conversationId;
    const events = (): TurnEventFrame['payload']['event'][] =>
      client.frames
        .slice(from)
        .filter((frame): frame is HostFrame & { type: 'event' } => frame.type === 'event')
        .filter((frame) => frame.name === 'turn.event')
        .map((frame) => (frame as unknown as TurnEventFrame).payload.event);
    await client.waitForEvent(
      (frame) =>
        client.frames.indexOf(frame) >= from &&
        frame.name === 'turn.event' &&
        (frame as unknown as TurnEventFrame).payload.event.type === 'turn-end',
    );
    expect(replies).toEqual([]);
    return events()
      .filter((event) => event.type === 'tool-result')
      .map((event) => ({
        name: String(event['name']),
        status: String(event['status']),
        output: String(event['output']),
      }));
  }

  const echo = (message: string): ScriptedResponse => ({
    toolCalls: [{ name: 'everything__echo', arguments: JSON.stringify({ message }) }],
  });

  /** The session-scoped resource as the service page reads it (mcp.attachResource). */
  async function readNote(): Promise<string> {
    const read = await value<{ files: { dataBase64: string }[] }>('mcp.attachResource', {
      id: serviceId,
      uri: NOTE_URI,
    });
    return gunzipSync(Buffer.from(read.files[0]?.dataBase64 ?? '', 'base64')).toString('utf8');
  }

  it('two turns, their rounds and the service page share one server session', async () => {
    // mcp.sync opened it.
    expect(server.sessionIds()).toHaveLength(1);
    const gzip = {
      toolCalls: [
        {
          name: 'everything__gzip-file-as-resource',
          arguments: JSON.stringify({
            name: 'note.txt.gz',
            data: `data:text/plain;base64,${Buffer.from(NOTE).toString('base64')}`,
            outputType: 'resourceLink',
          }),
        },
      ],
    };
    const first = await turn(gzip, echo('round two'));
    expect(first.map((result) => result.status)).toEqual(['ok', 'ok']);
    // The link names a resource that exists only in the session that made it.
    expect(first[0]?.output).toContain(NOTE_URI);
    expect(first[1]?.output).toContain('Echo: round two');

    // The service page reads the link the turn's tool returned: same session.
    expect(await readNote()).toBe(NOTE);
    const second = await turn(echo('turn two'));
    expect(second).toMatchObject([{ status: 'ok', output: 'Echo: turn two' }]);
    // …and after the second turn too.
    expect(await readNote()).toBe(NOTE);
    await value('mcp.test', { id: serviceId });
    expect(server.sessionIds()).toHaveLength(1);
    expect(ends).toEqual([]);
  }, 120_000);

  it('an edit closes the session at once; the next turn opens a new one', async () => {
    const before = server.sessionIds().length;
    await value('mcp.update', { id: serviceId, description: 'Test tools, edited.' });
    expect(ends).toEqual(['changed']);
    expect(app.mcp.liveSession(serviceId)).toBe(false);
    expect(await turn(echo('after the edit'))).toMatchObject([{ status: 'ok' }]);
    expect(server.sessionIds()).toHaveLength(before + 1);
    // The old session's resource went with it: a new session does not know the link.
    await expect(readNote()).rejects.toThrow(/Resource .*not found|Unknown resource/i);
  }, 120_000);

  it('switching the service off closes its session at once', async () => {
    expect(app.mcp.liveSession(serviceId)).toBe(true);
    const count = ends.length;
    await value('mcp.setEnabled', { id: serviceId, enabled: false });
    expect(app.mcp.liveSession(serviceId)).toBe(false);
    await expect.poll(() => ends.slice(count)).toEqual(['changed']);
    await value('mcp.setEnabled', { id: serviceId, enabled: true });
    // Switching it on opens nothing; the next use does.
    expect(app.mcp.liveSession(serviceId)).toBe(false);
  }, 120_000);

  it('a server killed and restarted between turns: the next call reconnects and succeeds', async () => {
    expect(await turn(echo('before the restart'))).toMatchObject([{ status: 'ok' }]);
    expect(app.mcp.liveSession(serviceId)).toBe(true);
    const { port } = server;
    await server.stop();
    server = await startEverythingServer('streamableHttp', port);
    expect(server.sessionIds()).toEqual([]);
    const results = await turn(echo('after the restart'));
    expect(results).toMatchObject([{ status: 'ok', output: 'Echo: after the restart' }]);
    // One new session on the new server, not an error for the user or the model.
    expect(server.sessionIds()).toHaveLength(1);
    expect(ends.at(-1)).toBe('lost');
    const log = readFileSync(join(home, 'logs', 'aivory.log'), 'utf8');
    // Which way it noticed depends on timing: its event stream's reconnection met the new
    // server, or the call itself did and was sent again once.
    expect(log).toMatch(/MCP connection closed|MCP session gone: reconnecting once/);
  }, 120_000);
});
