/**
 * Live progress of a turn's running tool (an MCP server's `notifications/progress`) as
 * `tool-progress` events, merged into the turn's event stream while the orchestrator waits for
 * the call. The orchestrator runs a round's calls one after another, so the running call is the
 * last `tool-call-end` not yet answered by its `tool-result`; each tool's context gets
 * `onProgress` through a thin wrapper, so the orchestrator itself knows nothing of progress.
 * Reports are cleaned (finite numbers, one bounded line of message without control characters)
 * and rate-limited per call, so a server's flood cannot swamp the UI; a report that comes too soon
 * is held (the newest replaces it) and sent when the interval ends, so the card never stays on a
 * stale step while the server works on the next. Never stored.
 */
import type { ToolProgressEvent, TurnEvent } from '../../shared/turn-events';
import type { Clock, Tool, ToolContext, ToolProgress } from '../core/ports';
import { flatLine } from '../../shared/untrusted-text';

/** Least time between two events of one call (ms); a report that completes always passes. */
export const PROGRESS_MIN_INTERVAL_MS = 250;
/** Longest progress message (characters). */
export const PROGRESS_MAX_MESSAGE_CHARS = 200;
/** Most events one call sends; later reports are dropped. */
const MAX_EVENTS_PER_CALL = 1000;
/** Most events waiting to be read (only while the consumer is slow). */
const MAX_QUEUED = 64;

/** A server's progress message as one line: control and format characters removed, bounded. */
export function cleanProgressMessage(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = flatLine(text);
  if (line === '') return undefined;
  const chars = [...line];
  return chars.length > PROGRESS_MAX_MESSAGE_CHARS
    ? `${chars.slice(0, PROGRESS_MAX_MESSAGE_CHARS - 1).join('')}…`
    : line;
}

/** Runs `run` after `ms`; returns a cancel. */
export type ProgressTimer = (run: () => void, ms: number) => () => void;

const realTimer: ProgressTimer = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** A turn's progress channel: wrap the tools, then read the events through `merge`. */
export class TurnProgress {
  private readonly queue: ToolProgressEvent[] = [];
  private wake: (() => void) | null = null;
  private running: string | null = null;
  private sent = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  /** The newest report that came too soon, and the cancel of the timer that will send it. */
  private held: ToolProgress | null = null;
  private cancelHeld: (() => void) | null = null;

  constructor(
    private readonly turnId: string,
    private readonly clock: Clock,
    private readonly timer: ProgressTimer = realTimer,
  ) {}

  /** `tool` whose calls get this turn's `onProgress`; everything else is the tool's own. */
  wrap(tool: Tool): Tool {
    const execute = (args: unknown, context: ToolContext) =>
      tool.execute(args, { ...context, onProgress: (progress) => this.report(progress) });
    // defineProperty: a frozen tool's `execute` cannot be shadowed by assignment.
    return Object.defineProperty(Object.create(tool) as Tool, 'execute', { value: execute });
  }

  /** A report from the running call (dropped when none runs, or too soon after the last one). */
  report(progress: ToolProgress): void {
    const toolCallId = this.running;
    if (toolCallId === null) return;
    if (typeof progress.progress !== 'number' || !Number.isFinite(progress.progress)) return;
    const total =
      typeof progress.total === 'number' && Number.isFinite(progress.total) && progress.total > 0
        ? progress.total
        : undefined;
    const now = this.clock.now();
    const complete = total !== undefined && progress.progress >= total;
    if (this.sent >= MAX_EVENTS_PER_CALL) return;
    if (!complete && now - this.lastAt < PROGRESS_MIN_INTERVAL_MS) {
      this.held = progress;
      this.cancelHeld ??= this.timer(
        () => this.sendHeld(toolCallId),
        PROGRESS_MIN_INTERVAL_MS - (now - this.lastAt),
      );
      return;
    }
    this.dropHeld();
    this.lastAt = now;
    this.sent += 1;
    const message = cleanProgressMessage(progress.message);
    const event: ToolProgressEvent = {
      type: 'tool-progress',
      turnId: this.turnId,
      toolCallId,
      progress: progress.progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    };
    // A slow reader keeps the newest reports of the call.
    if (this.queue.length >= MAX_QUEUED) this.queue.shift();
    this.queue.push(event);
    this.wake?.();
  }

  private sendHeld(toolCallId: string): void {
    const held = this.held;
    this.cancelHeld = null;
    this.held = null;
    if (held !== null && this.running === toolCallId) this.report(held);
  }

  private dropHeld(): void {
    this.cancelHeld?.();
    this.cancelHeld = null;
    this.held = null;
  }

  /** `events` with the progress events in between, in order; closing it closes `events`. */
  async *merge(events: AsyncGenerator<TurnEvent, void>): AsyncGenerator<TurnEvent, void> {
    let done = false;
    try {
      let pending = events.next();
      for (;;) {
        const woken = new Promise<'progress'>((resolve) => {
          this.wake = () => resolve('progress');
        });
        if (this.queue.length > 0) this.wake?.();
        const result = await Promise.race([pending, woken]);
        this.wake = null;
        if (result === 'progress') {
          yield* this.drain();
          continue;
        }
        if (result.done === true) {
          done = true;
          return;
        }
        // Reports made before this event come first; none outlive their call.
        yield* this.drain();
        this.observe(result.value);
        yield result.value;
        pending = events.next();
      }
    } finally {
      this.wake = null;
      if (!done) await events.return(undefined);
    }
  }

  private *drain(): Generator<ToolProgressEvent> {
    while (this.queue.length > 0) {
      const event = this.queue.shift();
      if (event !== undefined && event.toolCallId === this.running) yield event;
    }
  }

  private observe(event: TurnEvent): void {
    if (event.type === 'tool-call-end') {
      this.dropHeld();
      this.running = event.toolCallId;
      this.sent = 0;
      this.lastAt = Number.NEGATIVE_INFINITY;
    } else if (event.type === 'tool-result' || event.type === 'turn-end') {
      this.dropHeld();
      this.running = null;
      this.queue.length = 0;
    }
  }
}
