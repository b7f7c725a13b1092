/**
 * The window's open elicitation requests and where they can show: a turn's running answer claims
 * its turn (a slot, while the `TurnElicitation` in it is mounted) and shows that turn's oldest
 * request inline at the running call; a request whose turn is not on screen (another
 * conversation, no turn) falls back to the modal card. A tiny external store read with
 * `useSyncExternalStore` (the app's zustand store is not needed for one feature's queue).
 */
import type { ElicitationRequestView } from './elicitation-form';
import { enqueueElicitation, settleElicitation } from './elicitation-form';

export interface InboxState {
  /** Open requests, oldest first. */
  queue: readonly ElicitationRequestView[];
  /** Turns whose answer is on screen, with how many slots each has mounted. */
  slots: Readonly<Record<string, number>>;
}

export class ElicitationInbox {
  private state: InboxState = { queue: [], slots: {} };
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): InboxState => this.state;

  add(request: ElicitationRequestView): void {
    this.set({ ...this.state, queue: enqueueElicitation(this.state.queue, request) });
  }

  remove(elicitationId: string): void {
    if (!this.state.queue.some((item) => item.elicitationId === elicitationId)) return;
    this.set({ ...this.state, queue: settleElicitation(this.state.queue, elicitationId) });
  }

  /** A turn's answer is on screen; the returned function when it leaves. */
  claim(turnId: string): () => void {
    this.setSlots(turnId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.setSlots(turnId, -1);
    };
  }

  private setSlots(turnId: string, delta: number): void {
    const count = (this.state.slots[turnId] ?? 0) + delta;
    const slots = { ...this.state.slots };
    if (count > 0) slots[turnId] = count;
    else delete slots[turnId];
    this.set({ ...this.state, slots });
  }

  private set(state: InboxState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
}

/** The oldest request of `turnId`, shown inline in that turn. */
export function inlineRequest(
  state: InboxState,
  turnId: string,
): ElicitationRequestView | undefined {
  return state.queue.find((item) => item.turnId === turnId);
}

/** The oldest request no turn on screen shows: the modal card's. */
export function modalRequest(state: InboxState): ElicitationRequestView | undefined {
  return state.queue.find((item) => item.turnId === null || !(item.turnId in state.slots));
}

/** This window's inbox. */
export const elicitationInbox = new ElicitationInbox();
