/**
 * Runs the conformance client (conformance-client.ts) inside the test's worker for each scenario
 * the suite starts: the suite's `--command` is client-shim.ts, a tiny process that posts the
 * scenario server's URL and the suite's MCP_CONFORMANCE_* variables here and prints the answer.
 * Aivory's modules are then loaded once per test file instead of once per scenario (a client
 * process was about 1.3 s of CPU, mostly loading them; the shim is a few tens of milliseconds).
 * The host listens on 127.0.0.1 under a random path: only the shim of this run finds it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runConformanceClient } from './conformance-client';

const SHIM = fileURLToPath(new URL('./client-shim.ts', import.meta.url));

export interface ClientHost {
  /** The suite's `--command` for the client. */
  command: string;
  close(): Promise<void>;
}

interface RunRequest {
  url: string;
  env: Record<string, string>;
}

function isRunRequest(value: unknown): value is RunRequest {
  if (typeof value !== 'object' || value === null) return false;
  const { url, env } = value as Record<string, unknown>;
  return typeof url === 'string' && typeof env === 'object' && env !== null;
}

export async function startClientHost(): Promise<ClientHost> {
  const path = `/${randomBytes(16).toString('hex')}`;
  const server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== path) {
      response.writeHead(404).end();
      return;
    }
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      let stdout = '';
      let stderr = '';
      const run = async (): Promise<number> => {
        const parsed: unknown = JSON.parse(body);
        if (!isRunRequest(parsed)) throw new Error('not a client run');
        return runConformanceClient({
          url: parsed.url,
          env: parsed.env,
          stdout: (text) => (stdout += text),
          stderr: (text) => (stderr += text),
        });
      };
      void run()
        .catch((error: unknown) => {
          stderr += `conformance client: ${error instanceof Error ? error.stack : String(error)}\n`;
          return 1;
        })
        .then((code) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ code, stdout, stderr }));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    command: `${process.execPath} ${SHIM} http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
