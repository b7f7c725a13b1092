/**
 * Renders model Markdown safely: React elements only (no `dangerouslySetInnerHTML`), links only
 * for http(s)/mailto (opened outside the app, no referrer), and images never loaded until the
 * user clicks — a remote image URL can carry data out.
 */
import type { ReactNode } from 'react';
import { memo, useState } from 'react';
import { useT } from '../i18n/use-t';
import { CodeBlock } from './code-block';
import type { Block, Inline } from './markdown-parse';
import { isSafeLink, parseMarkdown } from './markdown-parse';
import { splitMarkdownChunks } from './markdown-chunks';

/**
 * Renders Markdown text as safe React elements. The text is parsed chunk by chunk (blank lines
 * outside fences), each chunk memoised: while an answer streams, only its last chunk changes.
 */
export function Markdown(props: { text: string }): ReactNode {
  return (
    <div className="markdown">
      {splitMarkdownChunks(props.text).map((chunk, index) => (
        <MarkdownChunk key={index} text={chunk} />
      ))}
    </div>
  );
}

/** One chunk's blocks (no wrapper element, so the DOM is that of the whole text). */
const MarkdownChunk = memo(function MarkdownChunk(props: { text: string }): ReactNode {
  return <>{parseMarkdown(props.text).map(renderBlock)}</>;
});

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={key}>{block.children.map(renderInline)}</p>;
    case 'heading': {
      const Tag = `h${Math.min(block.level + 2, 6)}` as 'h3';
      return <Tag key={key}>{block.children.map(renderInline)}</Tag>;
    }
    case 'code':
      return <CodeBlock key={key} language={block.language} text={block.text} />;
    case 'list': {
      const items = block.items.map((item, index) => <li key={index}>{item.map(renderInline)}</li>);
      return block.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'quote':
      return <blockquote key={key}>{block.children.map(renderBlock)}</blockquote>;
    case 'rule':
      return <hr key={key} />;
  }
}

function renderInline(node: Inline, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text;
    case 'code':
      return <code key={key}>{node.text}</code>;
    case 'strong':
      return <strong key={key}>{node.children.map(renderInline)}</strong>;
    case 'em':
      return <em key={key}>{node.children.map(renderInline)}</em>;
    case 'link':
      return isSafeLink(node.href) ? (
        <a
          key={key}
          href={node.href}
          target="_blank"
          rel="noopener noreferrer nofollow"
          title={node.href}
        >
          {node.children.map(renderInline)}
        </a>
      ) : (
        <span key={key}>{node.children.map(renderInline)}</span>
      );
    case 'image':
      return <ClickToLoadImage key={key} src={node.src} alt={node.alt} />;
  }
}

/** A placeholder naming the image's host; the image is requested only after a click. */
function ClickToLoadImage(props: { src: string; alt: string }): ReactNode {
  const t = useT();
  const [loaded, setLoaded] = useState(false);
  const host = imageHost(props.src);
  if (host === null) return <span className="image-blocked">{t('markdown.imageBlocked')}</span>;
  if (loaded)
    return (
      <img
        className="markdown-image"
        src={props.src}
        alt={props.alt}
        referrerPolicy="no-referrer"
      />
    );
  return (
    <button
      type="button"
      className="image-placeholder"
      data-testid="image-placeholder"
      title={props.src}
      onClick={() => setLoaded(true)}
    >
      🖼 {t('markdown.loadImage', { host })}
      {props.alt ? ` — ${props.alt}` : ''}
    </button>
  );
}

/** The host of an https image URL; null for anything else (http, data:, javascript:, relative). */
export function imageHost(src: string): string | null {
  try {
    const url = new URL(src);
    return url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}
