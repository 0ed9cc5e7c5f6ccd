// Refines a registration found from the optic disc and the fovea by the retinal vessels: the similarity is
// adjusted until the vessel pattern of the earlier image, carried over, lies best on today's (normalised
// cross-correlation of a band-pass of the green channel, where vessels are darkest), coarse to fine. The disc
// and fovea are found to a fraction of a disc diameter; the vessels pin the images to a few pixels.
import { downsampleRaster, gaussianBlur, type Plane } from '../fundus/image-ops';
import type { Raster } from '../fundus/raster';
import { applySimilarity, composeSimilarity, invertSimilarity, type Similarity } from './similarity';

export interface Refinement {
  transform: Similarity;
  /** Correlation of the vessel patterns before and after, −1…1. */
  startScore: number;
  score: number;
}

const WORKING_SIDE = 800;
/** Pixels darker than this (of 255) are outside the imaged field (or outside a moved image). */
const FIELD_THRESHOLD = 12;

/** Vessels as a positive band-pass of the green channel (the surroundings' mean minus a lightly blurred copy). */
function vesselMap(green: Plane, fine: number, coarse: number): Plane {
  const near = gaussianBlur(green, fine);
  const far = gaussianBlur(green, coarse);
  const data = new Float32Array(green.data.length);
  for (let i = 0; i < data.length; i += 1) data[i] = far.data[i] - near.data[i];
  return { width: green.width, height: green.height, data };
}

function sample(plane: Plane, x: number, y: number): number {
  const fx = x - 0.5;
  const fy = y - 0.5;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  if (x0 < 0 || y0 < 0 || x0 + 1 >= plane.width || y0 + 1 >= plane.height) return Number.NaN;
  const wx = fx - x0;
  const wy = fy - y0;
  const i = y0 * plane.width + x0;
  const d = plane.data;
  return (d[i] * (1 - wx) + d[i + 1] * wx) * (1 - wy) + (d[i + plane.width] * (1 - wx) + d[i + plane.width + 1] * wx) * wy;
}

/** Rotation (rad), log scale and shift about a centre, as one similarity. */
interface Pose {
  angle: number;
  logScale: number;
  dx: number;
  dy: number;
}

/** One level of the coarse-to-fine search: both vessel maps, and the earlier image's samples inside its field. */
interface Level {
  step: number;
  vt: Plane;
  xs: number[];
  ys: number[];
  values: number[];
}

/**
 * What every refinement of one pair of images shares, whatever pose it starts from: the working-size images
 * and, per level, the vessel maps and the earlier image's samples. Made once per pair (registrationSteps
 * refines from five starts).
 */
export interface VesselPair {
  e: ReturnType<typeof downsampleRaster>;
  t: ReturnType<typeof downsampleRaster>;
  levels: Level[];
}

/** The pair prepared for refining, a level at a time (each a pause for a server: see `refinementSteps`). */
export function* vesselPairSteps(earlier: Raster, today: Raster): Generator<void, VesselPair, void> {
  const e = downsampleRaster(earlier, WORKING_SIDE);
  const t = downsampleRaster(today, WORKING_SIDE);
  const levels: Level[] = [];
  // Coarse to fine: wide vessels first (a wide basin), then the fine ones.
  for (const [fine, coarse, step] of [
    [2.5, 10, 6],
    [1, 6, 1.5],
  ] as const) {
    yield;
    const ve = vesselMap(e.green, fine, coarse);
    const vt = vesselMap(t.green, fine, coarse);
    // Samples: every second working pixel inside the earlier image's field.
    const xs: number[] = [];
    const ys: number[] = [];
    const values: number[] = [];
    for (let y = 2; y < e.green.height - 2; y += 2) {
      for (let x = 2; x < e.green.width - 2; x += 2) {
        if (e.green.data[y * e.green.width + x] < FIELD_THRESHOLD) continue;
        xs.push(x + 0.5);
        ys.push(y + 0.5);
        values.push(ve.data[y * ve.width + x]);
      }
    }
    levels.push({ step, vt, xs, ys, values });
  }
  return { e, t, levels };
}

/**
 * Refines `start` by the vessels, pausing after each round of the search (a few tens of milliseconds of work
 * at a time on a 1600 × 1200 pair), so that a server can serve requests in between.
 */
export function* refinementSteps(pair: VesselPair, start: Similarity): Generator<void, Refinement, void> {
  const { e, t } = pair;
  // Working pixels ↔ input pixels: p_input = p_working · scale.
  const toInputE: Similarity = { a: e.scale, b: 0, tx: 0, ty: 0 };
  const toInputT: Similarity = { a: t.scale, b: 0, tx: 0, ty: 0 };
  const startWorking = composeSimilarity(composeSimilarity(toInputE, start), invertSimilarity(toInputT));

  let transform = startWorking;
  let startScore = Number.NaN;
  let score = Number.NaN;
  for (const { step, vt, xs, ys, values } of pair.levels) {
    if (values.length < 100) break;
    const cx = xs.reduce((s, v) => s + v, 0) / xs.length;
    const cy = ys.reduce((s, v) => s + v, 0) / ys.length;
    const asTransform = (pose: Pose): Similarity => {
      const s = Math.exp(pose.logScale);
      const a = s * Math.cos(pose.angle);
      const b = s * Math.sin(pose.angle);
      return { a, b, tx: cx + pose.dx - (a * cx - b * cy), ty: cy + pose.dy - (b * cx + a * cy) };
    };
    const correlation = (candidate: Similarity): number => {
      let n = 0;
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let i = 0; i < values.length; i += 1) {
        const p = applySimilarity(candidate, { x: xs[i], y: ys[i] });
        const g = sample(t.green, p.x, p.y);
        if (!(g >= FIELD_THRESHOLD)) continue;
        const b = sample(vt, p.x, p.y);
        const a = values[i];
        n += 1;
        sa += a;
        sb += b;
        saa += a * a;
        sbb += b * b;
        sab += a * b;
      }
      if (n < 100) return -1;
      const cov = sab - (sa * sb) / n;
      const va = saa - (sa * sa) / n;
      const vb = sbb - (sb * sb) / n;
      return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : -1;
    };
    const centre = applySimilarity(transform, { x: cx, y: cy });
    let pose: Pose = {
      angle: Math.atan2(transform.b, transform.a),
      logScale: Math.log(Math.hypot(transform.a, transform.b)),
      dx: centre.x - cx,
      dy: centre.y - cy,
    };
    let best = correlation(asTransform(pose));
    if (Number.isNaN(startScore)) startScore = best;
    // Steps: shift in working pixels; angle and scale so that the sampled field's edge moves about as far.
    const radius = Math.max(1, Math.sqrt(xs.reduce((s, x, i) => s + (x - cx) ** 2 + (ys[i] - cy) ** 2, 0) / xs.length));
    const steps: Pose = { angle: step / radius, logScale: step / radius, dx: step, dy: step };
    for (let round = 0; round < 12; round += 1) {
      yield;
      let improved = true;
      while (improved) {
        improved = false;
        for (const key of ['dx', 'dy', 'angle', 'logScale'] as const) {
          for (const sign of [1, -1]) {
            const candidate = { ...pose, [key]: pose[key] + sign * steps[key] };
            const value = correlation(asTransform(candidate));
            if (value > best) {
              best = value;
              pose = candidate;
              improved = true;
            }
          }
        }
      }
      for (const key of ['dx', 'dy', 'angle', 'logScale'] as const) steps[key] /= 2;
    }
    transform = asTransform(pose);
    score = best;
  }
  const input = composeSimilarity(composeSimilarity(invertSimilarity(toInputE), transform), toInputT);
  return { transform: input, startScore, score };
}

/** Runs a generator of steps to its end. */
function finish<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `start` refined by the vessels, in one go. */
export function refineByVessels(earlier: Raster, today: Raster, start: Similarity): Refinement {
  return finish(refinementSteps(finish(vesselPairSteps(earlier, today)), start));
}
