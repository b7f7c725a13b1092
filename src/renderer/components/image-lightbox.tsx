/**
 * The image lightbox: an image of an answer, a diagram, an attachment or a tool's file, opened
 * large in a modal dialog (`use-modal-dialog.ts`: focus inside, Tab trapped, Esc and a click
 * beside the image close it, focus goes back to the image). Zoom with the buttons, + / − / 0
 * (fit), or the wheel (about the cursor); drag or the arrow keys pan a zoomed image
 * (`image-lightbox-zoom.ts` holds the arithmetic). "Download" is an `<a download>` of the
 * image's own address; "Show in folder" appears only when the opener gives `onReveal` (the
 * desktop, for a file of the data directory). Rendered into `document.body` (a portal), above
 * everything. `ZoomableImage` is the opener: the image inside a button (click, Enter or Space).
 */
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../i18n/use-t';
import { CloseIcon, ExportIcon, FitIcon, FolderIcon, ZoomInIcon, ZoomOutIcon } from './icons';
import type { Size, ZoomGeometry, ZoomState } from './image-lightbox-zoom';
import { canPan, fitted, panBy, ZOOM_STEP, zoomBy } from './image-lightbox-zoom';
import { useModalDialog } from './use-modal-dialog';

/** What the lightbox shows and offers. */
export interface LightboxImage {
  src: string;
  alt: string;
  /** The download link: the address (may be another than `src`, e.g. `?download=1`) and name. */
  download: { href: string; name: string };
  /** Shows the file in its folder (the desktop, files of the data directory only). */
  onReveal?: () => void;
  /** Drawn for a dark page (a dark-theme diagram): no white backing behind it. */
  dark?: boolean;
}

/** Pixels an arrow key moves a zoomed image. */
const ARROW_STEP = 60;

/** `children` (the image) as a button that opens the lightbox. */
export function ZoomableImage(props: {
  image: LightboxImage;
  className?: string;
  children: ReactNode;
}): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button
        type="button"
        className={`image-zoom-button ${props.className ?? ''}`.trim()}
        aria-label={t('lightbox.open', { name: props.image.alt || t('lightbox.image') })}
        aria-haspopup="dialog"
        data-testid="image-zoom"
        onClick={() => setOpen(true)}
      >
        {props.children}
      </button>
      {open && <ImageLightbox image={props.image} onClose={close} />}
    </>
  );
}

/** The dialog. */
export function ImageLightbox(props: { image: LightboxImage; onClose(): void }): ReactNode {
  const t = useT();
  const { image } = props;
  const dialog = useRef<HTMLDivElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const backdrop = useModalDialog(dialog, props.onClose);
  const [natural, setNatural] = useState<Size | null>(null);
  const [frame, setFrame] = useState<Size | null>(null);
  const [zoom, setZoom] = useState<ZoomState | null>(null);
  /** Follows the window while the user has not zoomed or panned (or pressed 0). */
  const following = useRef(true);
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const picture = useRef<HTMLImageElement>(null);
  const geometry = useMemo<ZoomGeometry | null>(
    () =>
      natural !== null && frame !== null
        ? { image: natural, viewport: frame, vector: image.src.startsWith('data:image/svg+xml') }
        : null,
    [natural, frame, image.src],
  );
  const measureImage = useCallback((element: HTMLImageElement): void => {
    if (!element.complete || element.naturalWidth === 0) return;
    setNatural({ width: element.naturalWidth, height: element.naturalHeight });
  }, []);

  useLayoutEffect(() => {
    const element = viewport.current;
    if (element === null) return undefined;
    const measure = (): void =>
      setFrame({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // An image already in the cache may be complete before its load listener is there.
    if (picture.current !== null) measureImage(picture.current);
    return () => observer.disconnect();
  }, [measureImage]);

  useEffect(() => {
    if (geometry !== null && (zoom === null || following.current)) {
      const next = fitted(geometry);
      if (zoom?.scale !== next.scale || zoom.x !== 0 || zoom.y !== 0) setZoom(next);
    }
  }, [geometry, zoom]);

  const change = useCallback(
    (update: (state: ZoomState, geometry: ZoomGeometry) => ZoomState, follow = false) => {
      if (geometry === null) return;
      following.current = follow;
      setZoom((state) => update(state ?? fitted(geometry), geometry));
    },
    [geometry],
  );
  const zoomIn = (): void => change((state, g) => zoomBy(state, ZOOM_STEP, g));
  const zoomOut = (): void => change((state, g) => zoomBy(state, 1 / ZOOM_STEP, g));
  const fit = (): void => change((_state, g) => fitted(g), true);

  // The wheel zooms about the cursor; a native listener, since React's wheel listener is passive
  // and the page behind must not scroll.
  useEffect(() => {
    const element = viewport.current;
    if (element === null) return undefined;
    const onWheel = (event: WheelEvent): void => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      const about = {
        x: event.clientX - box.left - box.width / 2,
        y: event.clientY - box.top - box.height / 2,
      };
      const factor = event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP;
      change((state, g) => zoomBy(state, factor, g, about));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [change]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const pan = (dx: number, dy: number): void => change((state, g) => panBy(state, dx, dy, g));
    const actions: Record<string, () => void> = {
      '+': zoomIn,
      '=': zoomIn,
      '-': zoomOut,
      _: zoomOut,
      '0': fit,
      ArrowLeft: () => pan(ARROW_STEP, 0),
      ArrowRight: () => pan(-ARROW_STEP, 0),
      ArrowUp: () => pan(0, ARROW_STEP),
      ArrowDown: () => pan(0, -ARROW_STEP),
    };
    const action = actions[event.key];
    if (action === undefined) return;
    event.preventDefault();
    action();
  };

  // Size and place the picture through CSSOM custom properties (the CSP allows no style
  // attribute); `.lightbox-image.placed` in content.css reads them.
  useLayoutEffect(() => {
    const element = picture.current;
    if (element === null || natural === null || zoom === null) return;
    element.style.setProperty('--lightbox-width', `${natural.width}px`);
    element.style.setProperty('--lightbox-height', `${natural.height}px`);
    element.style.setProperty('--lightbox-x', `${zoom.x}px`);
    element.style.setProperty('--lightbox-y', `${zoom.y}px`);
    element.style.setProperty('--lightbox-scale', String(zoom.scale));
  }, [natural, zoom]);
  const pannable = zoom !== null && geometry !== null && canPan(zoom, geometry);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, moved: false };
    if (pannable) event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    const start = drag.current;
    if (start === null) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 3) return;
    drag.current = { x: event.clientX, y: event.clientY, moved: true };
    if (pannable) change((state, g) => panBy(state, dx, dy, g));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>): void => {
    const start = drag.current;
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
    // A plain click beside the image (not on it, not the end of a drag) closes, as the backdrop.
    if (start !== null && !start.moved && event.target === event.currentTarget) props.onClose();
  };

  const external = /^https?:/i.test(image.download.href);
  const percent = zoom === null ? null : Math.round(zoom.scale * 100);
  return createPortal(
    <div className="overlay dialog-overlay lightbox-overlay" {...backdrop}>
      <div
        ref={dialog}
        className="lightbox"
        role="dialog"
        aria-modal="true"
        aria-label={t('lightbox.title', { name: image.alt || t('lightbox.image') })}
        tabIndex={-1}
        data-testid="image-lightbox"
        onKeyDown={onKeyDown}
      >
        <div className="lightbox-toolbar">
          <span className="lightbox-name" title={image.alt}>
            {image.alt}
          </span>
          <LightboxButton
            label={t('lightbox.zoomOut')}
            testId="lightbox-zoom-out"
            icon={<ZoomOutIcon />}
            onClick={zoomOut}
          />
          <span
            className="lightbox-scale"
            data-testid="lightbox-scale"
            aria-live="polite"
            aria-label={percent === null ? undefined : t('lightbox.scale', { percent })}
          >
            {percent === null ? '' : `${percent}%`}
          </span>
          <LightboxButton
            label={t('lightbox.zoomIn')}
            testId="lightbox-zoom-in"
            icon={<ZoomInIcon />}
            onClick={zoomIn}
          />
          <LightboxButton
            label={t('lightbox.fit')}
            testId="lightbox-fit"
            icon={<FitIcon />}
            onClick={fit}
          />
          <a
            className="button ghost"
            href={image.download.href}
            download={image.download.name}
            data-testid="lightbox-download"
            {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          >
            <ExportIcon />
            {t('lightbox.download')}
          </a>
          {image.onReveal && (
            <button
              type="button"
              className="button ghost"
              data-testid="lightbox-reveal"
              onClick={image.onReveal}
            >
              <FolderIcon />
              {t('lightbox.reveal')}
            </button>
          )}
          <LightboxButton
            label={t('lightbox.close')}
            testId="lightbox-close"
            icon={<CloseIcon />}
            onClick={props.onClose}
          />
        </div>
        <div
          ref={viewport}
          className={`lightbox-viewport${pannable ? ' pannable' : ''}`}
          tabIndex={0}
          data-autofocus
          data-testid="lightbox-viewport"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (drag.current = null)}
        >
          <img
            ref={picture}
            className={`lightbox-image${zoom === null ? ' measuring' : ''}${natural !== null && zoom !== null ? ' placed' : ''}${image.dark ? ' dark' : ''}`}
            src={image.src}
            alt={image.alt}
            referrerPolicy="no-referrer"
            draggable={false}
            data-testid="lightbox-image"
            data-scale={zoom === null ? undefined : zoom.scale.toFixed(4)}
            onLoad={(event) => measureImage(event.currentTarget)}
          />
        </div>
      </div>
    </div>,
    document.body,
  );
}

/** An icon button of the lightbox's toolbar: `label` is its accessible name and its tooltip. */
function LightboxButton(props: {
  label: string;
  testId: string;
  icon: ReactNode;
  onClick: () => void;
}): ReactNode {
  return (
    <button
      type="button"
      className="button ghost lightbox-icon"
      aria-label={props.label}
      title={props.label}
      data-testid={props.testId}
      onClick={props.onClick}
    >
      {props.icon}
    </button>
  );
}
