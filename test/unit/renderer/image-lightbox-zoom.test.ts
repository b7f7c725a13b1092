import { describe, expect, it } from 'vitest';
import {
  canPan,
  fitScale,
  fitted,
  MAX_SCALE,
  panBy,
  ZOOM_STEP,
  zoomBy,
} from '../../../src/renderer/components/image-lightbox-zoom';

// The views are 800×600 once the fit margin (16 px a side) is taken off.
const view = { width: 832, height: 632 };
const large = { image: { width: 2000, height: 1000 }, viewport: view };
const small = { image: { width: 200, height: 100 }, viewport: view };

describe('image lightbox: zoom and pan', () => {
  it('fit shows the whole image, never enlarged', () => {
    expect(fitScale(large)).toBe(0.4);
    expect(fitted(large)).toEqual({ scale: 0.4, x: 0, y: 0 });
    expect(fitScale(small)).toBe(1);
    // A vector image (a diagram) is enlarged to fit, up to 4×.
    expect(fitScale({ ...small, vector: true })).toBe(4);
    expect(fitScale({ ...large, vector: true })).toBe(0.4);
    expect(fitScale({ image: { width: 0, height: 0 }, viewport: large.viewport })).toBe(1);
  });

  it('zooms in and out by a step, within 10% (or the fit) and 800%', () => {
    const start = fitted(large);
    const zoomedIn = zoomBy(start, ZOOM_STEP, large);
    expect(zoomedIn.scale).toBeCloseTo(0.5);
    expect(zoomBy(zoomedIn, 1 / ZOOM_STEP, large).scale).toBeCloseTo(0.4);
    let state = start;
    for (let step = 0; step < 40; step += 1) state = zoomBy(state, ZOOM_STEP, large);
    expect(state.scale).toBe(MAX_SCALE);
    for (let step = 0; step < 80; step += 1) state = zoomBy(state, 1 / ZOOM_STEP, large);
    expect(state.scale).toBe(0.1);
    const tiny = { image: { width: 40_000, height: 100 }, viewport: large.viewport };
    expect(zoomBy(fitted(tiny), 0.5, tiny).scale).toBe(fitScale(tiny));
  });

  it('keeps the point under the cursor in place and pans only within the image', () => {
    const at1 = { scale: 1, x: 0, y: 0 };
    const zoomed = zoomBy(at1, 2, large, { x: 100, y: 50 });
    // The point 100 px right of the centre stays there: x' = 100 - (100 - 0) * 2.
    expect(zoomed).toEqual({ scale: 2, x: -100, y: -50 });
    // At 2× the image is 4000×2000 in an 832×632 view: ±1584 and ±684 at most.
    expect(panBy(zoomed, -5000, 5000, large)).toEqual({ scale: 2, x: -1584, y: 684 });
    expect(canPan(zoomed, large)).toBe(true);
    // A small image at fit cannot move.
    expect(panBy(fitted(small), 30, 30, small)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(canPan(fitted(small), small)).toBe(false);
    // Zooming back out recentres what no longer overflows.
    expect(zoomBy(zoomed, 0.2, large)).toEqual({ scale: 0.4, x: 0, y: 0 });
  });
});
