// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Point, Raster } from './raster';
import {
  DISC_FOVEA_DISTANCE_UM,
  DISC_FOVEA_FIELD_RATIO,
  DISC_FOVEA_RELATIVE_SD,
  paintSyntheticFundus,
  type SyntheticFundus,
} from './synthetic-fundus';

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Mean brightness (R + G + B) / 3 of the pixels whose centres lie between two radii around a point. */
function meanBrightness(raster: Raster, center: Point, innerRadius: number, outerRadius: number): number {
  let sum = 0;
  let count = 0;
  for (let y = Math.max(0, Math.floor(center.y - outerRadius)); y < Math.min(raster.height, center.y + outerRadius); y++) {
    for (let x = Math.max(0, Math.floor(center.x - outerRadius)); x < Math.min(raster.width, center.x + outerRadius); x++) {
      const d = Math.hypot(x + 0.5 - center.x, y + 0.5 - center.y);
      if (d < innerRadius || d >= outerRadius) continue;
      const o = (y * raster.width + x) * 3;
      sum += raster.data[o] + raster.data[o + 1] + raster.data[o + 2];
      count++;
    }
  }
  return sum / count / 3;
}

function sameBytes(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const paint = (seed: number, eye: 'OD' | 'OS' = 'OD', width = 800, height = 600) =>
  paintSyntheticFundus({ seed, eye, width, height });

const SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);
const fundi: SyntheticFundus[] = SEEDS.map((seed) => paint(seed, seed % 2 ? 'OD' : 'OS'));

describe('paintSyntheticFundus', () => {
  it('paints 1600 × 1200 RGB by default, the same pixels for the same seed and others for another', () => {
    const a = paintSyntheticFundus({ seed: 21, eye: 'OD' });
    expect(a.raster.width).toBe(1600);
    expect(a.raster.height).toBe(1200);
    expect(a.raster.data).toHaveLength(1600 * 1200 * 3);
    const again = paintSyntheticFundus({ seed: 21, eye: 'OD' });
    expect(again.truth).toEqual(a.truth);
    expect(sameBytes(again.raster.data, a.raster.data)).toBe(true);
    const other = paint(22);
    expect(other.truth).not.toEqual(paint(21).truth);
    expect(sameBytes(other.raster.data, paint(21).raster.data)).toBe(false);
  });

  it('keeps the surround black and the field of view lit', () => {
    for (const { raster } of fundi) {
      for (const [x, y] of [
        [0, 0],
        [raster.width - 1, 0],
        [0, raster.height - 1],
        [raster.width - 1, raster.height - 1],
      ]) {
        const o = (y * raster.width + x) * 3;
        expect([raster.data[o], raster.data[o + 1], raster.data[o + 2]]).toEqual([0, 0, 0]);
      }
      const center = { x: raster.width / 2, y: raster.height / 2 };
      expect(meanBrightness(raster, center, 0, raster.height * 0.4)).toBeGreaterThan(30);
    }
  });

  it('places the disc and the fovea inside the field of view', () => {
    for (const { raster, truth } of fundi) {
      const center = { x: raster.width / 2, y: raster.height / 2 };
      const fieldRadius = Math.min(raster.width, raster.height) / 2;
      expect(distance(truth.opticDisc.center, center) + truth.opticDisc.radiusPx).toBeLessThan(0.97 * fieldRadius);
      expect(distance(truth.fovea, center)).toBeLessThan(0.3 * fieldRadius);
    }
  });

  it('paints the disc brighter than the fundus around it', () => {
    for (const { raster, truth } of fundi) {
      const { center, radiusPx } = truth.opticDisc;
      const disc = meanBrightness(raster, center, 0, 0.7 * radiusPx);
      const around = meanBrightness(raster, center, 1.6 * radiusPx, 2.4 * radiusPx);
      expect(disc).toBeGreaterThan(1.3 * around);
    }
  });

  it('paints the fovea darker than the ring around it', () => {
    for (const { raster, truth, umPerPixel } of fundi) {
      const fovea = meanBrightness(raster, truth.fovea, 0, 150 / umPerPixel);
      const ring = meanBrightness(raster, truth.fovea, 1200 / umPerPixel, 1800 / umPerPixel);
      expect(fovea).toBeLessThan(0.85 * ring);
    }
  });

  it('lays out a right eye with the disc to the right of the fovea and a left eye as its mirror image', () => {
    const right = paint(5, 'OD');
    const left = paint(5, 'OS');
    const width = right.raster.width;
    expect(right.truth.opticDisc.center.x).toBeGreaterThan(right.truth.fovea.x);
    expect(left.truth.opticDisc.center.x).toBeLessThan(left.truth.fovea.x);
    expect(left.truth.opticDisc.center.x).toBeCloseTo(width - right.truth.opticDisc.center.x, 9);
    expect(left.truth.fovea.x).toBeCloseTo(width - right.truth.fovea.x, 9);
    expect(left.truth.opticDisc.center.y).toBe(right.truth.opticDisc.center.y);
    expect(left.truth.fovea.y).toBe(right.truth.fovea.y);
    expect(left.truth.opticDisc.radiusPx).toBe(right.truth.opticDisc.radiusPx);
    expect(left.umPerPixel).toBe(right.umPerPixel);
    const row = 300;
    for (const x of [0, 123, 400, 677, width - 1]) {
      const l = (row * width + x) * 3;
      const r = (row * width + (width - 1 - x)) * 3;
      expect([...left.raster.data.subarray(l, l + 3)]).toEqual([...right.raster.data.subarray(r, r + 3)]);
    }
  });

  it('keeps the anatomy within the priors: disc size, disc–fovea distance and angle, scale', () => {
    for (const { raster, truth, umPerPixel } of fundi) {
      const discFovea = distance(truth.opticDisc.center, truth.fovea);
      // The field's diameter is 93–97.5 % of the frame's short side.
      const side = Math.min(raster.width, raster.height);
      const ratio = discFovea / side;
      const spread = 2.5 * DISC_FOVEA_RELATIVE_SD;
      expect(ratio).toBeGreaterThanOrEqual(0.93 * DISC_FOVEA_FIELD_RATIO * (1 - spread) - 1e-9);
      expect(ratio).toBeLessThanOrEqual(0.975 * DISC_FOVEA_FIELD_RATIO * (1 + spread) + 1e-9);
      const discDiameter = (2 * truth.opticDisc.radiusPx) / side;
      expect(discDiameter).toBeGreaterThanOrEqual(0.93 / 8.5 - 1e-9);
      expect(discDiameter).toBeLessThanOrEqual(0.975 / 7 + 1e-9);
      // The fovea lies 4–10° below the horizontal through the disc centre, temporal to it.
      const below = Math.asin((truth.fovea.y - truth.opticDisc.center.y) / discFovea) / (Math.PI / 180);
      expect(below).toBeGreaterThanOrEqual(4 - 1e-9);
      expect(below).toBeLessThanOrEqual(10 + 1e-9);
      expect(umPerPixel).toBeCloseTo(DISC_FOVEA_DISTANCE_UM / discFovea, 9);
      // A disc of about 1.8 mm.
      expect(2 * truth.opticDisc.radiusPx * umPerPixel).toBeGreaterThan(1300);
      expect(2 * truth.opticDisc.radiusPx * umPerPixel).toBeLessThan(2300);
    }
  });

  it('spreads the disc–fovea distance around the median like the IDRiD priors', () => {
    const ratios = SEEDS.concat(Array.from({ length: 28 }, (_, i) => 100 + i)).map((seed) => {
      const { truth } = paint(seed, 'OD', 256, 256);
      return distance(truth.opticDisc.center, truth.fovea) / 256;
    });
    const mean = ratios.reduce((sum, r) => sum + r, 0) / ratios.length;
    const sd = Math.sqrt(ratios.reduce((sum, r) => sum + (r - mean) ** 2, 0) / ratios.length);
    // Field diameter ≈ 0.95 of the side; relative SD ≈ 6 % plus the field's own ±2.5 %.
    expect(mean / (0.9525 * DISC_FOVEA_FIELD_RATIO)).toBeGreaterThan(0.95);
    expect(mean / (0.9525 * DISC_FOVEA_FIELD_RATIO)).toBeLessThan(1.05);
    expect(sd / mean).toBeGreaterThan(0.03);
    expect(sd / mean).toBeLessThan(0.1);
  });

  it('scales the same anatomy with the image size, from 256 px to 4096 px', () => {
    const small = paint(9, 'OD', 400, 300);
    const large = paint(9, 'OD', 1600, 1200);
    expect(large.truth.fovea.x).toBeCloseTo(4 * small.truth.fovea.x, 6);
    expect(large.truth.fovea.y).toBeCloseTo(4 * small.truth.fovea.y, 6);
    expect(large.truth.opticDisc.radiusPx).toBeCloseTo(4 * small.truth.opticDisc.radiusPx, 6);
    expect(large.umPerPixel).toBeCloseTo(small.umPerPixel / 4, 9);

    for (const [width, height] of [
      [256, 256],
      [300, 500],
    ]) {
      const fundus = paint(9, 'OS', width, height);
      expect(fundus.raster.data).toHaveLength(width * height * 3);
      const disc = meanBrightness(fundus.raster, fundus.truth.opticDisc.center, 0, 0.7 * fundus.truth.opticDisc.radiusPx);
      const fovea = meanBrightness(fundus.raster, fundus.truth.fovea, 0, 2);
      expect(disc).toBeGreaterThan(fovea);
    }
    // The largest frame: only its geometry is checked here, painting it is the benchmark's job.
    const widest = paintSyntheticFundus({ seed: 9, eye: 'OD', width: 4096, height: 256 });
    expect(widest.truth.opticDisc.center.x).toBeGreaterThan(2048);
  });

  it('refuses sizes outside 256 … 4096 and fractional sizes', () => {
    expect(() => paint(1, 'OD', 255, 300)).toThrow(RangeError);
    expect(() => paint(1, 'OD', 300, 4097)).toThrow(RangeError);
    expect(() => paint(1, 'OD', 300.5, 300)).toThrow(RangeError);
  });
});
