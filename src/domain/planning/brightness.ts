// Brightness-adapted laser power (docs/planning-model.md): each spot's local fundus brightness over its
// footprint on the display image, the session's brightness as the treated area's median, and a bounded
// per-spot factor on the session's sub-visible power (laserDose). A brighter spot reflects more of the light
// and absorbs less in the pigment of the retinal pigment epithelium, so it gets more power, a darker spot
// less; the factor stays between the physician's bounds. An aid the physician confirms, not a dosimetry.
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
  /** Highest factor (the brightest spots), 1–1.5. */
  maxFactor: number;
  /** Exponent on the brightness ratio, 0–1: 0 keeps every spot at the session's power. */
  gamma: number;
}

export const DEFAULT_POWER_BOUNDS: PowerBounds = { minFactor: 0.8, maxFactor: 1.2, gamma: 0.5 };

export const POWER_BOUND_RANGES = { minFactor: { min: 0.5, max: 1 }, maxFactor: { min: 1, max: 1.5 }, gamma: { min: 0, max: 1 } } as const;

export interface BrightnessModel extends PowerBounds {
  /** The treated area's median brightness (0–1): the session's brightness. */
  medianBrightness: number;
}

/** Median of the values (the mean of the middle two for an even count); NaN for none. */
export function median(values: ArrayLike<number>): number {
  if (values.length === 0) return Number.NaN;
  const sorted = (values instanceof Float64Array ? values.slice() : Float64Array.from(values)).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The model for the treated spots' brightness values. */
export function brightnessModel(treatedBrightness: ArrayLike<number>, bounds: PowerBounds = DEFAULT_POWER_BOUNDS): BrightnessModel {
  const middle = median(treatedBrightness);
  // Only the bounds are taken from `bounds` (it may be an earlier model, whose median is out of date).
  return { medianBrightness: Number.isNaN(middle) ? 0 : middle, minFactor: bounds.minFactor, maxFactor: bounds.maxFactor, gamma: bounds.gamma };
}

/** (brightness / median)^gamma, clamped to the bounds; 1 when the treated area is black. */
export function powerFactor(brightness: number, model: BrightnessModel): number {
  if (!(model.medianBrightness > 0)) return 1;
  const factor = (brightness / model.medianBrightness) ** model.gamma;
  return Math.min(model.maxFactor, Math.max(model.minFactor, factor));
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
