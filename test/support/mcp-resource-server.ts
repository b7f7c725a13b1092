/**
 * A real MCP server (the SDK's McpServer, stateless Streamable HTTP on 127.0.0.1) offering
 * resources of every kind the composer attaches: a PNG image, a PDF, a text note, bytes that
 * claim to be an image, and a resource of two parts. server-everything's only binary resource is
 * plain text in a blob, so the image and the PDF come from here.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

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

export interface ResourceServer {
  url: string;
  close(): Promise<void>;
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'resource-lab', version: '1.0.0' });
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

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
}

/** Starts the server on a random loopback port; `url` is its `/mcp` endpoint. */
export async function startResourceServer(): Promise<ResourceServer> {
  const http = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    close: () =>
      new Promise<void>((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}
