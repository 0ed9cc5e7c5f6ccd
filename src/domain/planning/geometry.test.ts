import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discTouchesEllipse, distanceToEllipse, ellipseOutline, insideEllipse, type Ellipse } from './ellipse';
import { moveFovea, zoneInRetina, zoneOf, zonesOverlap } from './exclusion-zones';
import { imagePoint, lengthToPx, lengthToUm, px, retinaFrame, retinaPoint, toImage, toRetina, um } from './frames';

describe('frames', () => {
  const frame = retinaFrame({ x: 800, y: 600 }, 5);

  it('puts the fovea at the origin of the retina, x to the right and y up', () => {
    expect(toRetina(frame, imagePoint(800, 600))).toEqual({ xUm: 0, yUm: 0 });
    expect(toRetina(frame, imagePoint(900, 500))).toEqual({ xUm: 500, yUm: 500 });
    expect(toRetina(frame, imagePoint(700, 700))).toEqual({ xUm: -500, yUm: -500 });
    expect(toImage(frame, retinaPoint(250, -100))).toEqual({ x: 850, y: 620 });
  });

  it('converts lengths with the scale', () => {
    expect(lengthToUm(frame, px(12))).toBe(60);
    expect(lengthToPx(frame, um(60))).toBe(12);
  });

  it('refuses a scale that is not a positive number', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => retinaFrame({ x: 0, y: 0 }, bad)).toThrow(RangeError);
  });

  it('converts there and back to the same point', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 8192, noNaN: true }),
        fc.double({ min: 0, max: 8192, noNaN: true }),
        fc.double({ min: 0.5, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 8192, noNaN: true }),
        fc.double({ min: 0, max: 8192, noNaN: true }),
        (fx, fy, scale, x, y) => {
          const f = retinaFrame({ x: fx, y: fy }, scale);
          const back = toImage(f, toRetina(f, imagePoint(x, y)));
          expect(back.x).toBeCloseTo(x, 6);
          expect(back.y).toBeCloseTo(y, 6);
        },
      ),
    );
  });
});

describe('distance to a filled ellipse', () => {
  it('is the distance to the rim of a circle, 0 inside', () => {
    const circle: Ellipse = { cx: 10, cy: -5, rx: 3, ry: 3, rotation: 0.7 };
    expect(distanceToEllipse(circle, 10, -5)).toBe(0);
    expect(distanceToEllipse(circle, 15, -5)).toBeCloseTo(2, 9);
    expect(distanceToEllipse(circle, 10 + 4 / Math.SQRT2, -5 + 4 / Math.SQRT2)).toBeCloseTo(1, 9);
  });

  it('measures along the axes and rotates with the ellipse', () => {
    const ellipse: Ellipse = { cx: 0, cy: 0, rx: 4, ry: 2, rotation: 0 };
    expect(distanceToEllipse(ellipse, 7, 0)).toBeCloseTo(3, 9);
    expect(distanceToEllipse(ellipse, 0, 5)).toBeCloseTo(3, 9);
    const turned = { ...ellipse, rotation: Math.PI / 2 };
    expect(distanceToEllipse(turned, 0, 7)).toBeCloseTo(3, 9);
    expect(distanceToEllipse(turned, 5, 0)).toBeCloseTo(3, 9);
  });

  it('measures points on either axis of a long ellipse, either way round, and counts its edge as inside', () => {
    for (const [rx, ry] of [
      [8, 2],
      [2, 8],
    ]) {
      const ellipse: Ellipse = { cx: 0, cy: 0, rx, ry, rotation: 0 };
      expect(distanceToEllipse(ellipse, rx + 3, 0)).toBeCloseTo(3, 12);
      expect(distanceToEllipse(ellipse, -(rx + 3), 0)).toBeCloseTo(3, 12);
      expect(distanceToEllipse(ellipse, 0, ry + 3)).toBeCloseTo(3, 12);
      expect(distanceToEllipse(ellipse, 0, -(ry + 3))).toBeCloseTo(3, 12);
      expect(insideEllipse(ellipse, rx, 0)).toBe(true);
      expect(insideEllipse(ellipse, 0, -ry)).toBe(true);
      expect(distanceToEllipse(ellipse, rx, 0)).toBe(0);
    }
  });

  it('walks the outline of a turned ellipse from the end of its rx axis towards its ry axis', () => {
    const ellipse: Ellipse = { cx: 3, cy: -2, rx: 5, ry: 2, rotation: 0.7 };
    const [start, quarter] = ellipseOutline(ellipse, 4);
    expect(start.x).toBeCloseTo(3 + 5 * Math.cos(0.7), 12);
    expect(start.y).toBeCloseTo(-2 + 5 * Math.sin(0.7), 12);
    expect(quarter.x).toBeCloseTo(3 - 2 * Math.sin(0.7), 12);
    expect(quarter.y).toBeCloseTo(-2 + 2 * Math.cos(0.7), 12);
  });

  it('says a disc touches a circle when it reaches it exactly at the farthest bound', () => {
    const circle: Ellipse = { cx: 2, cy: 1, rx: 3, ry: 3, rotation: 0 };
    expect(discTouchesEllipse(circle, 6, 1, 1)).toBe(true);
    expect(discTouchesEllipse(circle, 6.001, 1, 1)).toBe(false);
  });

  it('agrees with the nearest of 20,000 points on the rim', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        fc.double({ min: 0.5, max: 50, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -120, max: 120, noNaN: true }),
        fc.double({ min: -120, max: 120, noNaN: true }),
        (rx, ry, rotation, x, y) => {
          const ellipse = { cx: 3, cy: -2, rx, ry, rotation };
          const distance = distanceToEllipse(ellipse, x, y);
          if (insideEllipse(ellipse, x, y)) {
            expect(distance).toBe(0);
            return;
          }
          const sampled = Math.min(...ellipseOutline(ellipse, 20_000).map((p) => Math.hypot(p.x - x, p.y - y)));
          // The exact distance is never more than the sampled one, and the samples are ≤ 2πr/20,000 apart.
          expect(distance).toBeLessThanOrEqual(sampled + 1e-9);
          expect(sampled - distance).toBeLessThanOrEqual((Math.PI * Math.max(rx, ry)) / 20_000 + 1e-9);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('says a disc touches exactly when it reaches the ellipse', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 30, noNaN: true }),
        fc.double({ min: 1, max: 30, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: 0.1, max: 20, noNaN: true }),
        (rx, ry, rotation, x, y, radius) => {
          const ellipse = { cx: 0, cy: 0, rx, ry, rotation };
          expect(discTouchesEllipse(ellipse, x, y, radius)).toBe(distanceToEllipse(ellipse, x, y) <= radius);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('exclusion zones', () => {
  const frame = retinaFrame({ x: 800, y: 600 }, 5);

  it('derives the µm radii of a drawn shape from the scale', () => {
    const zone = zoneOf('ONH', { center: { x: 1400, y: 560 }, radiusXPx: 150, radiusYPx: 180, rotationDeg: 20 }, { umPerPixel: 5 }, 200);
    expect(zone).toMatchObject({ radiusXUm: 750, radiusYUm: 900, rotationDeg: 20, marginUm: 200 });
  });

  it('turns a zone drawn clockwise on the image the other way in the retina frame (y up)', () => {
    const zone = zoneOf('ONH', { center: { x: 1400, y: 600 }, radiusXPx: 100, radiusYPx: 20, rotationDeg: 90 }, { umPerPixel: 5 });
    const ellipse = zoneInRetina(zone, frame);
    // Rotated 90° clockwise on the image, the long axis points down the image: along y in both frames.
    const below = toRetina(frame, imagePoint(1400, 690));
    const beside = toRetina(frame, imagePoint(1490, 600));
    expect(insideEllipse(ellipse, below.xUm, below.yUm)).toBe(true);
    expect(insideEllipse(ellipse, beside.xUm, beside.yUm)).toBe(false);
  });

  it('moves the FAZ with the fovea and leaves the ONH with the disc', () => {
    const faz = zoneOf('FAZ', { center: { x: 800, y: 600 }, radiusXPx: 100, radiusYPx: 100 }, { umPerPixel: 5 });
    const onh = zoneOf('ONH', { center: { x: 1400, y: 560 }, radiusXPx: 150, radiusYPx: 150 }, { umPerPixel: 5 });
    const moved = moveFovea({ faz, onh }, { x: 800, y: 600 }, { x: 790, y: 615 });
    expect(moved.faz.center).toEqual({ x: 790, y: 615 });
    expect(moved.onh).toBe(onh);
  });

  it('finds overlapping zones, one inside the other included', () => {
    const a = { cx: 0, cy: 0, rx: 10, ry: 4, rotation: 0 };
    expect(zonesOverlap(a, { cx: 13, cy: 0, rx: 4, ry: 4, rotation: 0 })).toBe(true);
    expect(zonesOverlap(a, { cx: 15, cy: 0, rx: 4, ry: 4, rotation: 0 })).toBe(false);
    expect(zonesOverlap(a, { cx: 0, cy: 7, rx: 4, ry: 4, rotation: 0 })).toBe(true);
    expect(zonesOverlap(a, { cx: 0, cy: 9, rx: 4, ry: 4, rotation: 0 })).toBe(false);
    expect(zonesOverlap(a, { cx: 1, cy: 0, rx: 1, ry: 1, rotation: 0 })).toBe(true);
    expect(zonesOverlap({ cx: 1, cy: 0, rx: 1, ry: 1, rotation: 0 }, { cx: 0, cy: 0, rx: 100, ry: 100, rotation: 0 })).toBe(true);
  });
});
