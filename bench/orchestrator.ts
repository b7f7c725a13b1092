/**
 * Orchestrator overhead: one prompt-mode turn with ten tool calls, run by the real `runTurn`
 * through the real OpenAI adapter, against the same eleven streamed requests made directly with
 * the raw `openai` SDK. Both talk to a scripted OpenAI-compatible server on loopback that sends
 * the same texts in the same chunks, and both send the same message arrays, so the ratio of the
 * medians is what the orchestrator adds on top of the wire work it cannot avoid.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { TurnEndEvent } from '../src/shared/turn-events';
import { OpenAiLlmClient } from '../src/main/adapters/openai/openai-llm-client';
import { resolveTurnLimits } from '../src/main/core/orchestrator/budgets';
import { buildPromptPreamble } from '../src/main/core/orchestrator/prompt-protocol';
import {
  formatToolResult,
  PROMPT_STOP_SEQUENCE,
  TOOL_CALL_OPEN,
} from '../src/main/core/orchestrator/protocol-text';
import { runTurn } from '../src/main/core/orchestrator/run-turn';
import type { TurnDependencies, TurnInput } from '../src/main/core/orchestrator/run-turn';
import type { Logger, Tool } from '../src/main/core/ports';
import type {
  RecordedRequest,
  ScriptedLlmServer,
  ScriptedResponse,
} from '../test/support/scripted-llm-server';
import { startScriptedLlmServer } from '../test/support/scripted-llm-server';
import type { BenchResult } from './bench-result';
import { median, timeAsync } from './statistics';

/** Measured turns per side: enough for a stable median on a noisy machine, under ~10 s in all. */
export const DEFAULT_ITERATIONS = 30;

/** Unmeasured turns per side first, so JIT tiers, sockets and the SDK's lazy setup are warm. */
const WARMUP_ITERATIONS = 5;

/** The overhead the orchestrator may add over the raw SDK doing the same requests. */
export const ORCHESTRATOR_RATIO_GOAL = 1.1;

/** Tool calls in the measured turn, one per provider request as prompt mode does. */
const TOOL_CALLS_PER_TURN = 10;

/** Characters per SSE content delta on both servers (the scripted server's default). */
const CHUNK_SIZE = 7;

const MODEL = 'scripted-model';
const TOOL_NAME = 'lookup';
const SYSTEM_PROMPT = 'You are a benchmark assistant.';
const USER_MESSAGE = 'Look up the ten values and summarise them.';
const FINAL_ANSWER =
  'All ten lookups are done. The values 0 through 9 each resolved to a short record, and ' +
  'none of them disagree with the others, so the summary is: every value is present and valid.';

const lookupTool: Tool = {
  name: TOOL_NAME,
  description: 'Looks up a value and returns a short record about it.',
  inputSchema: {
    type: 'object',
    properties: { value: { type: 'string' } },
    required: ['value'],
  },
  timeoutMs: 5_000,
  execute: (args) => Promise.resolve({ content: lookupOutput(valueOf(args)) }),
};

const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * Runs the orchestrator turn (A) and the raw-SDK loop (B), warmed up, then alternated
 * `iterations` times (AB, BA, AB, … so neither side always runs second), and reports
 * median(A) / median(B). Starts and always closes its two servers.
 */
export async function runOrchestratorBench(
  options: { iterations?: number } = {},
): Promise<BenchResult> {
  const iterations = Math.max(1, options.iterations ?? DEFAULT_ITERATIONS);
  const ourServer = await startScriptedLlmServer(scriptedReply);
  const rawServer = await startScriptedLlmServer(scriptedReply);
  try {
    const runOurs = ourTurnRunner(ourServer.baseUrl);
    const runRaw = rawSdkRunner(rawServer.baseUrl);

    for (let warmup = 0; warmup < WARMUP_ITERATIONS; warmup += 1) {
      await runOurs();
      await runRaw();
    }
    const notes = comparabilityNotes(ourServer, rawServer);

    const ourTimes: number[] = [];
    const rawTimes: number[] = [];
    for (let iteration = 0; iteration < iterations; iteration += 1) {
      if (iteration % 2 === 0) {
        ourTimes.push(await timeAsync(runOurs));
        rawTimes.push(await timeAsync(runRaw));
      } else {
        rawTimes.push(await timeAsync(runRaw));
        ourTimes.push(await timeAsync(runOurs));
      }
    }

    const ours = median(ourTimes);
    const raw = median(rawTimes);
    const ratio = ours / raw;
    return {
      metrics: [
        {
          name: 'orchestrator',
          measured: {
            label: `prompt-mode turn (${TOOL_CALLS_PER_TURN} calls)`,
            value: ours,
            unit: 'ms',
          },
          baseline: {
            label: `raw SDK ${TOOL_CALLS_PER_TURN + 1} requests`,
            value: raw,
            unit: 'ms',
          },
          ratio,
          goal: {
            description: `ratio ≤ ${ORCHESTRATOR_RATIO_GOAL.toFixed(2)}`,
            met: ratio <= ORCHESTRATOR_RATIO_GOAL,
            missLabel: 'ABOVE GOAL',
          },
        },
      ],
      notes,
    };
  } finally {
    await Promise.all([ourServer.close(), rawServer.close()]);
  }
}

/**
 * The server's script, stateless so it serves any number of turns: the number of assistant
 * messages already in the request is the number of calls made, which picks the next reply.
 */
function scriptedReply(request: RecordedRequest): ScriptedResponse {
  const messages = request.body.messages;
  const callsMade = Array.isArray(messages)
    ? messages.filter((message: unknown) => roleOf(message) === 'assistant').length
    : 0;
  if (callsMade >= TOOL_CALLS_PER_TURN) return { content: FINAL_ANSWER, chunkSize: CHUNK_SIZE };
  const call = { name: TOOL_NAME, arguments: { value: String(callsMade) } };
  return {
    content: `${TOOL_CALL_OPEN}${JSON.stringify(call)}${PROMPT_STOP_SEQUENCE}`,
    chunkSize: CHUNK_SIZE,
  };
}

/** Scenario A: one full turn through `runTurn` and `OpenAiLlmClient`; throws if it went wrong. */
function ourTurnRunner(baseUrl: string): () => Promise<void> {
  let idCounter = 0;
  let turnCounter = 0;
  const dependencies: TurnDependencies = {
    llm: new OpenAiLlmClient({ baseUrl, apiKey: null, maxRetries: 0 }),
    clock: { now: () => Date.now() },
    ids: { next: (prefix) => `${prefix}_${++idCounter}` },
    logger: silentLogger,
  };
  const limits = resolveTurnLimits('normal');
  return async () => {
    turnCounter += 1;
    const input: TurnInput = {
      turnId: `turn_${turnCounter}`,
      conversationId: 'bench',
      model: MODEL,
      toolMode: 'prompt',
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: USER_MESSAGE },
      ],
      tools: [lookupTool],
      limits,
    };
    let end: TurnEndEvent | undefined;
    for await (const event of runTurn(dependencies, input, new AbortController().signal)) {
      if (event.type === 'turn-end') end = event;
    }
    assertFullTurn(end);
  };
}

/**
 * Baseline B: what a minimal hand-written loop does for the same turn. It streams each reply,
 * concatenates the content deltas, parses the call JSON, and grows the messages array with the
 * same assistant and `<tool_result>` messages the orchestrator sends.
 */
function rawSdkRunner(baseUrl: string): () => Promise<void> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'x', maxRetries: 0 });
  const specs = [
    {
      name: lookupTool.name,
      description: lookupTool.description,
      inputSchema: lookupTool.inputSchema,
    },
  ];
  const systemContent = `${SYSTEM_PROMPT}\n\n${buildPromptPreamble(specs)}`;
  return async () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemContent },
      { role: 'user', content: USER_MESSAGE },
    ];
    for (let round = 0; round <= TOOL_CALLS_PER_TURN; round += 1) {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages,
        stream: true,
        stop: [PROMPT_STOP_SEQUENCE],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      const callStart = text.indexOf(TOOL_CALL_OPEN);
      if (callStart === -1) {
        if (text !== FINAL_ANSWER) throw new Error('raw SDK loop: unexpected final answer');
        return;
      }
      const call: unknown = JSON.parse(text.slice(callStart + TOOL_CALL_OPEN.length));
      const argumentsValue = isRecord(call) ? call.arguments : undefined;
      messages.push(
        { role: 'assistant', content: `${text}${PROMPT_STOP_SEQUENCE}` },
        {
          role: 'user',
          content: formatToolResult(TOOL_NAME, lookupOutput(valueOf(argumentsValue))),
        },
      );
    }
    throw new Error('raw SDK loop: the server never sent a final answer');
  };
}

/** Throws unless the turn completed with every call executed and one final request. */
function assertFullTurn(end: TurnEndEvent | undefined): void {
  if (
    end?.stopReason !== 'completed' ||
    end.toolCalls[TOOL_NAME] !== TOOL_CALLS_PER_TURN ||
    end.providerRounds !== TOOL_CALLS_PER_TURN + 1 ||
    end.answer !== FINAL_ANSWER
  ) {
    throw new Error(`orchestrator bench: the turn did not run as scripted: ${JSON.stringify(end)}`);
  }
}

/**
 * Checks, after warm-up, that both sides sent the same number of requests and identical message
 * arrays; returns a note for each difference, so a protocol change that makes B unfair shows up
 * in the report instead of silently skewing the ratio.
 */
function comparabilityNotes(ourServer: ScriptedLlmServer, rawServer: ScriptedLlmServer): string[] {
  const ourRequests = completionRequests(ourServer);
  const rawRequests = completionRequests(rawServer);
  const notes: string[] = [];
  if (ourRequests.length !== rawRequests.length) {
    notes.push(
      `orchestrator: warm-up sent ${ourRequests.length} requests vs ${rawRequests.length} from the raw SDK`,
    );
  }
  const differing = ourRequests.filter(
    (request, index) =>
      JSON.stringify(request.body.messages) !== JSON.stringify(rawRequests[index]?.body.messages),
  ).length;
  if (differing > 0) {
    notes.push(
      `orchestrator: ${differing} of ${ourRequests.length} warm-up requests sent different messages than the baseline`,
    );
  }
  return notes;
}

function completionRequests(server: ScriptedLlmServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path.endsWith('/chat/completions'));
}

function lookupOutput(value: string): string {
  return `record ${value}: present, valid`;
}

function valueOf(args: unknown): string {
  const value = isRecord(args) ? args.value : undefined;
  return typeof value === 'string' ? value : '?';
}

function roleOf(message: unknown): unknown {
  return isRecord(message) ? message.role : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
