/**
 * Images from MCP tool results reach a vision model (docs/architecture/mcp.md, "Tool results";
 * docs/architecture/turn-taint.md):
 * the real `aivory chat --vision` calls server-everything's get-tiny-image for a scripted model,
 * and the next request holds the PNG as an `image_url` data part (natively in a user message after
 * the tool result, naming the call; in prompt mode on the `<tool_result>` message), besides the
 * saved artifact; without `--vision` the model reads only the "[image: …]" description.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EverythingServer } from '../support/mcp-everything-server';
import { startEverythingServer } from '../support/mcp-everything-server';
import type { RecordedRequest, Script } from '../support/scripted-llm-server';
import { startScriptedLlmServer } from '../support/scripted-llm-server';
import { addEnabledMcpService } from '../support/mcp-cli-setup';
import { cliEnv, jsonLines, makeDataDir, runCli } from '../support/run-cli';

type Part = { type: string; text?: string; image_url?: { url: string } };
type WireMessage = { role: string; content: string | Part[] | null; tool_call_id?: string };

const TOOL = 'everything__get-tiny-image';

function messagesOf(request: RecordedRequest | undefined): WireMessage[] {
  return (request?.body.messages ?? []) as WireMessage[];
}

function imageUrls(messages: WireMessage[]): string[] {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part) => (part.image_url ? [part.image_url.url] : []))
      : [],
  );
}

describe('MCP tool images for a vision model', () => {
  let server: EverythingServer;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    server = await startEverythingServer('streamableHttp');
    env = cliEnv(makeDataDir());
    await addEnabledMcpService(env, {
      name: 'everything',
      url: server.url,
      description: 'Test tools.',
    });
  }, 120_000);
  afterAll(async () => {
    await server.stop();
  });

  async function chat(toolMode: 'native' | 'prompt', vision: boolean, script: Script) {
    const llm = await startScriptedLlmServer(script);
    try {
      const run = await runCli(
        [
          'chat',
          '--json',
          '--base-url',
          llm.baseUrl,
          '--model',
          'm',
          '--tool-mode',
          toolMode,
          ...(vision ? ['--vision'] : []),
          '--tools',
          'none',
          '--mcp',
          'everything',
          '--approve',
          'all',
          'Show me the image',
        ],
        env,
      );
      expect(run.code).toBe(0);
      const events = jsonLines(run.stdout);
      const result = events.find((event) => event.type === 'tool-result') as {
        status: string;
        output: string;
        artifacts: { path: string }[];
      };
      expect(result.status).toBe('ok');
      expect(result.output).toMatch(/\[image: image\/png, \d+(\.\d)? KiB\]/);
      const png = readFileSync(result.artifacts[0]?.path ?? '');
      expect(events.some((event) => event.type === 'turn-tainted')).toBe(true);
      return { requests: llm.requests, dataUrl: `data:image/png;base64,${png.toString('base64')}` };
    } finally {
      await llm.close();
    }
  }

  it('natively: a user message after the tool result carries the PNG as an image_url part', async () => {
    const { requests, dataUrl } = await chat('native', true, [
      { toolCalls: [{ id: 'call_img', name: TOOL, arguments: '{}' }] },
      { content: 'It is the MCP logo.' },
    ]);
    const messages = messagesOf(requests[1]);
    const toolIndex = messages.findIndex((message) => message.role === 'tool');
    expect(messages[toolIndex]?.tool_call_id).toBe('call_img');
    const user = messages[toolIndex + 1];
    expect(user?.role).toBe('user');
    const parts = user?.content as Part[];
    expect(parts.map((part) => part.type)).toEqual(['text', 'image_url']);
    expect(parts[0]?.text).toContain(`Images returned by ${TOOL} (call call_img)`);
    expect(parts[1]?.image_url?.url).toBe(dataUrl);
  }, 120_000);

  it('in prompt mode: the <tool_result> message carries it', async () => {
    const { requests, dataUrl } = await chat('prompt', true, [
      { content: `<tool_call>{"name":"${TOOL}","arguments":{}}</tool_call>` },
      { content: 'It is the MCP logo.' },
    ]);
    const last = messagesOf(requests[1]).at(-1);
    const parts = last?.content as Part[];
    expect(parts.map((part) => part.type)).toEqual(['text', 'image_url']);
    expect(parts[0]?.text).toMatch(new RegExp(`^<tool_result name="${TOOL}">`));
    expect(parts[1]?.image_url?.url).toBe(dataUrl);
  }, 120_000);

  it('without vision the model reads only the description', async () => {
    const { requests } = await chat('native', false, [
      { toolCalls: [{ id: 'call_img', name: TOOL, arguments: '{}' }] },
      { content: 'I cannot see it.' },
    ]);
    const messages = messagesOf(requests[1]);
    expect(imageUrls(messages)).toEqual([]);
    expect(messages.at(-1)?.role).toBe('tool');
    expect(messages.at(-1)?.content).toMatch(/\[image: image\/png, \d+(\.\d)? KiB\]/);
  }, 120_000);
});
