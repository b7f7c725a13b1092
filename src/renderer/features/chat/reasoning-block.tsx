/**
 * The model's reasoning: while it streams, open, under "Thinking… 12 s" with a pulsing dot;
 * once the answer moves on, folded under "Thought for 12 s" (a click opens it). The time is
 * measured here, from when the reasoning first showed to when something followed it; an answer
 * opened later shows the duration the host saved with the part (`savedMs`), and one saved before
 * durations were kept reads "Reasoning".
 */
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/use-t';
import { formatDuration } from '../../state/duration-text';

/**
 * The most of a live reasoning shown while it streams (its end, after "…"): an open block of
 * megabytes of text would be laid out again on every streamed frame. Folded, it holds all of it
 * (a closed `<details>` is not laid out); opened, it shows all of it.
 */
export const LIVE_REASONING_CHARS = 16_384;

/** One reasoning part (`data-testid="reasoning"`). */
export function ReasoningBlock(props: {
  text: string;
  live: boolean;
  savedMs: number | null;
}): ReactNode {
  const t = useT();
  const startedAt = useRef<number | null>(props.live ? Date.now() : null);
  const [measuredMs, setTookMs] = useState<number | null>(null);
  const tookMs = measuredMs ?? props.savedMs;
  useEffect(() => {
    if (props.live || startedAt.current === null || measuredMs !== null) return;
    setTookMs(Date.now() - startedAt.current);
  }, [props.live, measuredMs]);
  return (
    <details
      className="reasoning"
      open={props.live || undefined}
      data-testid="reasoning"
      data-live={props.live ? 'true' : undefined}
      data-duration-ms={!props.live && tookMs !== null ? tookMs : undefined}
    >
      <summary data-testid="reasoning-summary">
        {props.live ? (
          <ReasoningTimer />
        ) : tookMs === null ? (
          t('reasoning.doneUnknown')
        ) : (
          t('reasoning.done', { duration: formatDuration(tookMs, t) })
        )}
      </summary>
      <div className="reasoning-text">
        {props.live && props.text.length > LIVE_REASONING_CHARS
          ? `…${props.text.slice(-LIVE_REASONING_CHARS)}`
          : props.text}
      </div>
    </details>
  );
}

/** "Thinking… 12 s" with a live dot, counting from when it first showed. */
function ReasoningTimer(): ReactNode {
  const t = useT();
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <span className="reasoning-live" data-testid="reasoning-timer">
      <span className="live-dot" aria-hidden="true" />
      {t('reasoning.live', { seconds: Math.floor((now - startedAt) / 1000) })}
    </span>
  );
}
