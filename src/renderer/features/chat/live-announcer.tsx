/** The screen readers' view of the live turn: a polite live region (see `LiveAnnouncer`). */
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { messageText } from '../../../shared/message-parts';
import { markdownToText } from '../../components/markdown-text';
import { useT } from '../../i18n/use-t';
import type { ShownTurn } from '../../state/app-state';

/** The longest answer read out when a turn ends (the rest is on the page). */
const MAX_ANNOUNCED_CHARS = 2000;
/** Markdown read to make that text: enough for 2,000 characters of text, bounded to parse. */
const MAX_ANNOUNCED_SOURCE_CHARS = 8000;

/**
 * The live answer, announced politely to screen readers (a hidden `role="status"` region): "Thinking…"
 * when a turn starts, then, when it ends, its answer as plain text — the Markdown's text without its
 * markers (`markdown-text.ts`) — or why it stopped. Not every
 * streamed delta: that would read half sentences over each other. The last announcement stays
 * until the next turn, so the reload after `turn-end` does not cut it off.
 */
export function LiveAnnouncer(props: { turn: ShownTurn | null }): ReactNode {
  const t = useT();
  const [text, setText] = useState('');
  const turn = props.turn;
  const turnId = turn?.turnId ?? null;
  const ended = turn !== null && turn.end !== null;
  const answer = ended ? messageText(turn.parts).trim() : '';
  const stopReason = turn?.end?.stopReason ?? null;
  const errorMessage = turn?.end?.error?.message ?? '';
  useEffect(() => {
    if (turnId === null) return;
    if (!ended) {
      setText(t('chat.thinking'));
      return;
    }
    if (stopReason === 'canceled') setText(t('stop.canceled'));
    else if (stopReason === 'error') setText(t('stop.error', { message: errorMessage }));
    else
      setText(
        markdownToText(answer.slice(0, MAX_ANNOUNCED_SOURCE_CHARS)).slice(0, MAX_ANNOUNCED_CHARS),
      );
  }, [turnId, ended, answer, stopReason, errorMessage, t]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-announcer">
      {text}
    </div>
  );
}
