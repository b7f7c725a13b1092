/**
 * Renders model Markdown safely: markdown-it tokens (`markdown-pipeline.ts`: no raw HTML, links
 * allow-listed) turned into React elements (`markdown-render.tsx`: no `dangerouslySetInnerHTML`),
 * links opened outside the app without a referrer, images never loaded until the user clicks
 * (a remote image URL can carry data out), math, diagrams and highlighting loaded lazily.
 */
import type { ReactNode } from 'react';
import { memo } from 'react';
import { splitMarkdownChunks } from './markdown-chunks';
import { parseMarkdownTokens } from './markdown-pipeline';
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

/** One chunk's blocks (no wrapper element, so the DOM is that of the whole text). */
const MarkdownChunk = memo(function MarkdownChunk(props: {
  text: string;
  open: boolean;
}): ReactNode {
  return <>{renderMarkdownTokens(parseMarkdownTokens(props.text), props.open)}</>;
});
