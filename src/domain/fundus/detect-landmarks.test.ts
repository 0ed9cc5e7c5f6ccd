// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectLandmarks, type DetectionOptions, type LandmarkDetection } from './detect-landmarks';
import { createRaster, type Point, type Raster } from './raster';
import { paintSyntheticFundus, type SyntheticFundus } from './synthetic-fundus';

const SEEDS = [1, 2, 3, 4, 5, 6];
const exams = new Map<string, SyntheticFundus>();

/** Odd seeds are right eyes, even seeds left eyes (as in the benchmark). */
function exam(seed: number, width = 640, height = 480): SyntheticFundus {
  const key = `${seed}:${width}x${height}`;
  let painted = exams.get(key);
  if (!painted) {
    painted = paintSyntheticFundus({ width, height, eye: eyeOf(seed), seed });
    exams.set(key, painted);
  }
  return painted;
}

const eyeOf = (seed: number) => (seed % 2 === 1 ? 'OD' : 'OS');
const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Errors in disc diameters of the truth. */
function errors(found: LandmarkDetection, painted: SyntheticFundus): { fovea: number; disc: number } {
  const dd = 2 * painted.truth.opticDisc.radiusPx;
  return {
    fovea: distance(found.fovea, painted.truth.fovea) / dd,
    disc: distance(found.opticDisc.center, painted.truth.opticDisc.center) / dd,
  };
}

function mirrored(raster: Raster): Raster {
  const out = createRaster(raster.width, raster.height);
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      const from = (y * raster.width + x) * 3;
      out.data.set(raster.data.subarray(from, from + 3), (y * raster.width + raster.width - 1 - x) * 3);
    }
  }
  return out;
}

function expectWellFormed(found: LandmarkDetection, width: number, height: number): void {
  for (const p of [found.fovea, found.opticDisc.center]) {
    expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
    expect(p.x).toBeGreaterThanOrEqual(0);
    expect(p.x).toBeLessThanOrEqual(Math.max(0, width));
    expect(p.y).toBeGreaterThanOrEqual(0);
    expect(p.y).toBeLessThanOrEqual(Math.max(0, height));
  }
  expect(Number.isFinite(found.opticDisc.radiusPx) && found.opticDisc.radiusPx > 0).toBe(true);
  for (const c of [found.confidence.opticDisc, found.confidence.fovea]) {
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBeLessThanOrEqual(1);
  }
}

describe('detectLandmarks on generated exams', () => {
  it('finds the fovea and the optic disc within a quarter disc diameter with the exam hints', () => {
    for (const seed of SEEDS) {
      const painted = exam(seed);
      const found = detectLandmarks(painted.raster, { eye: eyeOf(seed), umPerPixel: painted.umPerPixel });
      const e = errors(found, painted);
      expect(e.fovea, `fovea, seed ${seed}`).toBeLessThan(0.25);
      expect(e.disc, `disc, seed ${seed}`).toBeLessThan(0.25);
      expect(found.opticDisc.radiusPx / painted.truth.opticDisc.radiusPx, `radius, seed ${seed}`).toBeGreaterThan(0.6);
      expect(found.opticDisc.radiusPx / painted.truth.opticDisc.radiusPx, `radius, seed ${seed}`).toBeLessThan(1.4);
      expect(found.confidence.opticDisc, `disc confidence, seed ${seed}`).toBeGreaterThan(0.5);
      expect(found.confidence.fovea, `fovea confidence, seed ${seed}`).toBeGreaterThan(0.3);
    }
  });

  it('finds them without hints too: the scale from the aperture, the side from the image', () => {
    for (const seed of SEEDS) {
      const painted = exam(seed);
      const e = errors(detectLandmarks(painted.raster), painted);
      expect(e.fovea, `fovea, seed ${seed}`).toBeLessThan(0.25);
      expect(e.disc, `disc, seed ${seed}`).toBeLessThan(0.25);
    }
  });

  it('searches the fovea only on the side the eye hint names', () => {
    const painted = exam(1); // a right eye: the disc is right of the fovea
    const right = detectLandmarks(painted.raster, { eye: 'OD' });
    expect(right.fovea.x).toBeLessThan(right.opticDisc.center.x);
    const wrongHint = detectLandmarks(painted.raster, { eye: 'OS' });
    expect(wrongHint.fovea.x).toBeGreaterThan(wrongHint.opticDisc.center.x);
  });

  it('mirrors its findings when the photo is mirrored', () => {
    const painted = exam(3);
    const { width } = painted.raster;
    const dd = 2 * painted.truth.opticDisc.radiusPx;
    const found = detectLandmarks(painted.raster);
    const flipped = detectLandmarks(mirrored(painted.raster));
    expect(Math.abs(flipped.fovea.x - (width - found.fovea.x)) / dd).toBeLessThan(0.1);
    expect(Math.abs(flipped.fovea.y - found.fovea.y) / dd).toBeLessThan(0.1);
    expect(Math.abs(flipped.opticDisc.center.x - (width - found.opticDisc.center.x)) / dd).toBeLessThan(0.1);
  });

  it("reports positions in the input raster's pixels whatever its size", () => {
    const small = exam(2, 400, 300);
    const large = exam(2, 1600, 1200);
    const onSmall = detectLandmarks(small.raster, { eye: 'OS' });
    const onLarge = detectLandmarks(large.raster, { eye: 'OS' });
    expect(errors(onSmall, small).fovea).toBeLessThan(0.25);
    expect(errors(onLarge, large).fovea).toBeLessThan(0.25);
    const ratio = 1600 / 400;
    const scaledUp = { x: onSmall.fovea.x * ratio, y: onSmall.fovea.y * ratio };
    expect(distance(scaledUp, onLarge.fovea) / (2 * large.truth.opticDisc.radiusPx)).toBeLessThan(0.15);
  });
});

describe('detectLandmarks on images without a fundus', () => {
  it('gives the anatomical default with zero confidence for a uniform image', () => {
    const raster = createRaster(400, 300);
    raster.data.fill(128);
    for (const eye of ['OD', 'OS', null] as const) {
      const found = detectLandmarks(raster, { eye });
      expect(found.confidence).toEqual({ opticDisc: 0, fovea: 0 });
      expect(found.fovea).toEqual({ x: 200, y: 150 });
      // Nasal: right of the fovea for a right eye (and an unknown one), left for a left eye.
      if (eye === 'OS') expect(found.opticDisc.center.x).toBeLessThan(200);
      else expect(found.opticDisc.center.x).toBeGreaterThan(200);
      expectWellFormed(found, 400, 300);
    }
  });

  it('gives low confidence for noise', () => {
    const raster = createRaster(400, 300);
    let state = 12345;
    for (let i = 0; i < raster.data.length; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      raster.data[i] = state >>> 24;
    }
    const found = detectLandmarks(raster);
    expectWellFormed(found, 400, 300);
    expect(found.confidence.opticDisc).toBeLessThan(0.3);
    expect(found.confidence.fovea).toBeLessThan(0.3);
  });

  it('never throws, whatever the raster and options, and stays inside the image', () => {
    const options = fc.record({
      eye: fc.constantFrom<DetectionOptions['eye']>('OD', 'OS', null, undefined),
      umPerPixel: fc.constantFrom<number | null | undefined>(null, undefined, Number.NaN, -3, 0, 0.01, 6, 1e6),
    });
    const raster = fc
      .record({
        width: fc.integer({ min: 0, max: 60 }),
        height: fc.integer({ min: 0, max: 60 }),
        fill: fc.constantFrom('black', 'white', 'random', 'short'),
        seed: fc.integer(),
      })
      .map(({ width, height, fill, seed }): Raster => {
        const r = createRaster(width, height);
        if (fill === 'white') r.data.fill(255);
        if (fill === 'random') for (let i = 0; i < r.data.length; i++) r.data[i] = (seed * (i + 7919)) >>> 23;
        return fill === 'short' ? { ...r, data: r.data.subarray(0, Math.floor(r.data.length / 2)) } : r;
      });
    fc.assert(
      fc.property(raster, options, (r, o) => {
        expectWellFormed(detectLandmarks(r, o), r.width, r.height);
      }),
      { numRuns: 60 },
    );
  });

  it('copes with a black frame-sized photo and a very elongated one', () => {
    expectWellFormed(detectLandmarks(createRaster(1200, 900), { eye: 'OD', umPerPixel: 6 }), 1200, 900);
    const strip = createRaster(2000, 20);
    strip.data.fill(90);
    expectWellFormed(detectLandmarks(strip), 2000, 20);
  });
});
