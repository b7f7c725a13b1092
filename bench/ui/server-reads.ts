/**
 * What reading a big conversation on the server costs the requests around it: while serve
 * starts a turn in it (the path read for the history), exports it, shows its settings (the
 * message count) or searches every message, a static file is requested over and over and the
 * longest wait kept — against the same action on a 20-message conversation. serve answers on one
 * thread, so a long synchronous SQLite read shows up as a long static request.
 */
import type { TestSocket } from '../../test/support/host/ws-test-client';
import { connectTestSocket } from '../../test/support/host/ws-test-client';
import { startStaticProber } from './static-prober';

/** The longest static request during each action, on the long and on the short conversation. */
export interface ServerReadRun {
  /** What serve did, e.g. "a Markdown export". */
  action: string;
  longMs: number;
  shortMs: number;
}

/** The conversations (ids) and what to search for so that every message of each one matches. */
export interface ReadTargets {
  long: { id: string; everywhere: string };
  short: { id: string; everywhere: string };
}

const RUNS = 3;

type Action = (socket: TestSocket, target: ReadTargets['long']) => Promise<void>;

const ACTIONS: Record<string, Action> = {
  'a turn start': async (socket, target) => {
    // The model server is unreachable (port 9): the turn reads the path, then ends in an error.
    const started = await socket.request('chat.send', {
      conversationId: target.id,
      text: 'one more question',
    });
    const { turnId } = (started.result as { value: { turnId: string } }).value;
    await socket.waitForEvent((frame) => {
      const payload = frame.payload as { turnId?: string; event?: { type?: string } };
      return payload.turnId === turnId && payload.event?.type === 'turn-end';
    });
  },
  'a Markdown export': async (socket, target) => {
    expectOk(await socket.request('conversations.export', { id: target.id, format: 'md' }));
  },
  'the settings view': async (socket, target) => {
    expectOk(await socket.request('conversations.settings', { id: target.id }));
  },
  'a search (every question matches; baseline: one message)': async (socket, target) => {
    expectOk(await socket.request('conversations.search', { query: target.everywhere }));
  },
};

/** Runs each action RUNS times on both conversations through serve's WebSocket API. */
export async function measureServerReads(
  serveUrl: string,
  targets: ReadTargets,
): Promise<ServerReadRun[]> {
  const url = new URL(serveUrl);
  const socket = await connectTestSocket(
    `ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`,
    { origin: `http://${url.host}` },
  );
  const staticUrl = new URL('/index.html', serveUrl).href;
  const timed = async (action: Action, target: ReadTargets['long']): Promise<number> => {
    const prober = startStaticProber(staticUrl);
    await action(socket, target);
    return (await prober.stop()).longestMs;
  };
  try {
    const runs: ServerReadRun[] = [];
    for (const [name, action] of Object.entries(ACTIONS)) {
      let [longMs, shortMs] = [0, 0];
      for (let run = 0; run < RUNS; run += 1) {
        shortMs = Math.max(shortMs, await timed(action, targets.short));
        longMs = Math.max(longMs, await timed(action, targets.long));
      }
      runs.push({ action: name, longMs, shortMs });
    }
    return runs;
  } finally {
    socket.close();
  }
}

/**
 * Deleting each conversation, once (it is gone after), with the static prober running: the
 * longest wait of a request while serve deletes 20,000 messages against while it deletes 20.
 */
export async function measureDeletes(
  serveUrl: string,
  targets: ReadTargets,
): Promise<ServerReadRun> {
  const url = new URL(serveUrl);
  const socket = await connectTestSocket(
    `ws://${url.host}/ws?token=${url.searchParams.get('token') ?? ''}`,
    { origin: `http://${url.host}` },
  );
  const staticUrl = new URL('/index.html', serveUrl).href;
  const timed = async (id: string): Promise<number> => {
    const prober = startStaticProber(staticUrl);
    expectOk(await socket.request('conversations.delete', { id }));
    return (await prober.stop()).longestMs;
  };
  try {
    const shortMs = await timed(targets.short.id);
    const longMs = await timed(targets.long.id);
    return { action: 'a deletion of the conversation (once each)', longMs, shortMs };
  } finally {
    socket.close();
  }
}

function expectOk(frame: { result: unknown }): void {
  const result = frame.result as { ok?: boolean };
  if (result.ok !== true) throw new Error(`serve answered ${JSON.stringify(frame.result)}`);
}
