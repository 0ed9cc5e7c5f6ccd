// The brightness a spot reads and what the power follows from it, against plain computations: every pixel's
// luma summed by hand, the pixels whose centres lie in the spot counted one by one, and the limits of ordinary
// fundus met exactly. Seeded and example-based, so that each case reads the same in the mutation run.
import { describe, expect, it } from 'vitest';
import { createRaster, type Raster } from '../fundus/raster';
import { brightnessModel, brightnessOutlier, footprintBrightness, lumaMap, median, powerFactor, withinPowerLimits } from './brightness';

/** A small image whose every pixel differs in each channel (a seeded linear congruential sequence). */
function speckledRaster(width: number, height: number, seed = 7): Raster {
  const raster = createRaster(width, height);
  let state = seed;
  for (let k = 0; k < raster.data.length; k++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    raster.data[k] = state % 256;
  }
  return raster;
}

const lumaOf = (raster: Raster, column: number, row: number) => {
  const k = (row * raster.width + column) * 3;
  return Math.round(0.2126 * raster.data[k] + 0.7152 * raster.data[k + 1] + 0.0722 * raster.data[k + 2]);
};

/** The mean luma (0–1) of the pixels whose centres lie in the disc, counted one by one; the centre pixel for none. */
function countedBrightness(raster: Raster, x: number, y: number, radiusPx: number): number {
  let sum = 0;
  let count = 0;
  for (let row = 0; row < raster.height; row++) {
    for (let column = 0; column < raster.width; column++) {
      if ((column + 0.5 - x) ** 2 + (row + 0.5 - y) ** 2 <= radiusPx ** 2) {
        sum += lumaOf(raster, column, row);
        count += 1;
      }
    }
  }
  if (count > 0) return sum / count / 255;
  const column = Math.min(raster.width - 1, Math.max(0, Math.floor(x)));
  const row = Math.min(raster.height - 1, Math.max(0, Math.floor(y)));
  return lumaOf(raster, column, row) / 255;
}

describe('lumaMap', () => {
  it('sums the Rec. 709 luma of each row from its first pixel, every row starting again at 0', () => {
    const raster = speckledRaster(7, 5);
    const map = lumaMap(raster);
    expect(map.rowSums).toHaveLength(8 * 5);
    for (let row = 0; row < 5; row++) {
      let sum = 0;
      expect(map.rowSums[row * 8]).toBe(0);
      for (let column = 0; column < 7; column++) {
        sum += lumaOf(raster, column, row);
        expect(map.rowSums[row * 8 + column + 1]).toBe(sum);
      }
    }
  });
});

describe('footprintBrightness', () => {
  const raster = speckledRaster(12, 9);
  const map = lumaMap(raster);

  it('is the mean of the pixels whose centres lie in the spot, edges and corners of the image included', () => {
    let state = 11;
    const next = () => (state = (state * 69069 + 1) % 4294967296) / 4294967296;
    for (let n = 0; n < 400; n++) {
      const x = -2 + next() * 16;
      const y = -2 + next() * 13;
      const radius = next() * 5;
      expect(footprintBrightness(map, x, y, radius), `(${x}, ${y}) r ${radius}`).toBeCloseTo(countedBrightness(raster, x, y, radius), 12);
    }
  });

  it('counts a pixel whose centre lies exactly on the spot\'s edge', () => {
    // Centre on a pixel centre, radius 2: the centres 2 px left, right, above and below are on the edge.
    for (const [x, y, radius] of [
      [5.5, 4.5, 2],
      [5.5, 4.5, 1],
      [6, 4, Math.SQRT2 / 2],
      [0.5, 0.5, 3],
      [11.5, 8.5, 3],
    ]) {
      expect(footprintBrightness(map, x, y, radius), `(${x}, ${y}) r ${radius}`).toBeCloseTo(countedBrightness(raster, x, y, radius), 12);
    }
  });

  it('reads the pixel under the centre when the spot holds no pixel centre, clamped to the image', () => {
    expect(footprintBrightness(map, 3.9, 2.1, 0.1)).toBe(lumaOf(raster, 3, 2) / 255);
    expect(footprintBrightness(map, -4, 20, 0.1)).toBe(lumaOf(raster, 0, 8) / 255);
    expect(footprintBrightness(map, 30, -3, 0)).toBe(lumaOf(raster, 11, 0) / 255);
  });
});

describe('median', () => {
  it('sorts a copy: the values given keep their order', () => {
    const values = new Float64Array([3, 1, 2]);
    expect(median(values)).toBe(2);
    expect([...values]).toEqual([3, 1, 2]);
    expect(median([5, 1, 4, 2])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe('brightnessModel', () => {
  it('takes the median of the ordinary spots only, when a dark outlier shifts where they begin', () => {
    // Median 0.42, median absolute deviation 0.02: ordinary fundus 0.346–0.494, the 0.02 spot left out.
    const model = brightnessModel([0.45, 0.02, 0.4, 0.44, 0.41, 0.43, 0.42]);
    expect(model.excludedSpots).toBe(1);
    expect(model.medianBrightness).toBeCloseTo((0.42 + 0.43) / 2, 12);
  });

  it('keeps a spot exactly on either limit of ordinary fundus', () => {
    // A flat image: the spread is one grey level, so the limits are 0.5 ∓ 2.5 grey levels, met exactly.
    const low = 0.5 - 2.5 * (1 / 255);
    const high = 0.5 + 2.5 * (1 / 255);
    const model = brightnessModel([0.5, 0.5, 0.5, 0.5, 0.5, low, high]);
    expect(model.ordinaryRange).toEqual({ min: low, max: high });
    expect(model.excludedSpots).toBe(0);
    expect(brightnessOutlier(low, model)).toBeNull();
    expect(brightnessOutlier(high, model)).toBeNull();
    expect(brightnessOutlier(low - 1e-9, model)).toBe('dark');
    expect(brightnessOutlier(high + 1e-9, model)).toBe('bright');
  });

  it('is empty for no treated spots: median 0, ordinary fundus the whole range', () => {
    expect(brightnessModel([])).toMatchObject({ medianBrightness: 0, ordinaryRange: { min: 0, max: 1 }, excludedSpots: 0 });
  });
});

describe('powerFactor', () => {
  it('is 1 when the treated area is black or has no median, even with bounds raised above 1', () => {
    // 0.5 lies within ordinary fundus (0.265–0.635 here), so no outlier cap hides a factor of 1.3.
    const raised = { ...brightnessModel([0.4, 0.5]), maxFactor: 1.3, minFactor: 0.7 };
    expect(brightnessOutlier(0.5, raised)).toBeNull();
    expect(powerFactor(0.5, { ...raised, medianBrightness: 0 })).toBe(1);
    expect(powerFactor(0.5, { ...raised, medianBrightness: Number.NaN })).toBe(1);
  });
});

describe('withinPowerLimits', () => {
  it('takes both limits themselves', () => {
    const limits = { minMw: 10, maxMw: 20 };
    expect([9.9, 10, 15, 20, 20.1].map((power) => withinPowerLimits(limits, power))).toEqual([false, true, true, true, false]);
  });
});
