/**
 * The lightbox's zoom and pan, as pure functions of the image's natural size and the viewport
 * (unit-tested; `image-lightbox.tsx` only feeds them events). The scale is relative to the image's
 * natural size; "fit" shows it whole with a margin (a raster image never enlarged past 100%, a
 * vector one up to 400%); zoom steps by 1.25× between
 * the fit scale (or 10%, if smaller) and 800%, about a point (the cursor for the wheel, else the
 * centre); the offset (from the centre) is clamped so a zoomed image cannot be pushed out of
 * view, and is 0 on an axis where the image fits.
 */

export interface Size {
  width: number;
  height: number;
}

/** What the zoom depends on. */
export interface ZoomGeometry {
  image: Size;
  viewport: Size;
  /** A vector image (SVG): fit may enlarge it, it stays sharp. */
  vector?: boolean;
}

export interface ZoomState {
  scale: number;
  /** The image centre's offset from the viewport centre, in CSS pixels. */
  x: number;
  y: number;
}

export const ZOOM_STEP = 1.25;
export const MAX_SCALE = 8;
const MIN_SCALE = 0.1;
/** Space kept around a fitted image, per side. */
export const FIT_MARGIN = 16;
const MAX_VECTOR_FIT = 4;

/** The scale that shows the whole image (raster images are not blown up past 100%). */
export function fitScale(geometry: ZoomGeometry): number {
  const { image } = geometry;
  const width = geometry.viewport.width - 2 * FIT_MARGIN;
  const height = geometry.viewport.height - 2 * FIT_MARGIN;
  if (image.width <= 0 || image.height <= 0 || width <= 0 || height <= 0) return 1;
  const largest = geometry.vector === true ? MAX_VECTOR_FIT : 1;
  return Math.min(largest, width / image.width, height / image.height);
}

/** The whole image, centred. */
export function fitted(geometry: ZoomGeometry): ZoomState {
  return { scale: fitScale(geometry), x: 0, y: 0 };
}

/**
 * Zoomed by `factor` (> 1 in, < 1 out) about `about` (a point relative to the viewport centre;
 * the centre when omitted), which stays where it is on the screen.
 */
export function zoomBy(
  state: ZoomState,
  factor: number,
  geometry: ZoomGeometry,
  about: { x: number; y: number } = { x: 0, y: 0 },
): ZoomState {
  const lowest = Math.min(MIN_SCALE, fitScale(geometry));
  const scale = Math.min(MAX_SCALE, Math.max(lowest, state.scale * factor));
  const ratio = scale / state.scale;
  return clampPan(
    {
      scale,
      x: about.x - (about.x - state.x) * ratio,
      y: about.y - (about.y - state.y) * ratio,
    },
    geometry,
  );
}

/** Moved by (dx, dy), within bounds. */
export function panBy(state: ZoomState, dx: number, dy: number, geometry: ZoomGeometry): ZoomState {
  return clampPan({ ...state, x: state.x + dx, y: state.y + dy }, geometry);
}

/** Whether the image is larger than the viewport on some axis (then it can be dragged). */
export function canPan(state: ZoomState, geometry: ZoomGeometry): boolean {
  return (
    geometry.image.width * state.scale > geometry.viewport.width + 0.5 ||
    geometry.image.height * state.scale > geometry.viewport.height + 0.5
  );
}

function clampPan(state: ZoomState, geometry: ZoomGeometry): ZoomState {
  const limitX = Math.max(0, (geometry.image.width * state.scale - geometry.viewport.width) / 2);
  const limitY = Math.max(0, (geometry.image.height * state.scale - geometry.viewport.height) / 2);
  return {
    scale: state.scale,
    x: clamp(state.x, limitX),
    y: clamp(state.y, limitY),
  };
}

function clamp(value: number, limit: number): number {
  // `+ 0` turns -0 into 0.
  return Math.min(limit, Math.max(-limit, value)) + 0;
}
