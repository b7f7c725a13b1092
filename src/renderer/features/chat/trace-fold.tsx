/**
 * Whether a tool card shows its body or only its one-line head. A finished call folds to its
 * head (name, status, duration); a running call and a failed one stay open. What the user chose
 * (a click on the head) wins while the conversation stays open: the choice is kept here by call
 * id, outside the card, because the message list is virtualised (a card scrolled away unmounts)
 * and a live answer turns into its stored copy when the turn ends.
 */
import type { ReactNode } from 'react';
import { useCallback, useSyncExternalStore } from 'react';
import { NextIcon } from '../../components/icons';
import type { TraceStatus } from '../../state/trace-items';
import type { ToolTraceCardProps } from './tool-trace-parts';
import { TraceHead } from './tool-trace-parts';

/** The user's open/closed choice per tool call id, for the open conversation. */
const chosen = new Map<string, boolean>();
const listeners = new Set<() => void>();
let openConversation: string | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}

/**
 * Forgets the choices when another conversation opens. A new chat getting its id on the first
 * message is the same conversation: its choices stay.
 */
export function traceFoldsFollow(conversationId: string | null): void {
  const previous = openConversation;
  openConversation = conversationId;
  if (previous === null || previous === conversationId || chosen.size === 0) return;
  chosen.clear();
  notify();
}

/** Open unless the call has finished well: running shows progress, a failure shows why. */
export function openByDefault(status: TraceStatus): boolean {
  return status === 'running' || status === 'error';
}

/** `[open, toggle]` for the card of call `id` in `status`. */
export function useTraceFold(id: string, status: TraceStatus): [boolean, () => void] {
  const choice = useSyncExternalStore(
    subscribe,
    () => chosen.get(id),
    () => chosen.get(id),
  );
  const open = choice ?? openByDefault(status);
  const toggle = useCallback(() => {
    chosen.set(id, !open);
    notify();
  }, [id, open]);
  return [open, toggle];
}

/**
 * The card's head as one button (`data-testid="tool-trace-toggle"`, `aria-expanded`): a chevron,
 * then the status dot, name, status and duration. It opens and closes the body `bodyId`.
 */
export function TraceToggle(
  props: ToolTraceCardProps & { open: boolean; onToggle(): void; bodyId: string },
): ReactNode {
  const { open, onToggle, bodyId, ...card } = props;
  return (
    <button
      type="button"
      className="tool-trace-head tool-trace-toggle"
      data-testid="tool-trace-toggle"
      aria-expanded={open}
      aria-controls={bodyId}
      onClick={onToggle}
    >
      <NextIcon size={14} className="tool-trace-chevron" />
      <TraceHead {...card} />
    </button>
  );
}
