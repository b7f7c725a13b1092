/**
 * MCP elicitation, client side (`elicitation/create`, MCP 2025-11-25), wired to the SDK's client:
 * the capability the client declares (only when someone can answer), the handler that turns the
 * server's request into a plain `McpElicitationRequest` (`mcp-elicitation-request.ts`), hands it
 * to `onElicit` and sends back only an answer that passes the form; the questions open on a
 * connection (a call's deadline pauses meanwhile) and `notifications/elicitation/complete`.
 */
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import { completedBy, ElicitationCompleted } from '../../../shared/mcp-elicitation';
import type { McpElicitationAnswer, McpElicitationRequest } from '../../../shared/mcp-elicitation';
import { normaliseElicitation, resultFor } from './mcp-elicitation-request';

/** What the client offers: elicitation (form with defaults applied, and URL) only when asked. */
export function elicitationCapability(options: { elicitation: boolean }): ClientCapabilities {
  return options.elicitation ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {};
}

/**
 * The questions a connection's user is answering now. While one is open, a call's deadline
 * without progress is paused (the server waits for the user, not the other way round); see
 * mcp-session.ts. The total cap still holds.
 */
export class OpenQuestions {
  private open = 0;
  private readonly listeners = new Set<() => void>();

  get waiting(): boolean {
    return this.open > 0;
  }

  /** A question is asked; the returned function when it is answered. */
  ask(): () => void {
    this.open += 1;
    this.changed();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.open -= 1;
      this.changed();
    };
  }

  /** Called whenever `waiting` may have changed; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

const questions = new WeakMap<Client, OpenQuestions>();

/** The open questions of `client`'s connection (none ever, without elicitation). */
export function openQuestions(client: Client): OpenQuestions {
  let found = questions.get(client);
  if (found === undefined) {
    found = new OpenQuestions();
    questions.set(client, found);
  }
  return found;
}

type Elicit = (
  request: McpElicitationRequest,
  signal: AbortSignal,
) => Promise<McpElicitationAnswer>;

/**
 * URL elicitations of one connection waiting for `notifications/elicitation/complete`, by the
 * server's elicitation id. A notification for an id nobody waits for is ignored.
 */
export class Completions {
  private readonly waiting = new Map<string, Set<AbortController>>();

  /** Waits for `elicitationId`: its signal aborts (ElicitationCompleted) when the server says so. */
  watch(elicitationId: string): { signal: AbortSignal; stop(): void } {
    const controller = new AbortController();
    const set = this.waiting.get(elicitationId) ?? new Set<AbortController>();
    set.add(controller);
    this.waiting.set(elicitationId, set);
    return {
      signal: controller.signal,
      stop: () => {
        set.delete(controller);
        if (set.size === 0 && this.waiting.get(elicitationId) === set)
          this.waiting.delete(elicitationId);
      },
    };
  }

  /** The server completed `elicitationId`; false when nobody waits for it. */
  complete(elicitationId: string): boolean {
    const set = this.waiting.get(elicitationId);
    if (set === undefined) return false;
    this.waiting.delete(elicitationId);
    for (const controller of set) controller.abort(new ElicitationCompleted());
    return true;
  }
}

const askers = new WeakMap<Client, Elicit>();

/**
 * How `client`'s user is asked (the elicitor given to `offerElicitation`, with the open-question
 * pause and the completion notifications), or undefined when the client offers no elicitation.
 */
export function askerOf(client: Client): Elicit | undefined {
  return askers.get(client);
}

/** Answers the server's `elicitation/create` through `onElicit` (see the file comment). */
export function offerElicitation(client: Client, onElicit: Elicit): void {
  const open = openQuestions(client);
  const completions = new Completions();
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    completions.complete(notification.params.elicitationId);
  });
  const ask: Elicit = async (asked, signal) => {
    const answered = open.ask();
    const watch = asked.elicitationId === undefined ? null : completions.watch(asked.elicitationId);
    const both = watch === null ? signal : AbortSignal.any([signal, watch.signal]);
    // The server's "complete" closes the question as done, even if the asker ignores the signal.
    const completed = new Promise<McpElicitationAnswer>((resolve) => {
      const done = (): void => resolve({ action: 'accept', content: {} });
      if (watch?.signal.aborted === true) done();
      else watch?.signal.addEventListener('abort', done, { once: true });
    });
    try {
      return await Promise.race([onElicit(asked, both), completed]);
    } catch {
      return completedBy(both) ? { action: 'accept', content: {} } : { action: 'cancel' };
    } finally {
      watch?.stop();
      answered();
    }
  };
  askers.set(client, ask);
  client.setRequestHandler('elicitation/create', async (request, context) => {
    const asked = normaliseElicitation(request.params);
    return resultFor(asked, await ask(asked, context.mcpReq.signal));
  });
}
