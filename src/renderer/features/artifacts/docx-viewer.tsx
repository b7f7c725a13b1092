/**
 * A DOCX document: read here (bounded), converted to HTML by mammoth in a worker
 * (`docx-worker.ts`), sanitised with DOMPurify (no script, style, form, frame or event handler;
 * links lose their address, images only as data: URLs) and shown in the same isolated frame as
 * HTML artifacts (`html-viewer.tsx`: sandboxed, opaque origin, no network), as a white page in
 * both themes. So nothing of the document runs, and were anything to slip through it would run
 * where a model's own page does: without the app, its token or the network.
 */
import type { ReactNode } from 'react';
import type { DOMPurify } from 'dompurify';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { VIEWER_LIMITS } from './artifact-kind';
import type { DocxRequest, DocxResponse } from './docx-protocol';
import { IsolatedFrame } from './html-viewer';
import type { ReadPending } from './read-file';
import { readDataFile, useViewerRead } from './read-file';
import { ReadProblem, ViewerNote } from './viewer-notes';

type DocxRead = ReadPending | { state: 'ready'; html: string; messages: number };

/** The document's HTML made safe to show: only formatting, tables, lists, images and text. */
export function sanitizeDocxHtml(createPurify: DOMPurify, html: string): string {
  const purify = createPurify();
  purify.addHook('afterSanitizeAttributes', (node) => {
    // A link keeps its text (and its address as a tooltip) but goes nowhere; in-document
    // anchors (footnotes) stay.
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!href.startsWith('#')) {
        node.removeAttribute('href');
        if (href !== '') node.setAttribute('title', href);
      }
      node.removeAttribute('target');
    }
    if (
      node.tagName === 'IMG' &&
      !/^data:image\/(png|jpeg|gif|webp|bmp);/i.test(node.getAttribute('src') ?? '')
    ) {
      node.removeAttribute('src');
    }
  });
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'object',
      'embed',
      'link',
      'meta',
      'base',
      'svg',
      'math',
    ],
    FORBID_ATTR: ['style', 'srcset'],
  });
}

/** The page the frame shows: the sanitised body on white paper. */
export function docxPage(body: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8"><style>' +
    'html{background:#fff;color:#1a1a1a}' +
    'body{margin:0 auto;max-width:46em;padding:24px 28px;font:15px/1.55 system-ui,sans-serif}' +
    'img{max-width:100%;height:auto}table{border-collapse:collapse;margin:1em 0}' +
    'td,th{border:1px solid #bbb;padding:4px 8px;vertical-align:top}' +
    'h1,h2,h3{line-height:1.25}a{color:#1a56b8}' +
    '</style></head><body>' +
    body +
    '</body></html>'
  );
}

/** One document. */
export function DocxViewer(props: { file: ViewedFile }): ReactNode {
  const t = useT();
  const read = useDocx(props.file);
  if (read.state !== 'ready') return <ReadProblem read={read} file={props.file} kind="docx" />;
  return (
    <div className="artifact-page">
      <div className="artifact-page-bar">
        <ViewerNote>
          {t('artifact.docxNote')}
          {read.messages > 0 && ` ${t('artifact.docxMessages', { count: read.messages })}`}
        </ViewerNote>
      </div>
      <IsolatedFrame
        key={props.file.path}
        html={read.html}
        title={t('artifact.frameTitle', { name: props.file.name })}
        scripts={false}
      />
    </div>
  );
}

/** Reads and converts the file; the worker ends with the viewer. */
function useDocx(file: ViewedFile): DocxRead {
  const bridge = useApp((state) => state.bridge);
  return useViewerRead<DocxRead>(bridge, file.path, ({ bridge: ready, signal, done, fail }) => {
    const worker = new Worker(new URL('./docx-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<DocxResponse>) => {
      const message = event.data;
      if (message.type === 'converted') {
        // DOMPurify is loaded with the first document (a chunk of its own, shared with mermaid).
        import('dompurify').then(
          ({ default: purify }) =>
            done({
              state: 'ready',
              html: docxPage(sanitizeDocxHtml(purify, message.html)),
              messages: message.messages,
            }),
          (error: unknown) => done({ state: 'failed', reason: String(error) }),
        );
      } else if (message.type === 'too-large') done({ state: 'too-large', limit: message.limit });
      else done({ state: 'failed', reason: message.message });
      worker.terminate();
    };
    worker.onerror = () => done({ state: 'failed', reason: 'the document reader stopped' });
    readDataFile(ready, file.path, VIEWER_LIMITS.docx, signal).then((bytes) => {
      const request: DocxRequest = { bytes: bytes.buffer };
      worker.postMessage(request, [bytes.buffer]);
    }, fail);
    return () => worker.terminate();
  });
}
