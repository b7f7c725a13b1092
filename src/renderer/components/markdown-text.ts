/**
 * Markdown as plain text, for what is read rather than seen (the screen-reader live region): the
 * same markdown-it parse the answer is rendered from (`markdown-pipeline.ts`), its text kept and
 * its markers dropped — no `#`, `**`, backticks or table pipes. Headings, paragraphs, list items
 * and table rows become lines; table cells are separated by commas; an image reads as its alt
 * text; links as their text; code and math as their source.
 */
import type { Token } from './markdown-pipeline';
import { parseMarkdownTokens } from './markdown-pipeline';

/** Block tokens whose end ends a line of the text. */
const LINE_ENDS: ReadonlySet<string> = new Set([
  'paragraph_close',
  'heading_close',
  'tr_close',
  'blockquote_close',
  'bullet_list_close',
  'ordered_list_close',
]);

/** The plain text of Markdown `source`. */
export function markdownToText(source: string): string {
  const lines: string[] = [];
  let line = '';
  let cells: string[] | null = null;
  const endLine = (): void => {
    const text = line.replace(/[ \t]+/g, ' ').trim();
    if (text !== '') lines.push(text);
    line = '';
  };
  for (const token of parseMarkdownTokens(source)) {
    switch (token.type) {
      case 'inline':
        if (cells === null) line += inlineText(token.children ?? []);
        else cells.push(inlineText(token.children ?? []).trim());
        break;
      case 'fence':
      case 'code_block':
      case 'math_block':
        endLine();
        line = token.content.trim();
        endLine();
        break;
      case 'tr_open':
        cells = [];
        break;
      case 'tr_close':
        line = (cells ?? []).filter((cell) => cell !== '').join(', ');
        cells = null;
        endLine();
        break;
      case 'list_item_open':
      case 'hr':
        endLine();
        break;
      default:
        if (LINE_ENDS.has(token.type)) endLine();
    }
  }
  endLine();
  return lines.join('\n');
}

/** The text of an inline token's children. */
function inlineText(children: readonly Token[]): string {
  let text = '';
  for (const child of children) {
    switch (child.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
      case 'math_inline':
        text += child.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += ' ';
        break;
      case 'image':
        text += inlineText(child.children ?? []);
        break;
      default:
        break;
    }
  }
  return text;
}
