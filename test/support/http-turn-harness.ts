/**
 * Runs the real orchestrator through the real OpenAI adapter against the scripted HTTP server
 * (sockets: integration tests only), so tests can assert on what really went over the wire.
 * The in-memory twin, for unit tests, is `runScriptedTurn` in `turn-harness.ts`.
 */
import { OpenAiLlmClient } from '../../src/main/adapters/openai/openai-llm-client';
import type { RecordedRequest, Script, ScriptedLlmServer } from './scripted-llm-server';
import { startScriptedLlmServer } from './scripted-llm-server';
import type { TurnOptions, TurnRun } from './turn-harness';
import { driveTurn } from './turn-harness';

/** A turn through the OpenAI adapter and HTTP: `requests` are what went over the wire. */
export interface HttpTurnRun extends TurnRun<RecordedRequest> {
  server: ScriptedLlmServer;
}

/**
 * `abortedRequests`: how many requests the turn is expected to abandon (a cancel mid-stream); the
 * server is kept open until it has seen that many disconnects, which arrive after the turn ends.
 */
export async function runScriptedTurnOverHttp(
  script: Script,
  options: TurnOptions,
  { abortedRequests = 0 }: { abortedRequests?: number } = {},
): Promise<HttpTurnRun> {
  const server = await startScriptedLlmServer(script);
  try {
    const llm = new OpenAiLlmClient({ baseUrl: server.baseUrl, apiKey: null, maxRetries: 0 });
    const run = await driveTurn(llm, options);
    if (abortedRequests > 0) await server.whenAborted(abortedRequests);
    return {
      ...run,
      requests: server.requests.filter((request) => request.path.endsWith('/chat/completions')),
      server,
    };
  } finally {
    await server.close();
  }
}

/** The messages array of a request recorded on the wire. */
export function wireMessages(
  request: RecordedRequest | undefined,
): { role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown }[] {
  const messages = request?.body.messages;
  if (!Array.isArray(messages)) throw new Error('request has no messages');
  return messages as { role: string; content?: unknown }[];
}
