/** The rows of the chat's message list, and how a live answer renders in one. */
import type { ReactNode } from 'react';
import type { Message } from '../../../shared/dto';
import type { ShownTurn } from '../../state/app-state';
import { AssistantMessage } from './message-view';

/** A row of the chat's list. */
export type ChatRow =
  | { kind: 'stored'; key: string; message: Message }
  | { kind: 'live-user' | 'live-answer'; key: string; turnId: string }
  /** Several models' answers to one question, side by side (their turn ids, in model order). */
  | { kind: 'live-group'; key: string; groupId: string; turnIds: string[] }
  | { kind: 'sending-user' | 'sending-answer'; key: string };

/**
 * The rows: the stored messages (but those a live turn shows), each live turn's question and
 * answer, then the question being sent with its empty answer. A live answer is keyed by its
 * message id, so it keeps its row (and component) when the reload after `turn-end` brings its
 * stored copy: remounting a long answer would re-render all of it at once.
 */
export function chatRows(
  messages: readonly Message[],
  liveIds: ReadonlySet<string | null>,
  live: readonly ShownTurn[],
  sending: boolean,
): ChatRow[] {
  const rows: ChatRow[] = [];
  for (const message of messages)
    if (!liveIds.has(message.id)) rows.push({ kind: 'stored', key: message.id, message });
  const groups = new Map<string, ShownTurn[]>();
  for (const turn of live) {
    if (turn.userText !== null)
      rows.push({ kind: 'live-user', key: `live-user-${turn.turnId}`, turnId: turn.turnId });
    if (turn.group !== undefined) {
      // One row for the group, where its first answer comes.
      const members = groups.get(turn.group.id);
      if (members) {
        members.push(turn);
        continue;
      }
      const started = [turn];
      groups.set(turn.group.id, started);
      rows.push({
        kind: 'live-group',
        key: `group-${turn.group.id}`,
        groupId: turn.group.id,
        turnIds: [],
      });
      continue;
    }
    rows.push({
      kind: 'live-answer',
      key: turn.messageId ?? `live-${turn.turnId}`,
      turnId: turn.turnId,
    });
  }
  for (const row of rows) {
    if (row.kind !== 'live-group') continue;
    row.turnIds = (groups.get(row.groupId) ?? [])
      .sort((a, b) => (a.group?.index ?? 0) - (b.group?.index ?? 0))
      .map((turn) => turn.turnId);
  }
  if (sending) {
    rows.push({ kind: 'sending-user', key: 'sending-user' });
    rows.push({ kind: 'sending-answer', key: 'sending-answer' });
  }
  return rows;
}

/**
 * A live turn's answer as it streams: an `AssistantMessage` element (not a component of its own),
 * so the stored copy that replaces it after the turn keeps its component.
 */
export function liveAnswer(turn: ShownTurn): ReactNode {
  const end = turn.end;
  const status =
    end === null
      ? 'streaming'
      : end.stopReason === 'canceled'
        ? 'canceled'
        : end.stopReason === 'error'
          ? 'error'
          : 'complete';
  return (
    <AssistantMessage
      turnId={turn.turnId}
      parts={turn.parts}
      status={status}
      budget={turn.budget}
      taint={turn.taint}
      taintedCallId={turn.taintedCallId}
      progress={turn.progress}
      model={turn.model}
      protocolRetry={turn.protocolRetry}
      modelWait={turn.modelWait ?? null}
      usage={end?.usage ?? null}
      omittedMessages={turn.omittedMessages ?? 0}
      stopReason={end?.stopReason ?? null}
      error={end?.error ?? null}
    />
  );
}
