/**
 * Durations as people read them: "8.4 s", "12 s", "2 min 5 s", "1 h 3 min", not "8417 ms". One
 * formatter for every duration the UI shows (tool cards, code cells, reasoning), so they agree.
 */
import type { Translate } from '../i18n/i18n';

/** Below this, one decimal is worth showing ("8.4 s"); above it, whole seconds ("12 s"). */
const DECIMAL_BELOW_MS = 10_000;

/**
 * `ms` (a non-negative number of milliseconds; anything else reads as 0) in the words of `t`.
 * Under 0.1 s reads "< 0.1 s": a measured duration is never shown as nothing.
 */
export function formatDuration(ms: number, t: Translate): string {
  const value = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (value < 100) return t('duration.underTenth');
  if (value < DECIMAL_BELOW_MS) {
    const tenths = Math.round(value / 100) / 10;
    return t('duration.seconds', { seconds: tenths.toFixed(1) });
  }
  const totalSeconds = Math.round(value / 1000);
  if (totalSeconds < 60) return t('duration.seconds', { seconds: totalSeconds });
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 60) {
    return t('duration.minutes', { minutes: totalMinutes, seconds: totalSeconds % 60 });
  }
  return t('duration.hours', { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 });
}
