/**
 * Renders model Markdown safely: markdown-it tokens (`markdown-pipeline.ts`: no raw HTML, links
 * allow-listed) turned into React elements (`markdown-render.tsx`: no `dangerouslySetInnerHTML`),
 * links opened outside the app without a referrer, images never loaded until the user clicks
 * (a remote image URL can carry data out), math, diagrams and highlighting loaded lazily.
 */
import type { ReactNode } from 'react';
import { memo, useState } from 'react';
import { useT } from '../i18n/use-t';
import { splitMarkdownChunks } from './markdown-chunks';
import { parseMarkdownChunk } from './markdown-pipeline';
import { renderMarkdownTokens } from './markdown-render';

export { imageHost } from './markdown-image';

/**
 * Renders Markdown text as safe React elements. The text is parsed chunk by chunk
 * (`markdown-chunks.ts`), each chunk memoised: while an answer streams, only its last chunk changes.
 */
export function Markdown(props: { text: string }): ReactNode {
  return (
    <div className="markdown">
      {splitMarkdownChunks(props.text).map((chunk, index) => (
        <MarkdownChunk key={index} text={chunk.text} open={chunk.open} />
      ))}
    </div>
  );
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
