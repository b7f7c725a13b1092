/**
 * The work bounds every viewer's reader keeps, besides the file's own size (`VIEWER_LIMITS`): a
 * small file can expand far past its size (a zip bomb, a 20-byte cell naming a 300-character shared
 * string a million times, a document of a million empty paragraphs), and the readers' workers share
 * the page's process, so a reader that runs out of memory takes the whole window down. Past a bound
 * a reader stops at once and the viewer says "too large to show here" with a way out (open with
 * another app, download, show in folder). Pure: unit-tested through the readers.
 */

/** What a reader counted past its bound (the viewer names it). */
export type ReaderLimit = 'unzipped' | 'entries' | 'strings' | 'cells' | 'text' | 'nodes' | 'html';

/** A reader stopped past one of its work bounds. */
export class ReaderLimitError extends Error {
  constructor(
    readonly limit: ReaderLimit,
    detail: string,
  ) {
    super(`too large to show (${detail})`);
    this.name = 'ReaderLimitError';
  }
}

/** The bound an error names, or null when it is not a ReaderLimitError. */
export function readerLimitOf(error: unknown): ReaderLimit | null {
  return error instanceof ReaderLimitError ? error.limit : null;
}

/** A running count that throws ReaderLimitError once it passes `max`. */
export class WorkBudget {
  private used = 0;

  constructor(
    private readonly limit: ReaderLimit,
    private readonly max: number,
  ) {}

  /** Adds `amount`; past the bound, throws. */
  spend(amount: number): void {
    this.used += amount;
    if (this.used > this.max) {
      throw new ReaderLimitError(this.limit, `over ${this.max.toLocaleString('en')} ${this.limit}`);
    }
  }
}
