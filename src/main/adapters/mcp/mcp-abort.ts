/**
 * A child AbortController that follows a caller's signal only while one operation runs. The SDK
 * adds an 'abort' listener to every signal it is given and never removes it; handing it this
 * child (instead of a long-lived turn signal) keeps listeners from piling up on the caller's
 * signal and keeps a late abort from cancelling requests that already finished.
 */
export interface ScopedAbort {
  controller: AbortController;
  /** Stops following the parent; call when the operation ends. */
  dispose(): void;
}

/** The child controller; aborted at once when `parent` already is. */
export function scopedAbort(parent: AbortSignal): ScopedAbort {
  const controller = new AbortController();
  const forward = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', forward, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', forward) };
}
