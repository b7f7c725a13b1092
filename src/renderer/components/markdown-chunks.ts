/**
 * Splits Markdown source into independent chunks at blank lines outside fenced code. For this
 * project's parser a blank line always ends a block (only a fence spans one), so parsing the chunks
 * one by one gives exactly the blocks of the whole text. A streaming answer then only re-parses
 * and re-renders its last chunk per frame instead of the whole (possibly 80 KB) text.
 */

/** Same fence rule as markdown-parse.ts. */
const FENCE = /^(\s{0,3})(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;

/** The chunks of `source`, in order; empty chunks are dropped. */
export function splitMarkdownChunks(source: string): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const close = (): void => {
    if (current.length > 0) chunks.push(current.join('\n'));
    current = [];
  };
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence === null && line.trim() === '') {
      close();
      continue;
    }
    current.push(line);
    if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null;
    } else {
      const opened = FENCE.exec(line);
      if (opened) fence = opened[2] ?? '```';
    }
  }
  close();
  return chunks;
}
