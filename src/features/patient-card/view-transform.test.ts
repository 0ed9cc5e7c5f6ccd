import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bounded, cssTransform, IDENTITY, MAX_SCALE, panBy, zoomAbout, type ViewTransform } from './view-transform';

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
});
