/**
 * Collects what a page reports as broken: console errors (a Content-Security-Policy violation —
 * "Refused to apply inline style…" — is one) and uncaught exceptions. A test reads and empties the
 * list with `take()` and expects it empty.
 */
import type { Page } from 'playwright-core';

export interface ConsoleErrors {
  /** The errors since the last call, emptied. */
  take(): string[];
}

/** Starts collecting on `page` (before its first navigation, to see the first load too). */
export function watchConsoleErrors(page: Page): ConsoleErrors {
  let errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return {
    take: () => {
      const taken = errors;
      errors = [];
      return taken;
    },
  };
}
