import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bounded, cssTransform, IDENTITY, MAX_SCALE, panBy, pinch, wheelZoomFactor, zoomAbout, ZOOM_STEP, type ViewTransform } from './view-transform';

const W = 400;
const H = 300;
/** Where an image point (viewport coordinates at scale 1) appears on screen. */
const onScreen = (view: ViewTransform, x: number, y: number) => ({ x: view.x + x * view.scale, y: view.y + y * view.scale });

describe('the comparison view', () => {
  it('zooms about the pointer: the point under it stays put', () => {
    const view = zoomAbout(IDENTITY, 2, 100, 80, W, H);
    expect(view.scale).toBe(2);
    expect(onScreen(view, 100, 80)).toEqual({ x: 100, y: 80 });
  });

  it('never zooms out past the whole image nor in past the limit', () => {
    expect(zoomAbout(IDENTITY, 0.5, 10, 10, W, H)).toEqual(IDENTITY);
    let view = IDENTITY;
    for (let i = 0; i < 30; i += 1) view = zoomAbout(view, 1.25, 200, 150, W, H);
    expect(view.scale).toBe(MAX_SCALE);
  });

  it('keeps the image covering the viewport whatever the pan', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: MAX_SCALE, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        (scale, dx, dy) => {
          const view = panBy({ scale, x: 0, y: 0 }, dx, dy, W, H);
          expect(view.x).toBeLessThanOrEqual(0);
          expect(view.y).toBeLessThanOrEqual(0);
          expect(view.x + W * view.scale).toBeGreaterThanOrEqual(W - 1e-9);
          expect(view.y + H * view.scale).toBeGreaterThanOrEqual(H - 1e-9);
        },
      ),
    );
  });

  it('writes the CSS transform of the layer', () => {
    expect(cssTransform(bounded({ scale: 2, x: -50, y: -20 }, W, H))).toBe('translate(-50px, -20px) scale(2)');
  });

  it('pinches: spreading two fingers zooms about their midpoint, which stays between them', () => {
    const view = pinch(IDENTITY, [{ x: 150, y: 100 }, { x: 250, y: 100 }], [{ x: 100, y: 100 }, { x: 300, y: 100 }], W, H);
    expect(view.scale).toBe(2);
    expect(onScreen(view, 200, 100)).toEqual({ x: 200, y: 100 });
  });

  it('pinches and pans at once: the image point under the fingers follows them', () => {
    const zoomed = { scale: 2, x: -200, y: -150 };
    const view = pinch(zoomed, [{ x: 100, y: 100 }, { x: 200, y: 100 }], [{ x: 120, y: 130 }, { x: 220, y: 130 }], W, H);
    expect(view.scale).toBe(2);
    // Image point (175, 125) was under the midpoint (150, 100); it moves with the fingers to (170, 130).
    expect(onScreen(view, 175, 125)).toEqual({ x: 170, y: 130 });
  });

  it('ignores a pinch of two fingers on one spot', () => {
    expect(pinch(IDENTITY, [{ x: 10, y: 10 }, { x: 10, y: 10 }], [{ x: 10, y: 10 }, { x: 10, y: 10 }], W, H)).toEqual(IDENTITY);
  });

  it('zooms by how far the wheel moved: a mouse notch is one step, a trackpad nudge a fraction, a fling at most two', () => {
    expect(wheelZoomFactor(-100)).toBeCloseTo(ZOOM_STEP);
    expect(wheelZoomFactor(100)).toBeCloseTo(1 / ZOOM_STEP);
    expect(wheelZoomFactor(-3, 1)).toBeCloseTo(ZOOM_STEP ** 0.48);
    expect(wheelZoomFactor(-4)).toBeGreaterThan(1);
    expect(wheelZoomFactor(-4)).toBeLessThan(1.01);
    expect(wheelZoomFactor(-5000)).toBeCloseTo(ZOOM_STEP ** 2);
    expect(wheelZoomFactor(1, 2)).toBeCloseTo(ZOOM_STEP ** -2);
  });
});
