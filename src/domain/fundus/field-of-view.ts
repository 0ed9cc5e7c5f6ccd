// The field of view of a fundus photo: the lit (usually circular) part of the frame. Detection only looks
// inside it, and its diameter gives a scale when the exam does not know its micrometres per pixel.
import { rankFilter, type Plane } from './image-ops';
import type { Point } from './raster';

export interface FieldOfView {
  /** 1 inside the lit area, its rim eroded (the rim is often a bright reflex or a dark vignette). */
  mask: Uint8Array;
  /** Pixels set in `mask`. */
  area: number;
  /** Centre of the aperture (of the frame when the fundus fills it), in pixel indices: pixel i is at i. */
  center: Point;
  /**
   * Diameter of the circular aperture in working pixels, or null when the fundus fills the frame (then
   * the frame says nothing about the scale).
   */
  diameter: number | null;
}

/** Share of the longer side by which the rim is eroded. */
export const RIM_SHARE = 0.012;
/** Masks smaller than this share of the frame are not trusted (black or nearly black images). */
const MIN_AREA_SHARE = 0.05;

export function findFieldOfView(brightness: Plane): FieldOfView {
  const { width, height, data } = brightness;
  const size = width * height;
  const threshold = apertureThreshold(data);
  const lit = new Float32Array(size);
  for (let i = 0; i < size; i++) lit[i] = data[i] > threshold ? 1 : 0;
  const rim = Math.max(1, Math.round(RIM_SHARE * Math.max(width, height)));

  const aperture = circularAperture(lit, width, height);
  if (aperture) {
    // Inside the circle, even where the fundus is nearly black (a dark macula must stay searchable).
    const mask = new Uint8Array(size);
    const radius = aperture.diameter / 2 - rim;
    let area = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if ((x - aperture.cx) ** 2 + (y - aperture.cy) ** 2 <= radius * radius) {
          mask[y * width + x] = 1;
          area++;
        }
      }
    }
    if (area >= MIN_AREA_SHARE * size) {
      return { mask, area, center: { x: aperture.cx, y: aperture.cy }, diameter: aperture.diameter };
    }
  }

  const eroded = rankFilter({ width, height, data: lit }, rim, 'min');
  const mask = new Uint8Array(size);
  let area = 0;
  for (let i = 0; i < size; i++) {
    if (eroded.data[i] > 0.5) {
      mask[i] = 1;
      area++;
    }
  }
  const center = { x: (width - 1) / 2, y: (height - 1) / 2 };
  if (area < MIN_AREA_SHARE * size) {
    mask.fill(1);
    return { mask, area: size, center, diameter: null };
  }
  return { mask, area, center, diameter: null };
}

/**
 * The circle of a round aperture, or null when the fundus fills the frame. The diameter is the widest lit
 * row (or column, when the circle is cut at the left and right); the centre is the median midpoint of the
 * long lit rows and columns, which burnt-in text or a dark patch inside the fundus barely moves.
 */
function circularAperture(
  lit: Float32Array,
  width: number,
  height: number,
): { cx: number; cy: number; diameter: number } | null {
  if (darkCorners(lit, width, height) < 3) return null;
  const rows = lineExtents(lit, width, height, 1, width);
  const columns = lineExtents(lit, height, width, width, 1);
  const widest = Math.max(...rows.map((r) => r.count));
  const tallest = Math.max(...columns.map((c) => c.count));
  if (widest >= 0.97 * width && tallest >= 0.97 * height) return null;
  const cx = median(rows.filter((r) => r.count > 0.5 * widest).map((r) => r.mid));
  const cy = median(columns.filter((c) => c.count > 0.5 * tallest).map((c) => c.mid));
  if (!Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  return { cx, cy, diameter: Math.max(widest, tallest) };
}

/** For each line (row or column): how many pixels are lit and the midpoint of the first and last lit one. */
function lineExtents(
  lit: Float32Array,
  length: number,
  lines: number,
  step: number,
  lineStep: number,
): Array<{ count: number; mid: number }> {
  const out: Array<{ count: number; mid: number }> = [];
  for (let l = 0; l < lines; l++) {
    let count = 0;
    let first = -1;
    let last = -1;
    for (let k = 0; k < length; k++) {
      if (lit[l * lineStep + k * step]) {
        count++;
        if (first < 0) first = k;
        last = k;
      }
    }
    out.push({ count, mid: (first + last) / 2 });
  }
  return out;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** How many of the four corner patches are mostly unlit (burnt-in text may light one of them). */
function darkCorners(lit: Float32Array, width: number, height: number): number {
  const w = Math.max(1, Math.round(0.04 * width));
  const h = Math.max(1, Math.round(0.04 * height));
  let dark = 0;
  for (const [x0, y0] of [[0, 0], [width - w, 0], [0, height - h], [width - w, height - h]]) {
    let sum = 0;
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) sum += lit[y * width + x];
    if (sum < 0.5 * w * h) dark++;
  }
  return dark;
}

/** Between the dark surround and the fundus: above the darkest pixels by a share of the range. */
function apertureThreshold(values: Float32Array): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < values.length; i++) histogram[Math.max(0, Math.min(255, Math.round(values[i])))]++;
  const level = (p: number) => {
    const target = p * values.length;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v];
      if (seen >= target) return v;
    }
    return 255;
  };
  const dark = level(0.01);
  const bright = level(0.99);
  // Without a black surround the darkest 1 % are fundus (vessels, the fovea): keep all of it.
  if (dark > 24) return dark / 2;
  return dark + Math.max(6, 0.06 * (bright - dark));
}
