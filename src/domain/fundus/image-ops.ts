// Small image operations on single-channel float planes, for the optic disc and fovea detector.
// Pure TypeScript (shared by the browser and the server): typed arrays only, no canvas, no Node.
import type { Raster } from './raster';

/** One channel of an image as floats, row by row from the top-left corner. */
export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

/** A raster reduced to a working size, one plane per colour channel. */
export interface WorkingImage {
  red: Plane;
  green: Plane;
  blue: Plane;
  /** Input pixels per working pixel along each axis (≥ 1: rasters are never enlarged). */
  scale: number;
}

export function createPlane(width: number, height: number, fill = 0): Plane {
  const data = new Float32Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { width, height, data };
}

/**
 * Averages the raster down so that its longer side is at most `maxSide` pixels. Each input pixel belongs to
 * exactly one working pixel (bins of ⌊scale⌋ or ⌈scale⌉ pixels along each axis).
 */
export function downsampleRaster(raster: Raster, maxSide: number): WorkingImage {
  const { width, height, data } = raster;
  const scale = Math.max(1, Math.max(width, height) / Math.max(1, maxSide));
  // Bin of pixel i is ⌊i / scale⌋; with scale ≥ 1 every bin up to the last pixel's gets at least one pixel.
  const outWidth = Math.floor((Math.max(1, width) - 1) / scale) + 1;
  const outHeight = Math.floor((Math.max(1, height) - 1) / scale) + 1;
  const xBin = new Int32Array(width);
  const xCount = new Int32Array(outWidth);
  for (let x = 0; x < width; x++) {
    xBin[x] = Math.floor(x / scale);
    xCount[xBin[x]]++;
  }
  const red = new Float32Array(outWidth * outHeight);
  const green = new Float32Array(outWidth * outHeight);
  const blue = new Float32Array(outWidth * outHeight);
  // Integer sums of one output row at a time: the input rows that fall into it are added, then divided once.
  // From 4 × 4 pixels per bin on, every other row is enough (8+ pixels still average out JPEG noise) and
  // halves the reading of the full-size photo, the most expensive step.
  const rowStep = scale >= 4 ? 2 : 1;
  const sumR = new Uint32Array(outWidth);
  const sumG = new Uint32Array(outWidth);
  const sumB = new Uint32Array(outWidth);
  let y = 0;
  for (let oy = 0; oy < outHeight; oy++) {
    sumR.fill(0);
    sumG.fill(0);
    sumB.fill(0);
    let rows = 0;
    for (let k = 0; y < height && Math.floor(y / scale) === oy; y++, k++) {
      if (k % rowStep !== 0) continue;
      rows++;
      let i = y * width * 3;
      for (let x = 0; x < width; x++, i += 3) {
        const o = xBin[x];
        sumR[o] += data[i];
        sumG[o] += data[i + 1];
        sumB[o] += data[i + 2];
      }
    }
    const row = oy * outWidth;
    for (let ox = 0; ox < outWidth; ox++) {
      const n = rows * xCount[ox] || 1;
      red[row + ox] = sumR[ox] / n;
      green[row + ox] = sumG[ox] / n;
      blue[row + ox] = sumB[ox] / n;
    }
  }
  return {
    red: { width: outWidth, height: outHeight, data: red },
    green: { width: outWidth, height: outHeight, data: green },
    blue: { width: outWidth, height: outHeight, data: blue },
    scale,
  };
}

/**
 * Mean over a (2r+1)² window with running sums. Near the border only the pixels inside the image count,
 * so edges are not darkened. Each pass writes its result transposed, so both passes read memory in order.
 */
export function boxBlur(plane: Plane, radius: number): Plane {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return { ...plane, data: plane.data.slice() };
  const { width, height } = plane;
  const transposed = new Float32Array(width * height);
  blurRowsTransposed(plane.data, transposed, width, height, r);
  const out = new Float32Array(width * height);
  blurRowsTransposed(transposed, out, height, width, r);
  return { width, height, data: out };
}

/** Blurs every row of a width × height array and writes row y as column y of a height × width array. */
function blurRowsTransposed(src: Float32Array, dst: Float32Array, width: number, height: number, r: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const first = Math.min(r, width - 1);
    let sum = 0;
    for (let k = 0; k <= first; k++) sum += src[row + k];
    let count = first + 1;
    for (let x = 0; x < width; x++) {
      dst[x * height + y] = sum / count;
      const enter = x + r + 1;
      if (enter < width) {
        sum += src[row + enter];
        count++;
      }
      const leave = x - r;
      if (leave >= 0) {
        sum -= src[row + leave];
        count--;
      }
    }
  }
}

/** Box radii whose three successive passes approximate a Gaussian of the given sigma (Wells 1986). */
function gaussianBoxRadii(sigma: number): [number, number, number] {
  const passes = 3;
  const ideal = Math.sqrt((12 * sigma * sigma) / passes + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower--;
  const upper = lower + 2;
  const m = Math.round(
    (12 * sigma * sigma - passes * lower * lower - 4 * passes * lower - 3 * passes) / (-4 * lower - 4),
  );
  const radii: number[] = [];
  for (let i = 0; i < passes; i++) radii.push(((i < m ? lower : upper) - 1) / 2);
  return [radii[0], radii[1], radii[2]];
}

/** Approximate Gaussian blur (three box passes, linear time whatever the sigma). */
export function gaussianBlur(plane: Plane, sigma: number): Plane {
  if (!(sigma > 0.5)) return { ...plane, data: plane.data.slice() };
  const { width, height } = plane;
  // Ping-pong between two buffers (one per layout): detection blurs a lot, and fresh arrays per pass would
  // mostly feed the garbage collector.
  const transposed = new Float32Array(width * height);
  const out = new Float32Array(width * height);
  let source = plane.data;
  for (const r of gaussianBoxRadii(sigma)) {
    const radius = Math.max(0, Math.round(r));
    blurRowsTransposed(source, transposed, width, height, radius);
    blurRowsTransposed(transposed, out, height, width, radius);
    source = out;
  }
  return { width, height, data: out };
}

/** A Gaussian blur restricted to one mask; see createMaskedBlur. */
export type MaskedBlur = (plane: Plane, sigma: number) => Plane;

/**
 * Gaussian blur that only averages pixels inside the mask (normalised convolution), so the dark surround
 * of a circular field of view does not bleed into the fundus. Pixels with no masked neighbour get 0. The
 * blurred mask is kept per sigma, since several maps of one image share it.
 */
export function createMaskedBlur(mask: Uint8Array, width: number, height: number): MaskedBlur {
  const weights = new Map<number, Float32Array>();
  return (plane, sigma) => {
    let weight = weights.get(sigma);
    if (!weight) {
      weight = gaussianBlur({ width, height, data: Float32Array.from(mask) }, sigma).data;
      weights.set(sigma, weight);
    }
    const masked = new Float32Array(width * height);
    for (let i = 0; i < masked.length; i++) masked[i] = mask[i] ? plane.data[i] : 0;
    const out = gaussianBlur({ width, height, data: masked }, sigma).data;
    for (let i = 0; i < out.length; i++) out[i] = weight[i] > 1e-3 ? out[i] / weight[i] : 0;
    return { width, height, data: out };
  };
}

/**
 * Minimum (erosion) or maximum (dilation) over a (2r+1)² square window, one axis at a time, in constant
 * time per pixel whatever the radius (van Herk / Gil–Werman block prefix and suffix extrema).
 */
export function rankFilter(plane: Plane, radius: number, kind: 'min' | 'max'): Plane {
  const r = Math.max(0, Math.round(radius));
  const { width, height } = plane;
  if (r === 0) return { ...plane, data: plane.data.slice() };
  // Dilation is erosion of the negated plane: one code path, comparisons inlined.
  const sign = kind === 'min' ? 1 : -1;
  const src = new Float32Array(width * height);
  for (let i = 0; i < src.length; i++) src[i] = sign * plane.data[i];
  const transposed = new Float32Array(width * height);
  erodeRowsTransposed(src, transposed, width, height, r);
  const out = new Float32Array(width * height);
  erodeRowsTransposed(transposed, out, height, width, r);
  if (sign < 0) for (let i = 0; i < out.length; i++) out[i] = -out[i];
  return { width, height, data: out };
}

function erodeRowsTransposed(src: Float32Array, dst: Float32Array, width: number, height: number, r: number): void {
  const window = 2 * r + 1;
  // The row padded by r on both sides with +∞ (outside pixels never win a minimum), rounded up to whole blocks.
  const padded = Math.ceil((width + 2 * r) / window) * window;
  const line = new Float32Array(padded);
  const prefix = new Float32Array(padded);
  const suffix = new Float32Array(padded);
  for (let y = 0; y < height; y++) {
    line.fill(Infinity);
    line.set(src.subarray(y * width, (y + 1) * width), r);
    for (let start = 0; start < padded; start += window) {
      let m = Infinity;
      for (let k = start; k < start + window; k++) {
        const v = line[k];
        if (v < m) m = v;
        prefix[k] = m;
      }
      m = Infinity;
      for (let k = start + window - 1; k >= start; k--) {
        const v = line[k];
        if (v < m) m = v;
        suffix[k] = m;
      }
    }
    for (let x = 0; x < width; x++) {
      // Window [x, x + 2r] in padded coordinates spans at most two blocks.
      const a = suffix[x];
      const b = prefix[x + 2 * r];
      dst[x * height + y] = a < b ? a : b;
    }
  }
}

/** Greyscale closing: removes dark structures narrower than the window (retinal vessels). */
export function closing(plane: Plane, radius: number): Plane {
  return rankFilter(rankFilter(plane, radius, 'max'), radius, 'min');
}
