/**
 * A real MCP server (the SDK's McpServer, stateless Streamable HTTP on 127.0.0.1) offering
 * resources of every kind the composer attaches: a PNG image, a PDF, a text note, bytes that
 * claim to be an image, and a resource of two parts. server-everything's only binary resource is
 * plain text in a blob, so the image and the PDF come from here. Three tools: `red-square` returns
 * the PNG as image content; `stepped` reports "Indexing" progress 1/3, 2/3, 3/3, each report
 * waiting for the test's `release()` (so a test sees each one without timing), then answers;
 * `forecast` returns structuredContent under an output schema, breaking it for "Atlantis".
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A real 1×1 red PNG. */
export const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);
/** A minimal PDF (its magic bytes are what matter here). */
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');
export const NOTE_TEXT = '# Meeting notes\n\n- ship the resource chips\n';

export const RESOURCES = {
  image: 'test://images/red%20square.png',
  pdf: 'test://files/report',
  note: 'test://notes/meeting.md',
  fakeImage: 'test://images/not-really.bat',
  pair: 'test://pair',
} as const;

export const STEPPED_TOTAL = 3;
export const STEPPED_MESSAGE = 'Indexing';
export const STEPPED_RESULT = 'Indexed every step.';

export interface ResourceServer {
  url: string;
  /** Lets the running `stepped` call go on past its latest progress report. */
  release(): void;
  close(): Promise<void>;
}

/** Reports the `stepped` tool is waiting on, released one at a time by the test. */
class Gate {
  private waiting: (() => void)[] = [];
  private credits = 0;

  wait(): Promise<void> {
    if (this.credits > 0) {
      this.credits -= 1;
      return Promise.resolve();
    }
    return new Promise((done) => this.waiting.push(done));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.credits += 1;
  }
}

function buildServer(gate: Gate): McpServer {
  const server = new McpServer({ name: 'resource-lab', version: '1.0.0' });
  server.registerTool('red-square', { description: 'Returns a red square as an image.' }, () => ({
    content: [
      { type: 'text', text: 'Here is the square.' },
      { type: 'image', data: RED_PNG.toString('base64'), mimeType: 'image/png' },
    ],
  }));
  server.registerTool(
    'stepped',
    { description: 'A slow job that reports its progress.' },
    async (extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= STEPPED_TOTAL; step += 1) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: step,
              total: STEPPED_TOTAL,
              message: STEPPED_MESSAGE,
            },
          });
        }
        await gate.wait();
      }
      return { content: [{ type: 'text', text: STEPPED_RESULT }] };
    },
  );
  // A forecast with an output schema; for "Atlantis" its structuredContent breaks that schema.
  server.registerTool(
    'forecast',
    {
      description: 'The weather in a city, as structured content.',
      inputSchema: { city: z.string() },
      outputSchema: { temperature: z.number(), conditions: z.string() },
    },
    ({ city }) => {
      const weather =
        city === 'Atlantis'
          ? { temperature: 'unknown', conditions: 'Under water' }
          : { temperature: 21, conditions: 'Sunny' };
      return {
        content: [{ type: 'text', text: JSON.stringify(weather) }],
        structuredContent: weather,
      };
    },
  );
  // The SDK's server checks its own output; a server written otherwise may not, and the client
  // must notice. Switched off here (a private method of McpServer, replaced on this instance).
  Object.defineProperty(server, 'validateToolOutput', { value: () => Promise.resolve() });
  const blob = (uri: string, mimeType: string, data: Buffer) => ({
    contents: [{ uri, mimeType, blob: data.toString('base64') }],
  });
  server.registerResource('Red square', RESOURCES.image, { mimeType: 'image/png' }, () =>
    blob(RESOURCES.image, 'image/png', RED_PNG),
  );
  server.registerResource('Report', RESOURCES.pdf, { mimeType: 'application/pdf' }, () =>
    blob(RESOURCES.pdf, 'application/pdf', TINY_PDF),
  );
  server.registerResource('Meeting notes', RESOURCES.note, { mimeType: 'text/markdown' }, () => ({
    contents: [{ uri: RESOURCES.note, mimeType: 'text/markdown', text: NOTE_TEXT }],
  }));
  server.registerResource('Not an image', RESOURCES.fakeImage, { mimeType: 'image/png' }, () =>
    blob(RESOURCES.fakeImage, 'image/png', Buffer.from('@echo off\r\n')),
  );
  server.registerResource('Pair', RESOURCES.pair, {}, () => ({
    contents: [
      { uri: 'test://pair/readme.txt', mimeType: 'text/plain', text: 'Read me first.' },
      { uri: 'test://pair/pixel.png', mimeType: 'image/png', blob: RED_PNG.toString('base64') },
    ],
  }));
  return server;
}

async function handle(
  gate: Gate,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const server = buildServer(gate);
  // Event-stream answers: progress notifications travel before the result.
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
}

/** Starts the server on a random loopback port; `url` is its `/mcp` endpoint. */
export async function startResourceServer(): Promise<ResourceServer> {
  const gate = new Gate();
  const http = createServer((request, response) => {
    handle(gate, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    release: () => gate.release(),
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}
