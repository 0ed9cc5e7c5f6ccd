// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Point } from '../fundus/raster';
import {
  applySimilarity,
  composeSimilarity,
  fitSimilarity,
  IDENTITY,
  invertSimilarity,
  mappingUncertainty,
  rotationDegOf,
  scaleOf,
  type Similarity,
} from './similarity';

const coordinate = fc.double({ min: -3000, max: 3000, noNaN: true });
const point = fc.record({ x: coordinate, y: coordinate });
/** Rotations within ±180°, scales 0.5–2, shifts within ±2000 px. */
const similarity = fc
  .record({
    angle: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
    scale: fc.double({ min: 0.5, max: 2, noNaN: true }),
    tx: fc.double({ min: -2000, max: 2000, noNaN: true }),
    ty: fc.double({ min: -2000, max: 2000, noNaN: true }),
  })
  .map(({ angle, scale, tx, ty }): Similarity => ({ a: scale * Math.cos(angle), b: scale * Math.sin(angle), tx, ty }));

const close = (p: Point, q: Point, tolerance = 1e-6) => Math.hypot(p.x - q.x, p.y - q.y) <= tolerance * (1 + Math.hypot(q.x, q.y));

describe('similarity transforms', () => {
  it('reads rotation and scale, and maps a point as rotation, scale and shift', () => {
    const t: Similarity = { a: 0, b: 2, tx: 10, ty: 20 };
    expect(scaleOf(t)).toBe(2);
    expect(rotationDegOf(t)).toBe(90);
    expect(applySimilarity(t, { x: 1, y: 0 })).toEqual({ x: 10, y: 22 });
    expect(applySimilarity(IDENTITY, { x: 3, y: 4 })).toEqual({ x: 3, y: 4 });
  });

  it('undoes itself with its inverse, and composes in order', () => {
    fc.assert(
      fc.property(similarity, similarity, point, (t, u, p) => {
        expect(close(applySimilarity(invertSimilarity(t), applySimilarity(t, p)), p)).toBe(true);
        expect(close(applySimilarity(composeSimilarity(t, u), p), applySimilarity(u, applySimilarity(t, p)))).toBe(true);
      }),
    );
  });

  it('finds from two landmark pairs the transform that made them, exactly', () => {
    fc.assert(
      fc.property(similarity, point, point, point, (t, disc, fovea, spot) => {
        fc.pre(Math.hypot(disc.x - fovea.x, disc.y - fovea.y) > 10);
        const fitted = fitSimilarity([disc, fovea], [applySimilarity(t, disc), applySimilarity(t, fovea)])!;
        expect(close(applySimilarity(fitted, spot), applySimilarity(t, spot), 1e-6)).toBe(true);
      }),
    );
  });

  it('fits many pairs in the least-squares sense, and refuses what has no rotation or scale to read', () => {
    const t: Similarity = { a: 0.9, b: 0.2, tx: 30, ty: -12 };
    const from = [
      { x: 0, y: 0 },
      { x: 400, y: 0 },
      { x: 0, y: 300 },
      { x: 250, y: 250 },
    ];
    const fitted = fitSimilarity(from, from.map((p) => applySimilarity(t, p)))!;
    for (const key of ['a', 'b', 'tx', 'ty'] as const) expect(fitted[key]).toBeCloseTo(t[key], 9);
    expect(fitSimilarity([{ x: 5, y: 5 }, { x: 5, y: 5 }], [{ x: 0, y: 0 }, { x: 1, y: 1 }])).toBeNull();
    expect(fitSimilarity([{ x: 0, y: 0 }], [{ x: 0, y: 0 }])).toBeNull();
    expect(fitSimilarity([{ x: 0, y: 0 }, { x: 1, y: 0 }], [{ x: 0, y: 0 }])).toBeNull();
  });

  it('estimates how far mapped points may be off: none without landmark error, more far from the landmarks', () => {
    const disc = { x: 400, y: 600 };
    const fovea = { x: 1100, y: 620 };
    const t: Similarity = { a: 1.02, b: 0.05, tx: 20, ty: -8 };
    const target = [applySimilarity(t, disc), applySimilarity(t, fovea)];
    const between = { x: 750, y: 610 };
    const far = { x: 1600, y: 1100 };
    expect(mappingUncertainty([disc, fovea], target, [between], { from: 0, to: 0 })!.maxRmsPx).toBeCloseTo(0, 9);
    const estimate = mappingUncertainty([disc, fovea], target, [between, far], { from: 3, to: 3 }, 400, 7)!;
    expect(estimate.rmsPx[0]).toBeGreaterThan(1);
    expect(estimate.rmsPx[1]).toBeGreaterThan(estimate.rmsPx[0]);
    expect(estimate.maxRmsPx).toBe(estimate.rmsPx[1]);
    // Reproducible from its seed.
    expect(mappingUncertainty([disc, fovea], target, [far], { from: 3, to: 3 }, 400, 7)!.rmsPx[0]).toBe(estimate.rmsPx[1]);
  });
});
