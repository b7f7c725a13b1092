/**
 * The adapter's elicitation against the real server-everything (stdio): without `onElicit` the
 * client offers no elicitation (the server lists no elicitation tools); with it, the request
 * arrives normalised, an invalid accepted answer is sent as a decline, a valid one with the
 * defaults applied, and a URL request carries its URL; the call's deadline without progress
 * waits while the user answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpConnector } from '../../src/main/adapters/mcp/mcp-connector';
import type {
  McpCallOptions,
  McpConnectOptions,
  McpElicitationAnswer,
  McpElicitationRequest,
  McpSession,
} from '../../src/main/core/ports';
import { EVERYTHING_SCRIPT } from '../support/mcp-everything-server';

const never = new AbortController().signal;
const CALL: McpCallOptions = {
  signal: never,
  timeoutMs: 20_000,
  maxTotalTimeoutMs: 60_000,
  maxOutputChars: 20_000,
};

describe('MCP adapter: elicitation with server-everything', () => {
  let session: McpSession | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  async function open(onElicit?: McpConnectOptions['onElicit']): Promise<McpSession> {
    session = await createMcpConnector().connect(
      {
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SCRIPT, 'stdio'],
        env: {},
      },
      { signal: never, timeoutMs: 20_000, ...(onElicit ? { onElicit } : {}) },
    );
    return session;
  }

  it('offers no elicitation without onElicit', async () => {
    const names = (await (await open()).listTools(never)).map((tool) => tool.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('trigger-elicitation-request');
    expect(names).not.toContain('trigger-url-elicitation');
  }, 120_000);

  it('hands over the normalised form; sends only an answer that fits, defaults applied', async () => {
    const asked: McpElicitationRequest[] = [];
    const answers: McpElicitationAnswer[] = [
      // Out of range: never sent as it is.
      { action: 'accept', content: { name: 'Ada', integer: 1000 } },
      { action: 'accept', content: { name: 'Ada', check: true } },
    ];
    const live = await open((request) => {
      asked.push(request);
      return Promise.resolve(answers.shift() ?? { action: 'cancel' });
    });
    const declined = await live.callTool('trigger-elicitation-request', {}, CALL);
    expect(declined.text).toContain('"action": "decline"');
    expect(asked[0]?.message).toBe('Please provide inputs for the following fields:');
    expect(asked[0]?.fields.find((field) => field.name === 'integer')).toEqual({
      name: 'integer',
      title: 'Integer',
      description:
        'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
      required: false,
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 42,
    });
    expect(asked[0]?.fields.find((field) => field.name === 'titledSingleSelectEnum')).toMatchObject(
      { type: 'enum', options: [{ value: 'hero-1', label: 'Superman' }, {}, {}] },
    );

    const accepted = await live.callTool('trigger-elicitation-request', {}, CALL);
    const raw = JSON.parse(accepted.text.split('Raw result: ')[1] ?? '{}') as {
      content: Record<string, unknown>;
    };
    expect(raw.content).toMatchObject({
      name: 'Ada',
      check: true,
      integer: 42,
      firstLine: 'It was a dark and stormy night.',
      untitledMultipleSelectEnum: ['Guitar'],
    });

    const url = 'https://example.com/connect?step=1';
    await live.callTool('trigger-url-elicitation', { url, message: 'Link your account' }, CALL);
    expect(asked[2]).toEqual({
      mode: 'url',
      message: 'Link your account',
      fields: [],
      url,
      // The server's id, kept for its notifications/elicitation/complete.
      elicitationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  }, 120_000);

  it("pauses the call's deadline without progress while the user answers", async () => {
    // The user takes three times the call's deadline: the answer is the stimulus, not a wait.
    const live = await open(
      () =>
        new Promise((resolve) => {
          setTimeout(() => resolve({ action: 'accept', content: { name: 'Slow' } }), 900);
        }),
    );
    const result = await live.callTool(
      'trigger-elicitation-request',
      {},
      { ...CALL, timeoutMs: 300 },
    );
    expect(result.text).toContain('"name": "Slow"');
  }, 120_000);
});
