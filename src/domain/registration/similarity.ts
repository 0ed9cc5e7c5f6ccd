// A similarity transform (rotation, uniform scale, translation; no reflection) between two images of the same
// eye, from corresponding landmarks — at least the optic disc's centre and the fovea, found in both images. It
// carries an earlier session's spots and zones onto today's image. Pure: the same in the browser and the server.
import type { Point } from '../fundus/raster';
import { createSeededRandom } from '../fundus/seeded-random';

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty (a = s·cos θ, b = s·sin θ, in image pixels, y down). */
export interface Similarity {
  readonly a: number;
  readonly b: number;
  readonly tx: number;
  readonly ty: number;
}

export const IDENTITY: Similarity = { a: 1, b: 0, tx: 0, ty: 0 };

export function applySimilarity(t: Similarity, p: Point): Point {
  return { x: t.a * p.x - t.b * p.y + t.tx, y: t.b * p.x + t.a * p.y + t.ty };
}

/** The scale factor s (> 0). */
export const scaleOf = (t: Similarity) => Math.hypot(t.a, t.b);
/** The rotation θ in degrees, (−180, 180], clockwise on screen (y points down). */
export const rotationDegOf = (t: Similarity) => (Math.atan2(t.b, t.a) * 180) / Math.PI;

export function invertSimilarity(t: Similarity): Similarity {
  const d = t.a * t.a + t.b * t.b;
  const a = t.a / d;
  const b = -t.b / d;
  return { a, b, tx: -(a * t.tx - b * t.ty), ty: -(b * t.tx + a * t.ty) };
}

/** `second` after `first`. */
export function composeSimilarity(first: Similarity, second: Similarity): Similarity {
  const moved = applySimilarity(second, { x: first.tx, y: first.ty });
  return { a: second.a * first.a - second.b * first.b, b: second.b * first.a + second.a * first.b, tx: moved.x, ty: moved.y };
}

/**
 * The similarity that maps `from[i]` onto `to[i]` best in the least-squares sense (exactly for two pairs);
 * null when the points of `from` all coincide (no rotation or scale can be read from them) or the pairs differ
 * in number or are fewer than two.
 */
export function fitSimilarity(from: readonly Point[], to: readonly Point[]): Similarity | null {
  if (from.length !== to.length || from.length < 2) return null;
  const n = from.length;
  const mean = (points: readonly Point[]) => ({
    x: points.reduce((sum, p) => sum + p.x, 0) / n,
    y: points.reduce((sum, p) => sum + p.y, 0) / n,
  });
  const cf = mean(from);
  const ct = mean(to);
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i += 1) {
    const fx = from[i].x - cf.x;
    const fy = from[i].y - cf.y;
    const gx = to[i].x - ct.x;
    const gy = to[i].y - ct.y;
    dot += fx * gx + fy * gy;
    cross += fx * gy - fy * gx;
    norm += fx * fx + fy * fy;
  }
  if (!(norm > 1e-12)) return null;
  const a = dot / norm;
  const b = cross / norm;
  if (!(Math.hypot(a, b) > 1e-12)) return null;
  return { a, b, tx: ct.x - (a * cf.x - b * cf.y), ty: ct.y - (b * cf.x + a * cf.y) };
}

export interface MappingUncertainty {
  /** Root-mean-square displacement of each mapped point, in pixels of the target image. */
  rmsPx: number[];
  /** The largest of them. */
  maxRmsPx: number;
}

/**
 * How far points mapped by the transform fitted to `from` → `to` may be off when each landmark's position is
 * uncertain by `sigmaPx` (standard deviation per axis, in its image): the landmarks are perturbed `samples`
 * times (seeded, so the figure is reproducible), the transform fitted again, and the displacement of each
 * point measured against the unperturbed fit. A point far from the landmarks moves more than one between them.
 */
export function mappingUncertainty(
  from: readonly Point[],
  to: readonly Point[],
  points: readonly Point[],
  sigmaPx: { from: number; to: number },
  samples = 200,
  seed = 1,
): MappingUncertainty | null {
  const fitted = fitSimilarity(from, to);
  if (!fitted) return null;
  const random = createSeededRandom(seed);
  const sums = points.map(() => 0);
  let used = 0;
  const jitter = (p: Point, sigma: number) => ({ x: p.x + random.normal(0, sigma), y: p.y + random.normal(0, sigma) });
  for (let sample = 0; sample < samples; sample += 1) {
    const perturbed = fitSimilarity(
      from.map((p) => jitter(p, sigmaPx.from)),
      to.map((p) => jitter(p, sigmaPx.to)),
    );
    if (!perturbed) continue;
    used += 1;
    points.forEach((p, i) => {
      const exact = applySimilarity(fitted, p);
      const moved = applySimilarity(perturbed, p);
      sums[i] += (moved.x - exact.x) ** 2 + (moved.y - exact.y) ** 2;
    });
  }
  if (!used) return null;
  const rmsPx = sums.map((sum) => Math.sqrt(sum / used));
  return { rmsPx, maxRmsPx: Math.max(0, ...rmsPx) };
}
