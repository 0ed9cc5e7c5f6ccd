// Brightness-adapted laser power (docs/planning-model.md): each spot's local fundus brightness over its
// footprint on the display image, the session's brightness as the median over ordinary fundus, and a bounded
// per-spot factor on the session's sub-visible power (laserDose, the titrated power). Conservative by default:
// a darker spot gets less power, none gets more than the titrated power unless the physician raises the upper
// bound explicitly; spots far outside the ordinary brightness (likely vessels, haemorrhages, exudates, scars)
// are left out of the median and never get more than the titrated power. An aid the physician confirms, not a
// dosimetry.
import type { Raster } from '../fundus/raster';

/** Brightness (Rec. 709 luma, 0–255) of a display image with per-row running sums, prepared once per image. */
export interface LumaMap {
  width: number;
  height: number;
  /** Row r holds width + 1 sums: sums[r·(width+1) + i] is the luma of pixels 0…i−1 of row r. */
  rowSums: Uint32Array;
}

export function lumaMap(raster: Raster): LumaMap {
  const { width, height, data } = raster;
  const rowSums = new Uint32Array((width + 1) * height);
  // Stryker disable next-line EqualityOperator: a row past the last would be written past the array's end, which a typed array ignores.
  for (let row = 0; row < height; row++) {
    let sum = 0;
    const base = row * (width + 1);
    for (let column = 0; column < width; column++) {
      const k = (row * width + column) * 3;
      sum += Math.round(0.2126 * data[k] + 0.7152 * data[k + 1] + 0.0722 * data[k + 2]);
      rowSums[base + column + 1] = sum;
    }
  }
  return { width, height, rowSums };
}

/**
 * Mean brightness (0–1) of the pixels whose centres lie in the disc of `radiusPx` around (x, y) (image
 * pixels, continuous). A disc smaller than a pixel reads the pixel under its centre.
 */
export function footprintBrightness(map: LumaMap, x: number, y: number, radiusPx: number): number {
  const { width, height, rowSums } = map;
  let sum = 0;
  let count = 0;
  const firstRow = Math.max(0, Math.ceil(y - radiusPx - 0.5));
  const lastRow = Math.min(height - 1, Math.floor(y + radiusPx - 0.5));
  for (let row = firstRow; row <= lastRow; row++) {
    const dy = row + 0.5 - y;
    const half = Math.sqrt(Math.max(0, radiusPx * radiusPx - dy * dy));
    const first = Math.max(0, Math.ceil(x - half - 0.5));
    const last = Math.min(width - 1, Math.floor(x + half - 0.5));
    if (last < first) continue;
    const base = row * (width + 1);
    sum += rowSums[base + last + 1] - rowSums[base + first];
    count += last - first + 1;
  }
  if (count === 0) {
    const column = Math.min(width - 1, Math.max(0, Math.floor(x)));
    const row = Math.min(height - 1, Math.max(0, Math.floor(y)));
    const base = row * (width + 1);
    return (rowSums[base + column + 1] - rowSums[base + column]) / 255;
  }
  return sum / count / 255;
}

/** The bounds of the per-spot power factor and how strongly it follows brightness. */
export interface PowerBounds {
  /** Lowest factor (the darkest spots), 0.5–1. */
  minFactor: number;
  /** Highest factor (the brightest spots), 1–1.5; above 1 only by the physician's explicit choice. */
  maxFactor: number;
  /** Exponent on the brightness ratio, 0–1: 0 keeps every spot at the session's power. */
  gamma: number;
}

export const DEFAULT_POWER_BOUNDS: PowerBounds = { minFactor: 0.8, maxFactor: 1, gamma: 0.5 };

export const POWER_BOUND_RANGES = { minFactor: { min: 0.5, max: 1 }, maxFactor: { min: 1, max: 1.5 }, gamma: { min: 0, max: 1 } } as const;

export interface BrightnessModel extends PowerBounds {
  /** The median brightness (0–1) of the treated spots on ordinary fundus: the session's brightness. */
  medianBrightness: number;
  /**
   * The brightness of ordinary fundus: treated spots outside it are left out of the median and capped at the
   * titrated power. Absent in models made before issue 26 (every spot counted then).
   */
  ordinaryRange?: { min: number; max: number };
  /** Treated spots left out of the median. */
  excludedSpots?: number;
  /** Who set a bound above the titrated power (maxFactor > 1), and when; null when nobody did. */
  aboveTitration?: { by: { id: string; name: string }; at: string } | null;
}

/** Median of the values (the mean of the middle two for an even count); NaN for none. */
export function median(values: ArrayLike<number>): number {
  return medianOfSorted(values instanceof Float64Array ? values.slice().sort() : Float64Array.from(values).sort());
}

/** Median of ascending values, from `from` to `to` (exclusive); NaN for none. */
function medianOfSorted(sorted: Float64Array, from = 0, to = sorted.length): number {
  const count = to - from;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty run reads past its ends, NaN as well (a non-empty array always holds its own median).
  if (count <= 0) return Number.NaN;
  const middle = from + (count >> 1);
  return count % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The consistency constant that makes the median absolute deviation estimate a normal distribution's SD. */
const MAD_SCALE = 1.4826;
/** Brightness spread below which nothing is called an outlier (1/255, one grey level: a flat image). */
const LEAST_SPREAD = 1 / 255;

/** The range of `outlierMad` scaled median absolute deviations around the median of ascending values. */
function rangeOfSorted(sorted: Float64Array, outlierMad: number): { min: number; max: number } | null {
  const middle = medianOfSorted(sorted);
  if (Number.isNaN(middle)) return null;
  const deviations = new Float64Array(sorted.length);
  // Stryker disable next-line EqualityOperator: one step past the end writes past the array's end, which a typed array ignores.
  for (let k = 0; k < sorted.length; k++) deviations[k] = Math.abs(sorted[k] - middle);
  const spread = Math.max(LEAST_SPREAD, MAD_SCALE * medianOfSorted(deviations.sort()));
  return { min: middle - outlierMad * spread, max: middle + outlierMad * spread };
}

/**
 * The brightness of ordinary fundus among the treated spots: within `outlierMad` scaled median absolute
 * deviations of their median (Leys et al. 2013). The model's median is taken within it.
 */
export function ordinaryRange(treatedBrightness: ArrayLike<number>, outlierMad: number): { min: number; max: number } | null {
  return rangeOfSorted(Float64Array.from(treatedBrightness).sort(), outlierMad);
}

/** Default of the outlier threshold, in scaled median absolute deviations (docs/clinical-limits.md). */
export const OUTLIER_MAD = 2.5;

/** The first index of ascending values at which `test` holds (values.length when it never does). */
function firstIndex(sorted: Float64Array, test: (value: number) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (test(sorted[middle])) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The model for the treated spots' brightness values: the median over ordinary fundus, the bounds given. */
export function brightnessModel(treatedBrightness: ArrayLike<number>, bounds: PowerBounds = DEFAULT_POWER_BOUNDS, outlierMad = OUTLIER_MAD): BrightnessModel {
  // One sort: the median, the spread and then the ordinary values, a run of the sorted ones.
  const sorted = Float64Array.from(treatedBrightness).sort();
  const range = rangeOfSorted(sorted, outlierMad);
  const from = range ? firstIndex(sorted, (value) => value >= range.min) : 0;
  const to = range ? firstIndex(sorted, (value) => value > range.max) : 0;
  const middle = medianOfSorted(sorted, from, to);
  // Only the bounds are taken from `bounds` (it may be an earlier model, whose median is out of date).
  return {
    medianBrightness: Number.isNaN(middle) ? 0 : middle,
    minFactor: bounds.minFactor,
    maxFactor: bounds.maxFactor,
    gamma: bounds.gamma,
    ordinaryRange: range ?? { min: 0, max: 1 },
    excludedSpots: sorted.length - Math.max(0, to - from),
  };
}

/** Which side of ordinary fundus a spot's brightness lies on, or null within it (or for a model without a range). */
export function brightnessOutlier(brightness: number, model: BrightnessModel): 'bright' | 'dark' | null {
  const range = model.ordinaryRange;
  if (!range) return null;
  return brightness > range.max ? 'bright' : brightness < range.min ? 'dark' : null;
}

/**
 * (brightness / median)^gamma, clamped to the bounds; 1 when the treated area is black. A spot outside
 * ordinary fundus never gets more than the titrated power (factor ≤ 1).
 */
export function powerFactor(brightness: number, model: BrightnessModel): number {
  if (!(model.medianBrightness > 0)) return 1;
  const factor = Math.min(model.maxFactor, Math.max(model.minFactor, (brightness / model.medianBrightness) ** model.gamma));
  return brightnessOutlier(brightness, model) ? Math.min(1, factor) : factor;
}

/** Power settings of the laser device, in steps of 0.1 mW. */
export const POWER_STEP_MW = 0.1;

/** A spot's power: the session's dose times its factor, to the device's 0.1 mW. */
export const spotPowerMw = (laserDose: number, factor: number) => Math.round(laserDose * factor * 10) / 10;

/** The power range a laser device accepts; the NPT format's range when the device names none. */
export interface PowerLimits {
  minMw: number;
  maxMw: number;
}

export const DEFAULT_POWER_LIMITS: PowerLimits = { minMw: POWER_STEP_MW, maxMw: 1000 };

export const withinPowerLimits = (limits: PowerLimits, powerMw: number) => powerMw >= limits.minMw && powerMw <= limits.maxMw;
