/**
 * A PPTX deck as its slides' text and pictures (`pptx-read.ts`, in `pptx-worker.ts`): one card
 * per slide, its title as a heading, its paragraphs, its pictures from blob: URLs (allowed by both
 * hosts' `img-src`; revoked when the viewer closes). Not the slides' layout (see pptx-read.ts).
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { VIEWER_LIMITS } from './artifact-kind';
import type { PptxResponse } from './pptx-worker';
import type { ReadPending } from './read-file';
import { readDataFile, useViewerRead } from './read-file';
import { ReadProblem, ViewerNote } from './viewer-notes';

interface ShownSlide {
  title: string | null;
  paragraphs: string[];
  images: string[];
}

type PptxRead =
  ReadPending | { state: 'ready'; slides: ShownSlide[]; slideCount: number; imagesCut: boolean };

/** One deck. */
export function PptxViewer(props: { file: ViewedFile }): ReactNode {
  const t = useT();
  const read = usePptx(props.file);
  if (read.state !== 'ready') return <ReadProblem read={read} file={props.file} kind="pptx" />;
  return (
    <div className="pptx-view" data-testid="pptx-view">
      <ViewerNote>
        {t('artifact.slides', { count: read.slideCount })} · {t('artifact.slidesNote')}
        {read.imagesCut && ` ${t('artifact.imagesCut')}`}
      </ViewerNote>
      <ol className="pptx-slides">
        {read.slides.map((slide, index) => (
          <li
            // Slides have no identity but their place.
            key={index}
            className="pptx-slide"
            data-testid="pptx-slide"
            aria-label={t('artifact.slide', { number: index + 1 })}
          >
            <span className="pptx-number muted">{index + 1}</span>
            {slide.title !== null && <h3 className="pptx-title">{slide.title}</h3>}
            {slide.paragraphs.map((paragraph, line) => (
              <p key={line} className="pptx-text">
                {paragraph}
              </p>
            ))}
            {slide.title === null && slide.paragraphs.length === 0 && slide.images.length === 0 && (
              <p className="pptx-text muted">{t('artifact.slideEmpty')}</p>
            )}
            {slide.images.map((src) => (
              <img key={src} className="pptx-image" src={src} alt="" data-testid="pptx-image" />
            ))}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Reads the deck in a worker; the pictures' URLs are revoked with the viewer. */
function usePptx(file: ViewedFile): PptxRead {
  const bridge = useApp((state) => state.bridge);
  return useViewerRead<PptxRead>(bridge, file.path, ({ bridge: ready, signal, done, fail }) => {
    const urls: string[] = [];
    const worker = new Worker(new URL('./pptx-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<PptxResponse>) => {
      worker.terminate();
      const message = event.data;
      if (message.type === 'failed') {
        done({ state: 'failed', reason: message.message });
        return;
      }
      if (message.type === 'too-large') {
        done({ state: 'too-large', limit: message.limit });
        return;
      }
      if (signal.aborted) return;
      const slides = message.deck.slides.map((slide) => ({
        title: slide.title,
        paragraphs: slide.paragraphs,
        images: slide.images.map((image) => {
          const url = URL.createObjectURL(
            new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.mime }),
          );
          urls.push(url);
          return url;
        }),
      }));
      done({
        state: 'ready',
        slides,
        slideCount: message.deck.slideCount,
        imagesCut: message.deck.imagesCut,
      });
    };
    worker.onerror = () => done({ state: 'failed', reason: 'the slide reader stopped' });
    readDataFile(ready, file.path, VIEWER_LIMITS.pptx, signal).then(
      (bytes) => worker.postMessage({ bytes: bytes.buffer }, [bytes.buffer]),
      fail,
    );
    return () => {
      worker.terminate();
      for (const url of urls) URL.revokeObjectURL(url);
    };
  });
}
