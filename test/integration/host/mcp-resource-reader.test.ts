/**
 * The model reads MCP resources (issue 23, item 6), over `aivory serve`'s real WebSocket API with
 * the real server-everything (Streamable HTTP) and a scripted model: a session-scoped resource
 * link one round's tool returned is read by the model in a later round and in a later turn (the
 * binary contents saved as an artifact, through the approval card, tainting the turn); a text
 * resource comes back as text; an embedded binary resource in a tool result is saved; a turn that does not use the service has no reader for it; a
 * tool's structuredContent is checked against its output schema and reaches the trace.
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
import type { HostFrame } from '../../../src/shared/ipc/ws-frames';
import type { EverythingServer } from '../../support/mcp-everything-server';
import { startEverythingServer } from '../../support/mcp-everything-server';
import type { ScriptedLlmServer, ScriptedResponse } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { TestSocket } from '../../support/host/ws-test-client';
import { connectTestSocket } from '../../support/host/ws-test-client';

const NOTE = 'Read me in a later round.\n'.repeat(30);
const NOTE_URI = 'demo://resource/session/later.txt.gz';
const READER = 'everything__read_resource';

type Event = { type: string } & Record<string, unknown>;
type TurnEventFrame = { payload: { event: Event } };
interface Approval {
  approvalId: string;
  toolName: string;
  tool: string;
  arguments: Record<string, unknown>;
  reason: string | null;
}

describe('aivory serve: the model reads resources of the MCP services its turn uses', () => {
  let home: string;
  let app: AppContext;
  let host: BrowserHost;
  let llm: ScriptedLlmServer;
  let server: EverythingServer;
  let client: TestSocket;
  let modelId = '';
  let conversationId: string | undefined;
  const replies: ScriptedResponse[] = [];
  /** Every approval card the turns showed, answered with `answer`. */
  const approvals: Approval[] = [];
  let answer: 'once' | 'deny' = 'once';
  let closed = false;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'aivory-mcp-reader-'));
    server = await startEverythingServer('streamableHttp');
    llm = await startScriptedLlmServer(
      () => replies.shift() ?? { content: 'Nothing more was scripted.' },
    );
    const env = { AIVORY_HOME: home, AIVORY_LOCAL_SANDBOX: '0' };
    app = openAppContext({ env });
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
    await value('mcp.sync', { id: added.service.id, accept: true });
    await value('mcp.setEnabled', { id: added.service.id, enabled: true });
    // The tools themselves run without a card, so every card here is a resource read's.
    for (const tool of ['gzip-file-as-resource', 'get-resource-links', 'get-structured-content'])
      await value('mcp.setApproval', {
        id: added.service.id,
        tool,
        policy: 'allow-even-after-web',
      });
    modelId = (
      await value<{ id: string }>('models.save', {
        label: 'Scripted',
        baseUrl: llm.baseUrl,
        model: 'scripted-model',
        toolMode: 'native',
        defaultTools: [],
      })
    ).id;
    void answerApprovals();
  }, 120_000);

  afterAll(async () => {
    closed = true;
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

  /** Answers each approval card as it comes (the user at the browser). */
  async function answerApprovals(): Promise<void> {
    while (!closed) {
      const frame = (await client.waitForEvent(
        (candidate) =>
          candidate.name === 'approval.request' &&
          !approvals.some(
            (seen) => seen.approvalId === (candidate.payload as { approvalId: string }).approvalId,
          ),
      )) as { payload: Approval };
      approvals.push(frame.payload);
      await client.request('approval.answer', { approvalId: frame.payload.approvalId, answer });
    }
  }

  /** One turn with these model replies; its events. */
  async function turn(script: ScriptedResponse[], tools?: string[]): Promise<Event[]> {
    replies.push(...script, { content: 'Done.' });
    const from = client.frames.length;
    const sent = await value<{ conversationId: string }>('chat.send', {
      text: 'Go on.',
      modelId,
      ...(tools === undefined ? {} : { tools }),
      ...(conversationId === undefined ? {} : { conversationId }),
    });
    conversationId = sent.conversationId;
    await client.waitForEvent(
      (frame) =>
        client.frames.indexOf(frame) >= from &&
        frame.name === 'turn.event' &&
        (frame as unknown as TurnEventFrame).payload.event.type === 'turn-end',
    );
    expect(replies).toEqual([]);
    return client.frames
      .slice(from)
      .filter((frame): frame is HostFrame & { type: 'event' } => frame.type === 'event')
      .filter((frame) => frame.name === 'turn.event')
      .map((frame) => (frame as unknown as TurnEventFrame).payload.event);
  }

  const call = (name: string, args: Record<string, unknown>): ScriptedResponse => ({
    toolCalls: [{ name, arguments: JSON.stringify(args) }],
  });
  const results = (events: Event[]) => events.filter((event) => event.type === 'tool-result');
  /** The names of the tools the model was offered in the latest request. */
  const offered = (): string[] =>
    ((llm.requests.at(-1)?.body['tools'] ?? []) as { function: { name: string } }[]).map(
      (tool) => tool.function.name,
    );

  it('reads a session-scoped resource link in a later round and a later turn, saved as a file', async () => {
    const gzip = call('everything__gzip-file-as-resource', {
      name: 'later.txt.gz',
      data: `data:text/plain;base64,${Buffer.from(NOTE).toString('base64')}`,
      outputType: 'resourceLink',
    });
    const events = await turn([gzip, call(READER, { uri: NOTE_URI })]);
    expect(offered()).toContain(READER);
    const [link, read] = results(events);
    expect(link).toMatchObject({ status: 'ok' });
    expect(String(link?.['output'])).toContain(`[resource link] ${NOTE_URI}`);
    // The read went through the card (the turn was tainted by then: the card says why).
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      toolName: READER,
      tool: 'resources/read',
      arguments: { uri: NOTE_URI },
    });
    expect(approvals[0]?.reason).toMatch(/untrusted content/);
    expect(read).toMatchObject({ status: 'ok', name: READER });
    expect(String(read?.['output'])).toMatch(/saved as the file later\.txt\.gz/);
    const artifacts = read?.['artifacts'] as { name: string; path: string }[];
    expect(artifacts.map((artifact) => artifact.name)).toEqual(['later.txt.gz']);
    expect(gunzipSync(readFileSync(artifacts[0]?.path ?? '')).toString('utf8')).toBe(NOTE);
    // The model read the result in its next round.
    const lastMessages = llm.requests.at(-1)?.body['messages'] as { content: unknown }[];
    expect(JSON.stringify(lastMessages.at(-1))).toContain('saved as the file later.txt.gz');

    // A later turn reads it again: the same server session. Untainted, a read (read-only by
    // nature, policy "default") needs no card.
    const again = results(await turn([call(READER, { uri: NOTE_URI })]));
    expect(again).toMatchObject([{ status: 'ok', name: READER }]);
    expect(approvals).toHaveLength(1);
    expect(
      gunzipSync(
        readFileSync((again[0]?.['artifacts'] as { path: string }[])[0]?.path ?? ''),
      ).toString('utf8'),
    ).toBe(NOTE);
  }, 120_000);

  it('a text resource comes back as text; a denied read is refused', async () => {
    const events = await turn([
      call('everything__get-resource-links', { count: 2 }),
      call(READER, { uri: 'demo://resource/dynamic/text/2' }),
    ]);
    const [links, read] = results(events);
    expect(String(links?.['output'])).toContain('[resource link] demo://resource/dynamic/text/2');
    expect(read).toMatchObject({ status: 'ok' });
    expect(String(read?.['output'])).toContain('Resource 2');
    expect(read?.['artifacts']).toEqual([]);

    answer = 'deny';
    const denied = results(
      await turn([
        call('everything__get-resource-links', { count: 4 }),
        call(READER, { uri: 'demo://resource/dynamic/text/4' }),
      ]),
    );
    answer = 'once';
    expect(denied).toMatchObject([{ status: 'ok' }, { status: 'error' }]);
    expect(String(denied[1]?.['output'])).toBe(`The user denied this call of ${READER}.`);
  }, 120_000);

  it('an embedded binary resource in a tool result is saved as a file, not only described', async () => {
    const [embedded] = results(
      await turn([
        call('everything__gzip-file-as-resource', {
          name: 'inline.txt.gz',
          data: `data:text/plain;base64,${Buffer.from(NOTE).toString('base64')}`,
          outputType: 'resource',
        }),
      ]),
    );
    expect(embedded).toMatchObject({ status: 'ok' });
    expect(String(embedded?.['output'])).toMatch(
      /\[binary resource demo:\/\/resource\/session\/inline\.txt\.gz: application\/gzip, [\d.]+ [KB]+\]\n\[saved as the file inline\.txt\.gz/,
    );
    const files = embedded?.['artifacts'] as { name: string; path: string }[];
    expect(files.map((file) => file.name)).toEqual(['inline.txt.gz']);
    expect(gunzipSync(readFileSync(files[0]?.path ?? '')).toString('utf8')).toBe(NOTE);
  }, 120_000);

  it('a turn that does not use the service has no reader for it', async () => {
    const events = await turn([call(READER, { uri: NOTE_URI })], []);
    expect(offered()).not.toContain(READER);
    const [refused] = results(events);
    expect(refused).toMatchObject({ status: 'error' });
    expect(String(refused?.['output'])).toMatch(/Unknown tool "everything__read_resource"/);
    expect(events.some((event) => event.type === 'turn-tainted')).toBe(false);
  }, 120_000);

  it("checks structuredContent against the tool's output schema and puts it on the trace", async () => {
    const [result] = results(
      await turn([call('everything__get-structured-content', { location: 'Chicago' })]),
    );
    expect(result).toMatchObject({ status: 'ok', structured: { check: 'valid' } });
    const structured = result?.['structured'] as { json: string };
    expect(JSON.parse(structured.json)).toEqual({
      temperature: 36,
      conditions: 'Light rain / drizzle',
      humidity: 82,
    });
    // Stored with the message: a reload shows the same section.
    const conversation = await value<{
      messages: { parts: { kind: string; structured?: { check: string } }[] }[];
    }>('conversations.get', { id: conversationId });
    const parts = conversation.messages.flatMap((message) => message.parts);
    expect(parts.filter((part) => part.structured?.check === 'valid')).toHaveLength(1);
  }, 120_000);
});
