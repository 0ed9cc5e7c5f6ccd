// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paintSyntheticFundus } from '../fundus/synthetic-fundus';
import { carryEarlierPlan, registerEarlierImage, spotsOverEarlier } from './earlier-treatment';
import { applySimilarity, composeSimilarity, type Similarity } from './similarity';
import { warpRaster } from './warp';

const turnAbout = (deg: number, scale: number, cx: number, cy: number, shift: { x: number; y: number }): Similarity => {
  const rad = (deg * Math.PI) / 180;
  return composeSimilarity(
    { a: 1, b: 0, tx: -cx, ty: -cy },
    { a: scale * Math.cos(rad), b: scale * Math.sin(rad), tx: cx + shift.x, ty: cy + shift.y },
  );
};

// Five vessel refinements per registration: seconds on a loaded machine, not the unit default of five.
describe('registerEarlierImage', { timeout: 60_000 }, () => {
  const earlier = paintSyntheticFundus({ width: 800, height: 600, eye: 'OS', seed: 21 });
  const truth = turnAbout(9, 1.06, 400, 300, { x: 25, y: -18 });
  const today = warpRaster(earlier.raster, truth);
  const todayUmPerPixel = earlier.umPerPixel / 1.06;
  // Landmarks as a detector finds them: off by about σ (60 µm, here 2–3 px) in each image.
  const earlierLandmarks = { disc: { x: earlier.truth.opticDisc.center.x + 2, y: earlier.truth.opticDisc.center.y - 1 }, fovea: { x: earlier.truth.fovea.x - 2, y: earlier.truth.fovea.y + 1 } };
  const todayLandmarks = {
    disc: applySimilarity(truth, { x: earlier.truth.opticDisc.center.x - 1, y: earlier.truth.opticDisc.center.y + 2 }),
    fovea: applySimilarity(truth, { x: earlier.truth.fovea.x + 2, y: earlier.truth.fovea.y + 2 }),
  };

  it('refines by the vessels: earlier points land within a few µm of their place, and it says how sure it is', () => {
    const registration = registerEarlierImage(
      { raster: earlier.raster, landmarks: earlierLandmarks, umPerPixel: earlier.umPerPixel },
      { raster: today, landmarks: todayLandmarks, umPerPixel: todayUmPerPixel },
    );
    expect(registration?.method).toBe('vessels');
    expect(registration!.vesselAgreement).toBeGreaterThan(0.9);
    for (const point of [earlier.truth.fovea, earlier.truth.opticDisc.center, { x: 300, y: 250 }]) {
      const want = applySimilarity(truth, point);
      const got = applySimilarity(registration!.transform, point);
      expect(Math.hypot(got.x - want.x, got.y - want.y) * todayUmPerPixel).toBeLessThan(15);
    }
    // Never surer than one working pixel of the refinement (here the image itself: 800 px).
    expect(registration!.uncertaintyUm).toBeGreaterThanOrEqual(todayUmPerPixel - 1e-9);
    expect(registration!.uncertaintyUm).toBeLessThan(2 * todayUmPerPixel);
  });

  it('falls back to the disc and fovea when the vessels do not agree (another eye), with a wider uncertainty', () => {
    const other = paintSyntheticFundus({ width: 800, height: 600, eye: 'OS', seed: 22 });
    const registration = registerEarlierImage(
      { raster: other.raster, landmarks: { disc: other.truth.opticDisc.center, fovea: other.truth.fovea }, umPerPixel: other.umPerPixel },
      { raster: today, landmarks: todayLandmarks, umPerPixel: todayUmPerPixel },
    );
    expect(registration?.method).toBe('landmarks');
    expect(registration!.vesselAgreement ?? 0).toBeLessThan(0.6);
    // σ = 60 µm per landmark, carried to 3 mm from the fovea: well over 100 µm.
    expect(registration!.uncertaintyUm).toBeGreaterThan(100);
    const fovea = applySimilarity(registration!.transform, other.truth.fovea);
    expect(Math.hypot(fovea.x - todayLandmarks.fovea.x, fovea.y - todayLandmarks.fovea.y)).toBeLessThan(1e-6);
  });

  it('gives nothing when disc and fovea coincide', () => {
    const same = { disc: { x: 100, y: 100 }, fovea: { x: 100, y: 100 } };
    expect(registerEarlierImage({ raster: earlier.raster, landmarks: same, umPerPixel: 10 }, { raster: today, landmarks: same, umPerPixel: 10 })).toBeNull();
  });
});

describe('carryEarlierPlan', () => {
  it('carries enabled spots and turns and scales the zones with the transform', () => {
    const t = turnAbout(90, 2, 0, 0, { x: 10, y: 0 });
    const carried = carryEarlierPlan(t, {
      spots: [
        { x: 1, y: 0, enabled: true, powerMw: 80 },
        { x: 5, y: 5, enabled: false, powerMw: 80 },
        { x: 0, y: 1, enabled: true },
      ],
      zones: [{ kind: 'FAZ', center: { x: 1, y: 1 }, radiusXPx: 3, radiusYPx: 2, rotationDeg: 120 }],
    });
    expect(carried.spots.map((s) => [Math.round(s.x), Math.round(s.y), s.powerMw])).toEqual([
      [10, 2, 80],
      [8, 0, null],
    ]);
    expect(carried.zones[0].radiusXPx).toBeCloseTo(6);
    expect(carried.zones[0].radiusYPx).toBeCloseTo(4);
    expect(carried.zones[0].rotationDeg).toBeCloseTo(-150);
  });
});

describe('spotsOverEarlier', () => {
  it('finds exactly the spots a pairwise check finds', () => {
    const point = fc.record({ x: fc.double({ min: 0, max: 200, noNaN: true }), y: fc.double({ min: 0, max: 200, noNaN: true }) });
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: point.map((p) => p.x), y: point.map((p) => p.y), enabled: fc.boolean() }), { maxLength: 60 }),
        fc.array(point, { maxLength: 60 }),
        fc.double({ min: 0.5, max: 30, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (spots, earlier, diameter, uncertainty) => {
          const today = spots.map((spot, id) => ({ ...spot, id }));
          const reach = diameter + uncertainty;
          const expected = today
            .filter((spot) => spot.enabled && earlier.some((p) => Math.hypot(p.x - spot.x, p.y - spot.y) < reach))
            .map((spot) => spot.id);
          expect(spotsOverEarlier(today, earlier, diameter, uncertainty)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
