import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkMarkShape, type MarkPoint, type MarkShape, polygonAreaPx, polygonPerimeterPx, polygonSelfIntersects, segmentsIntersect } from './mark-shape';

const IMAGE = { width: 1600, height: 1200 };
const p = (x: number, y: number): MarkPoint => ({ x, y });
const polygon = (...points: MarkPoint[]): MarkShape => ({ kind: 'polygon', points });

describe('checkMarkShape', () => {
  it('accepts each kind on the image, edges included', () => {
    expect(checkMarkShape({ kind: 'point', at: p(0, 0) }, IMAGE)).toBeNull();
    expect(checkMarkShape({ kind: 'point', at: p(1600, 1200) }, IMAGE)).toBeNull();
    expect(checkMarkShape({ kind: 'line', start: p(10, 10), end: p(110, 10) }, IMAGE)).toBeNull();
    expect(checkMarkShape({ kind: 'circle', center: p(100, 100), radiusPx: 100 }, IMAGE)).toBeNull();
    expect(checkMarkShape(polygon(p(0, 0), p(100, 0), p(0, 100)), IMAGE)).toBeNull();
  });

  it('refuses anything outside the image, naming the point', () => {
    expect(checkMarkShape({ kind: 'point', at: p(-0.01, 5) }, IMAGE)).toEqual({ code: 'annotation.outside_image', field: 'shape.at' });
    expect(checkMarkShape({ kind: 'line', start: p(10, 10), end: p(10, 1200.5) }, IMAGE)).toEqual({ code: 'annotation.outside_image', field: 'shape.end' });
    expect(checkMarkShape(polygon(p(0, 0), p(100, 0), p(1601, 100)), IMAGE)).toEqual({ code: 'annotation.outside_image', field: 'shape.points.2' });
    // A circle must lie on the image with all of its disc, not only its centre.
    expect(checkMarkShape({ kind: 'circle', center: p(50, 600), radiusPx: 60 }, IMAGE)).toEqual({ code: 'annotation.outside_image', field: 'shape.radiusPx' });
    expect(checkMarkShape({ kind: 'circle', center: p(1700, 600), radiusPx: 10 }, IMAGE)).toEqual({ code: 'annotation.outside_image', field: 'shape.center' });
  });

  it('refuses numbers that are not finite', () => {
    expect(checkMarkShape({ kind: 'point', at: p(Number.NaN, 5) }, IMAGE)?.code).toBe('annotation.not_finite');
    expect(checkMarkShape({ kind: 'line', start: p(1, 1), end: p(Number.POSITIVE_INFINITY, 1) }, IMAGE)).toEqual({ code: 'annotation.not_finite', field: 'shape.end' });
    expect(checkMarkShape({ kind: 'circle', center: p(100, 100), radiusPx: Number.NaN }, IMAGE)).toEqual({ code: 'annotation.not_finite', field: 'shape.radiusPx' });
  });

  it('refuses shapes without extent: a line of no length, a circle of no radius', () => {
    expect(checkMarkShape({ kind: 'line', start: p(5, 5), end: p(5, 5) }, IMAGE)?.code).toBe('annotation.line_degenerate');
    expect(checkMarkShape({ kind: 'circle', center: p(100, 100), radiusPx: 0 }, IMAGE)?.code).toBe('annotation.circle_degenerate');
    expect(checkMarkShape({ kind: 'circle', center: p(100, 100), radiusPx: -3 }, IMAGE)?.code).toBe('annotation.circle_degenerate');
  });

  it('counts a polygon’s vertices: 3 to 100', () => {
    expect(checkMarkShape(polygon(p(0, 0), p(10, 0)), IMAGE)).toEqual({ code: 'annotation.polygon_vertex_count', field: 'shape.points' });
    const ring = (n: number) => polygon(...Array.from({ length: n }, (_, i) => p(600 + 500 * Math.cos((2 * Math.PI * i) / n), 600 + 500 * Math.sin((2 * Math.PI * i) / n))));
    expect(checkMarkShape(ring(100), IMAGE)).toBeNull();
    expect(checkMarkShape(ring(101), IMAGE)?.code).toBe('annotation.polygon_vertex_count');
  });

  it('refuses a polygon without area: collinear vertices, a repeated vertex, the first repeated at the end', () => {
    expect(checkMarkShape(polygon(p(0, 0), p(50, 50), p(100, 100)), IMAGE)?.code).toBe('annotation.polygon_degenerate');
    expect(checkMarkShape(polygon(p(0, 0), p(100, 0), p(100, 0), p(0, 100)), IMAGE)).toEqual({ code: 'annotation.polygon_degenerate', field: 'shape.points.2' });
    expect(checkMarkShape(polygon(p(0, 0), p(100, 0), p(0, 100), p(0, 0)), IMAGE)).toEqual({ code: 'annotation.polygon_degenerate', field: 'shape.points.0' });
  });

  it('refuses a polygon that crosses or touches itself', () => {
    const bowTie = polygon(p(0, 0), p(100, 100), p(100, 0), p(0, 100));
    expect(checkMarkShape(bowTie, IMAGE)).toEqual({ code: 'annotation.polygon_self_intersecting', field: 'shape.points' });
    // Two loops joined at one vertex.
    expect(checkMarkShape(polygon(p(0, 0), p(50, 50), p(100, 0), p(100, 100), p(50, 50), p(0, 100)), IMAGE)?.code).toBe('annotation.polygon_self_intersecting');
    // An outline that runs back along itself (a spike).
    expect(checkMarkShape(polygon(p(0, 0), p(100, 0), p(100, 100), p(100, 50)), IMAGE)?.code).toBe('annotation.polygon_self_intersecting');
  });
});

describe('segments and outlines', () => {
  it('finds crossings, touches and collinear overlaps; not parallel neighbours', () => {
    expect(segmentsIntersect(p(0, 0), p(10, 10), p(0, 10), p(10, 0))).toBe(true);
    expect(segmentsIntersect(p(0, 0), p(10, 0), p(5, 0), p(5, 5))).toBe(true);
    expect(segmentsIntersect(p(0, 0), p(10, 0), p(5, 0), p(20, 0))).toBe(true);
    expect(segmentsIntersect(p(0, 0), p(10, 0), p(11, 0), p(20, 0))).toBe(false);
    expect(segmentsIntersect(p(0, 0), p(10, 0), p(0, 1), p(10, 1))).toBe(false);
  });

  it('gives a square’s area and outline', () => {
    const square = [p(10, 10), p(110, 10), p(110, 110), p(10, 110)];
    expect(polygonAreaPx(square)).toBe(10_000);
    expect(polygonAreaPx([...square].reverse())).toBe(10_000);
    expect(polygonPerimeterPx(square)).toBe(400);
  });

  const convexPolygon = fc
    .record({
      cx: fc.double({ min: 300, max: 1300, noNaN: true }),
      cy: fc.double({ min: 300, max: 900, noNaN: true }),
      r: fc.double({ min: 5, max: 290, noNaN: true }),
      angles: fc.uniqueArray(fc.integer({ min: 0, max: 3599 }), { minLength: 3, maxLength: 100 }),
    })
    .map(({ cx, cy, r, angles }) =>
      [...angles].sort((a, b) => a - b).map((tenth) => p(cx + r * Math.cos((tenth * Math.PI) / 1800), cy + r * Math.sin((tenth * Math.PI) / 1800))),
    )
    .filter((points) => polygonAreaPx(points) > 1);

  it('accepts every convex polygon inscribed in a circle on the image', () => {
    fc.assert(fc.property(convexPolygon, (points) => checkMarkShape(polygon(...points), IMAGE) === null));
  });

  it('finds the crossing when two vertices of a convex polygon trade places', () => {
    fc.assert(
      fc.property(
        convexPolygon.filter((points) => points.length >= 4),
        fc.nat(),
        (points, pick) => {
          // Trading vertices i+1 and i+2 makes edges i→i+2 and i+1→i+3 cross (inside a convex outline).
          const i = pick % points.length;
          const j = (i + 1) % points.length;
          const k = (i + 2) % points.length;
          const swapped = [...points];
          [swapped[j], swapped[k]] = [swapped[k], swapped[j]];
          expect(polygonSelfIntersects(swapped)).toBe(true);
        },
      ),
    );
  });

  it('keeps the area under a shift and scales it with the square of a zoom', () => {
    fc.assert(
      fc.property(convexPolygon, fc.double({ min: -200, max: 200, noNaN: true }), fc.double({ min: 0.5, max: 3, noNaN: true }), (points, shift, zoom) => {
        const area = polygonAreaPx(points);
        expect(polygonAreaPx(points.map(({ x, y }) => p(x + shift, y - shift)))).toBeCloseTo(area, 6);
        expect(polygonAreaPx(points.map(({ x, y }) => p(x * zoom, y * zoom))) / (area * zoom * zoom)).toBeCloseTo(1, 9);
      }),
    );
  });
});
