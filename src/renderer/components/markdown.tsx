/**
 * Renders model Markdown safely: markdown-it tokens (`markdown-pipeline.ts`: no raw HTML, links
 * allow-listed) turned into React elements (`markdown-render.tsx`: no `dangerouslySetInnerHTML`),
 * links opened outside the app without a referrer, images never loaded until the user clicks
 * (a remote image URL can carry data out), math, diagrams and highlighting loaded lazily.
 */
import type { ReactNode } from 'react';
import {
  memo,
  startTransition,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useT } from '../i18n/use-t';
import { parseMarkdownChunk } from './markdown-pipeline';
import { renderMarkdownTokens } from './markdown-render';
import type { MarkdownSplit } from './markdown-split';
import { advanceMarkdownSplit } from './markdown-split';
import { markdownWindow, LONG_ANSWER_CHARS, revealStep } from './markdown-window';

export { imageHost } from './markdown-image';

/**
 * The splits of the last few long texts, by text: a live answer that becomes its stored copy, or
 * a row the virtualised list mounts again, is not split again (2 MB take tens of ms).
 */
const longSplits = new Map<string, MarkdownSplit>();
const LONG_SPLITS_KEPT = 4;

/** The split of `text`: resumed from `previous`, or on mounting a long text, as kept. */
function splitOf(previous: MarkdownSplit | null, text: string): MarkdownSplit {
  if ((previous === null || previous.source === '') && text.length > LONG_ANSWER_CHARS) {
    const kept = longSplits.get(text);
    if (kept !== undefined) return kept;
  }
  return advanceMarkdownSplit(previous, text);
}

/** Keeps the split of a long text as its component unmounts (looked up by text on mount only). */
function keepSplit(split: MarkdownSplit | null): void {
  if (split === null || split.source.length <= LONG_ANSWER_CHARS) return;
  longSplits.set(split.source, split);
  for (const key of longSplits.keys()) {
    if (longSplits.size <= LONG_SPLITS_KEPT) break;
    longSplits.delete(key);
  }
}

/**
 * Renders Markdown text as safe React elements. The text is parsed chunk by chunk
 * (`markdown-chunks.ts`), each chunk memoised: while an answer streams, only its last chunk
 * changes, and the split itself resumes where the previous text's ended (`markdown-split.ts`).
 * With `endOnly`, an answer past `LONG_ANSWER_CHARS` renders only its end, with a button above
 * that reveals the part before it step by step (`markdown-window.ts`).
 */
export function Markdown(props: { text: string; endOnly?: boolean }): ReactNode {
  // Rendered in React's interruptible background pass: a burst of deltas, or opening a long
  // answer (shown empty first), never holds the page for the whole render; a newer text
  // restarts it. A normal answer's first render is its text at once.
  const long = props.text.length > LONG_ANSWER_CHARS;
  const text = useDeferredValue(props.text, long ? '' : props.text);
  return <MarkdownText text={text} endOnly={props.endOnly ?? false} />;
}

/**
 * `Markdown` once its text is current (exported for the tests: server rendering defers). Memoised:
 * `useDeferredValue` saves the urgent render only when the child skips a render whose props did
 * not change.
 */
export const MarkdownText = memo(function MarkdownText(props: {
  text: string;
  endOnly: boolean;
}): ReactNode {
  const t = useT();
  const previous = useRef<MarkdownSplit | null>(null);
  const split = useMemo(() => splitOf(previous.current, props.text), [props.text]);
  previous.current = split;
  useEffect(() => () => keepSplit(previous.current), []);
  const [revealTo, setRevealTo] = useState<number | null>(null);
  const part = props.endOnly
    ? markdownWindow(split.chunks, revealTo)
    : { start: 0, hiddenChars: 0 };
  const shown = part.start === 0 ? split.chunks : split.chunks.slice(part.start);
  return (
    <>
      {part.hiddenChars > 0 && (
        <button
          type="button"
          className="button ghost markdown-earlier"
          data-testid="markdown-earlier"
          onClick={() => startTransition(() => setRevealTo(revealStep(part)))}
        >
          {t('markdown.earlier', { size: sizeText(part.hiddenChars) })}
        </button>
      )}
      <div className="markdown" data-partial={part.hiddenChars > 0 ? '' : undefined}>
        {shown.map((chunk, offset) => (
          <MarkdownChunk key={part.start + offset} text={chunk.text} open={chunk.open} />
        ))}
      </div>
    </>
  );
});

/** "840 KB", "1.9 MB" (characters, as the answer's size). */
function sizeText(chars: number): string {
  return chars < 1_000_000
    ? `${Math.max(1, Math.round(chars / 1000)).toLocaleString()} KB`
    : `${(chars / 1_000_000).toFixed(1)} MB`;
}

/**
 * One chunk's blocks (no wrapper element, so the DOM is that of the whole text). A very long
 * table shows its first rows and a button for the rest (`parseMarkdownChunk`).
 */
const MarkdownChunk = memo(function MarkdownChunk(props: {
  text: string;
  open: boolean;
}): ReactNode {
  const t = useT();
  const [allRows, setAllRows] = useState(false);
  const { tokens, hiddenRows } = parseMarkdownChunk(props.text, allRows);
  return (
    <>
      {renderMarkdownTokens(tokens, props.open)}
      {hiddenRows > 0 && (
        <button
          type="button"
          className="button ghost table-more"
          data-testid="table-show-all"
          onClick={() => setAllRows(true)}
        >
          {t('markdown.tableMore', { count: hiddenRows.toLocaleString() })}
        </button>
      )}
    </>
  );
});
