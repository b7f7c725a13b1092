/**
 * The fetch of model requests. Node's fetch carries undici's own timers (300 s for the answer's
 * headers, 300 s between two pieces of its body), shorter than the app's: the SDK's `timeout`
 * until the answer starts and the adapter's idle timer between chunks (10 min by default: a local
 * model on a CPU can read a long prompt for minutes). Theirs fired first and ended an answer with
 * "UND_ERR_BODY_TIMEOUT" after 304 s (issue 37, finding 10). This fetch is undici's own, on an
 * agent with those two timers off, so the app's timers are the ones that end a silent answer and
 * their message the one the user reads. undici loads at the first model request, not at start:
 * ~110 ms of the thread once per process (measured on Node 24 with the compile cache), the price
 * of the library's own Agent; Node's built-in copy offers no public way to make one. A
 * long-running process loads it ahead, when idle (`loadModelFetch`), so that no turn pays it.
 */
import type * as Undici from 'undici';
import type { Agent } from 'undici';

let undici: Promise<typeof Undici> | null = null;
let agent: Agent | null = null;

/** Loads undici now (the first model request would). */
export async function loadModelFetch(): Promise<void> {
  await (undici ??= import('undici'));
}

export const modelFetch: typeof fetch = async (input, init) => {
  const loaded = await (undici ??= import('undici'));
  agent ??= new loaded.Agent({ headersTimeout: 0, bodyTimeout: 0 });
  const response = await loaded.fetch(input as Parameters<typeof loaded.fetch>[0], {
    ...(init as Parameters<typeof loaded.fetch>[1]),
    dispatcher: agent,
  });
  return response as unknown as Response;
};
