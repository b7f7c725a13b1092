/**
 * markdown-it tokens → React elements. Every string goes through React (escaped); there is no
 * HTML path. Links are only made for the parser's allow-listed schemes (checked again here),
 * images become click-to-load placeholders, fences become `CodeBlock` (or `MermaidDiagram` for a
 * closed ```mermaid fence), `$…$` / `$$…$$` become `MathFormula`. When the chunk is `open` (the
 * text ends inside its last fence or `$$` block, i.e. it is still streaming) that block is shown
 * as plain text until it closes.
 */
import type { CSSProperties, ReactNode } from 'react';
import { createElement, isValidElement } from 'react';
import { CodeBlock } from './code-block';
import { ClickToLoadImage } from './markdown-image';
import type { Token } from './markdown-pipeline';
import { isSafeLink } from './markdown-pipeline';
import { MathFormula } from './math-formula';
import { MermaidDiagram } from './mermaid-diagram';

/** Element tags a container token may open; anything else renders its children only. */
const CONTAINER_TAGS = new Set([
  'p',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'strong',
  'em',
  's',
  'a',
]);

/**
 * An unfinished code block longer than this shows without highlighting until it closes:
 * highlighting it again on every streamed frame would cost more than the frame.
 */
export const PLAIN_WHILE_STREAMING_CHARS = 8_192;

interface Frame {
  token: Token | null;
  children: ReactNode[];
}

/** Renders a chunk's block tokens; `open`: its last fence or `$$` block is unfinished. */
export function renderMarkdownTokens(tokens: readonly Token[], open: boolean): ReactNode[] {
  const unfinished = open ? lastBlockIndex(tokens) : -1;
  return build(tokens, (token, index, key) => leaf(token, key, index === unfinished));
}

function lastBlockIndex(tokens: readonly Token[]): number {
  for (let index = tokens.length - 1; index >= 0; index -= 1) {
    const type = tokens[index]?.type;
    if (type === 'fence' || type === 'math_block') return index;
  }
  return -1;
}

/** Folds open/close pairs into elements; `render` handles tokens without nesting. */
function build(
  tokens: readonly Token[],
  render: (token: Token, index: number, key: number) => ReactNode,
): ReactNode[] {
  const stack: Frame[] = [{ token: null, children: [] }];
  tokens.forEach((token, index) => {
    const top = stack[stack.length - 1] as Frame;
    if (token.nesting === 1) {
      stack.push({ token, children: [] });
    } else if (token.nesting === -1) {
      if (stack.length < 2) return;
      const frame = stack.pop() as Frame;
      const parent = stack[stack.length - 1] as Frame;
      parent.children.push(container(frame, parent.children.length));
    } else {
      top.children.push(render(token, index, top.children.length));
    }
  });
  // An unbalanced stream (never from markdown-it) still shows every child.
  while (stack.length > 1) {
    const frame = stack.pop() as Frame;
    (stack[stack.length - 1] as Frame).children.push(...frame.children);
  }
  return (stack[0] as Frame).children;
}

function container(frame: Frame, key: number): ReactNode {
  const token = frame.token as Token;
  const children = frame.children;
  // Paragraphs of tight list items are hidden by markdown-it: their text goes straight in.
  if (token.hidden)
    return createElement('span', { key, className: 'md-tight' }, ...taskLabel(children));
  if (token.tag === 'p') return createElement('p', { key }, ...taskLabel(children));
  if (/^h[1-6]$/.test(token.tag)) {
    // Answers sit under the app's own headings: # is h3, ## h4, …
    const level = Math.min(Number(token.tag.slice(1)) + 2, 6);
    return createElement(`h${level}`, { key }, ...children);
  }
  if (token.tag === 'a') {
    const href = token.attrGet('href') ?? '';
    if (!isSafeLink(href)) return createElement('span', { key }, ...children);
    return createElement(
      'a',
      { key, href, target: '_blank', rel: 'noopener noreferrer nofollow', title: href },
      ...children,
    );
  }
  if (!CONTAINER_TAGS.has(token.tag)) return createElement('span', { key }, ...children);
  const props: Record<string, unknown> = { key };
  const start = token.attrGet('start');
  if (token.tag === 'ol' && start !== null) props.start = Number(start);
  const className = token.attrGet('class');
  if (className !== null) props.className = className;
  if (token.tag === 'th' || token.tag === 'td') props.style = alignment(token.attrGet('style'));
  return createElement(token.tag, props, ...children);
}

/**
 * A task item's checkbox and its text in one `<label>`, so the checkbox is named by the text
 * (screen readers say "done, checked"); other paragraphs unchanged.
 */
function taskLabel(children: ReactNode[]): ReactNode[] {
  // An inline token's children come as one array.
  const [only] = children;
  const items = children.length === 1 && Array.isArray(only) ? (only as ReactNode[]) : children;
  const [first] = items;
  if (!isValidElement(first) || first.type !== 'input') return children;
  return [createElement('label', { key: 'task' }, ...items)];
}

/** markdown-it writes column alignment as `text-align:left|center|right`; kept via CSSOM. */
function alignment(style: string | null): CSSProperties | undefined {
  const align = /text-align:(left|center|right)/.exec(style ?? '')?.[1];
  return align === undefined ? undefined : { textAlign: align as 'left' | 'center' | 'right' };
}

function leaf(token: Token, key: number, unfinished: boolean): ReactNode {
  switch (token.type) {
    case 'inline':
      return build(token.children ?? [], (child, _index, childKey) => inline(child, childKey));
    case 'fence':
    case 'code_block': {
      const language = token.info.trim().split(/\s+/)[0] ?? '';
      const text = token.content.replace(/\n$/, '');
      if (language === 'mermaid' && !unfinished) return <MermaidDiagram key={key} code={text} />;
      const plain = unfinished && text.length > PLAIN_WHILE_STREAMING_CHARS;
      return <CodeBlock key={key} language={language} text={text} plain={plain} />;
    }
    case 'math_block':
      return unfinished ? (
        <pre key={key} className="math-pending">
          {`$$\n${token.content}`}
        </pre>
      ) : (
        <MathFormula key={key} tex={token.content.trim()} display />
      );
    case 'hr':
      return <hr key={key} />;
    default:
      // html_block cannot occur (html: false); anything unknown shows its source text.
      return token.content === '' ? null : <p key={key}>{token.content}</p>;
  }
}

function inline(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'text':
    case 'text_special':
      return token.content;
    case 'softbreak':
      return '\n';
    case 'hardbreak':
      return <br key={key} />;
    case 'code_inline':
      return <code key={key}>{token.content}</code>;
    case 'image':
      return <ClickToLoadImage key={key} src={token.attrGet('src') ?? ''} alt={token.content} />;
    case 'math_inline':
      return <MathFormula key={key} tex={token.content} display={false} />;
    case 'checkbox_input':
      return (
        <input
          key={key}
          type="checkbox"
          className="task-list-item-checkbox"
          checked={token.attrGet('checked') !== null}
          disabled
          readOnly
        />
      );
    default:
      return token.content;
  }
}
