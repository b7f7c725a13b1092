/**
 * A PDF with pdf.js (`pdfjs-dist`): the bytes are read here (bounded) and parsed in pdf.js's worker
 * (`pdf-worker.ts`, bundled, from the app's origin). Pages are placeholders of the right size;
 * a page is drawn (canvas, plus pdf.js's text layer so its text can be selected and copied) only
 * while it is on screen or near it, and its canvas is released once it is far away again. Zoom:
 * out / in / fit width; the page count is shown. Nothing in the PDF runs: pdf.js's scripting
 * (`pdf.sandbox`) is never loaded and XFA forms are off, no annotation layer is drawn (links and
 * form fields do nothing; their appearance is painted into the canvas), and pdf.js 6 has no eval
 * path at all (its `isEvalSupported` option is gone; the CSPs forbid eval anyway).
 */
import type { ReactNode, RefObject } from 'react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type * as PdfJsModule from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { VIEWER_LIMITS } from './artifact-kind';
import { scanPdf } from './pdf-scan-run';
import type { ReadPending } from './read-file';
import { readDataFile, useViewerRead } from './read-file';
import { ReadProblem, ViewerNote } from './viewer-notes';
import { BUNDLED_CMAP_URL, BundledCMaps } from './pdf-cmaps';

type PdfJs = typeof PdfJsModule;

/** Most pages laid out (the rest are counted). */
export const MAX_PDF_PAGES = 2000;
/** Zoom bounds (1 = the page's own size in CSS px) and step. */
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 4;
const ZOOM_STEP = 1.25;
/** A page's CSS px per PDF point. */
const CSS_PER_POINT = 96 / 72;
/** Most canvas pixels of one page (larger zooms are drawn at a lower resolution). */
const MAX_CANVAS_PIXELS = 16_000_000;

type PdfRead =
  | ReadPending
  | { state: 'ready'; pdfjs: PdfJs; document: PDFDocumentProxy; width: number; height: number };

/** One PDF. */
export function PdfViewer(props: { file: ViewedFile }): ReactNode {
  const read = usePdf(props.file);
  if (read.state !== 'ready') return <ReadProblem read={read} file={props.file} kind="pdf" />;
  return <PdfPages file={props.file} read={read} />;
}

/** Reads the file and opens it with pdf.js in a new worker; both end with the viewer. */
function usePdf(file: ViewedFile): PdfRead {
  const bridge = useApp((state) => state.bridge);
  return useViewerRead<PdfRead>(bridge, file.path, ({ bridge: ready, signal, done, fail }) => {
    const worker = new Worker(new URL('./pdf-worker.ts', import.meta.url), { type: 'module' });
    let destroy: (() => void) | null = null;
    (async () => {
      const [bytes, pdfjs] = await Promise.all([
        readDataFile(ready, file.path, VIEWER_LIMITS.pdf, signal),
        import('pdfjs-dist'),
      ]);
      if (signal.aborted) return;
      // Its streams measured first (`pdf-scan.ts`): pdf.js bounds none of them.
      const scanned = await scanPdf(bytes, signal);
      if (signal.aborted) return;
      if (scanned.type === 'too-large') {
        done({ state: 'too-large', limit: scanned.limit });
        return;
      }
      const port = new pdfjs.PDFWorker({ port: worker as unknown as null });
      const task = pdfjs.getDocument({
        data: new Uint8Array(scanned.bytes),
        worker: port,
        // No XFA forms (their layer is HTML built from the file), no WebAssembly decoders (the
        // CSPs allow no wasm; JPEG 2000 and JBIG2 images are then not drawn), nothing fetched.
        enableXfa: false,
        useWasm: false,
        useWorkerFetch: false,
        // CJK text in fonts the file does not embed needs pdf.js's CMaps: from the bundle.
        cMapUrl: BUNDLED_CMAP_URL,
        cMapPacked: true,
        BinaryDataFactory: BundledCMaps,
        stopAtErrors: false,
        maxImageSize: 64 * 1024 * 1024,
      });
      destroy = () => {
        void task.destroy();
        port.destroy();
      };
      const document = await task.promise;
      const first = await document.getPage(1);
      const viewport = first.getViewport({ scale: CSS_PER_POINT });
      done({ state: 'ready', pdfjs, document, width: viewport.width, height: viewport.height });
    })().catch(fail);
    return () => {
      destroy?.();
      worker.terminate();
    };
  });
}

/** The pages, zoom and count. */
function PdfPages(props: {
  file: ViewedFile;
  read: Extract<PdfRead, { state: 'ready' }>;
}): ReactNode {
  const t = useT();
  const { document } = props.read;
  const scroller = useRef<HTMLDivElement>(null);
  // null: fit the panel's width.
  const [zoom, setZoom] = useState<number | null>(null);
  const [fit, setFit] = useState(1);
  const pageCount = document.numPages;
  const shown = Math.min(pageCount, MAX_PDF_PAGES);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return undefined;
    const measure = (): void => {
      const width = element.clientWidth - 32;
      if (width > 0) setFit(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, width / props.read.width)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [props.read.width]);

  const scale = zoom ?? fit;
  const step = (factor: number): void =>
    setZoom(Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale * factor)));
  const percent = Math.round(scale * 100);
  return (
    <div className="pdf-view">
      <div className="artifact-page-bar pdf-bar">
        <ViewerNote>
          <span data-testid="pdf-page-count">{t('artifact.pages', { count: pageCount })}</span>
          {shown < pageCount && ` ${t('artifact.pagesCut', { shown, count: pageCount })}`}
          {` · ${t('artifact.pdfNoScripts')}`}
        </ViewerNote>
        <div className="pdf-zoom" role="group" aria-label={t('artifact.zoom', { percent })}>
          <button
            type="button"
            className="file-action"
            aria-label={t('artifact.zoomOut')}
            title={t('artifact.zoomOut')}
            data-testid="pdf-zoom-out"
            disabled={scale <= MIN_ZOOM}
            onClick={() => step(1 / ZOOM_STEP)}
          >
            −
          </button>
          <span className="pdf-zoom-level" data-testid="pdf-zoom-level" aria-live="polite">
            {percent}%
          </span>
          <button
            type="button"
            className="file-action"
            aria-label={t('artifact.zoomIn')}
            title={t('artifact.zoomIn')}
            data-testid="pdf-zoom-in"
            disabled={scale >= MAX_ZOOM}
            onClick={() => step(ZOOM_STEP)}
          >
            +
          </button>
          <button
            type="button"
            className="file-action"
            aria-pressed={zoom === null}
            data-testid="pdf-zoom-fit"
            onClick={() => setZoom(null)}
          >
            {t('artifact.zoomFit')}
          </button>
        </div>
      </div>
      <div ref={scroller} className="pdf-scroller" data-testid="pdf-scroller" tabIndex={0}>
        {Array.from({ length: shown }, (_, index) => (
          <PdfPage
            key={index}
            number={index + 1}
            read={props.read}
            scale={scale}
            scroller={scroller}
          />
        ))}
      </div>
    </div>
  );
}

/** One page: a placeholder, drawn while near the screen. */
function PdfPage(props: {
  number: number;
  read: Extract<PdfRead, { state: 'ready' }>;
  scale: number;
  scroller: RefObject<HTMLDivElement | null>;
}): ReactNode {
  const t = useT();
  const { number, scale, read } = props;
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  // The page's own size once known (pages may differ from the first).
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const width = (size?.width ?? read.width) * scale;
  const height = (size?.height ?? read.height) * scale;

  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return;
    element.style.setProperty('--pdf-width', `${width}px`);
    element.style.setProperty('--pdf-height', `${height}px`);
    element.style.setProperty('--total-scale-factor', String(scale * CSS_PER_POINT));
  }, [width, height, scale]);

  useEffect(() => {
    const element = box.current;
    const root = props.scroller.current;
    if (element === null || root === null) return undefined;
    // Near: within one screen above or below.
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) setNear(entry.isIntersecting);
      },
      { root, rootMargin: '100% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [props.scroller]);

  useEffect(() => {
    const target = canvas.current;
    const layer = text.current;
    if (!near || target === null || layer === null) return undefined;
    let cancelled = false;
    let cancel: (() => void) | null = null;
    (async () => {
      const page = await read.document.getPage(number);
      if (cancelled) return;
      const own = page.getViewport({ scale: CSS_PER_POINT });
      setSize({ width: own.width, height: own.height });
      const viewport = page.getViewport({ scale: scale * CSS_PER_POINT });
      const wanted = window.devicePixelRatio || 1;
      const ratio = Math.min(
        wanted,
        Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
      );
      target.width = Math.floor(viewport.width * ratio);
      target.height = Math.floor(viewport.height * ratio);
      const render = page.render({
        canvas: target,
        viewport,
        ...(ratio === 1 ? {} : { transform: [ratio, 0, 0, ratio, 0, 0] }),
      });
      const textLayer = new read.pdfjs.TextLayer({
        textContentSource: page.streamTextContent(),
        container: layer,
        viewport,
      });
      cancel = () => {
        render.cancel();
        textLayer.cancel();
      };
      layer.replaceChildren();
      await Promise.all([render.promise, textLayer.render()]);
      if (!cancelled) box.current?.setAttribute('data-rendered', 'true');
    })().catch(() => {
      // A cancelled render rejects; a page pdf.js cannot draw stays blank.
    });
    return () => {
      cancelled = true;
      cancel?.();
      // Far away again: give the canvas's memory back.
      target.width = 0;
      target.height = 0;
      layer.replaceChildren();
      box.current?.removeAttribute('data-rendered');
    };
  }, [near, number, read, scale]);

  return (
    <div
      ref={box}
      className="pdf-page"
      data-testid="pdf-page"
      data-page={number}
      role="region"
      aria-label={t('artifact.page', { number })}
    >
      <canvas ref={canvas} className="pdf-canvas" width={0} height={0} aria-hidden="true" />
      <div ref={text} className="textLayer" />
    </div>
  );
}
