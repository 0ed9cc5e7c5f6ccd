// An earlier session's treatment on today's image: the earlier fundus image registered onto today's (the
// similarity from the optic disc and the fovea, refined by the vessels where they agree), an estimate of how
// far a carried-over point may be off, and the earlier spots and zones carried over. Pure: the server
// registers in a background job and serves the result; the planner draws it and flags today's spots that lie
// on earlier ones.
import type { Point, Raster } from '../fundus/raster';
import { refinementSteps, vesselPairSteps } from './refine';
import {
  applySimilarity,
  fitSimilarity,
  invertSimilarity,
  mappingUncertainty,
  rotationDegOf,
  scaleOf,
  type Similarity,
} from './similarity';

export type RegistrationMethod = 'landmarks' | 'vessels';

/** The optic disc's centre and the fovea of one image, in its pixels. */
export interface Landmarks {
  disc: Point;
  fovea: Point;
}

export interface Registration {
  method: RegistrationMethod;
  /** Earlier image pixels → today's image pixels. */
  transform: Similarity;
  /**
   * A carried-over point lies within this distance of its true place in nine cases of ten (µm on today's
   * image, at today's scale) — an estimate, see `registerEarlierImage`.
   */
  uncertaintyUm: number;
  /** Correlation of the two images' vessel patterns under the transform (−1…1); null when not measured. */
  vesselAgreement: number | null;
}

/**
 * How far the detector may place the disc centre or the fovea from the truth (standard deviation per axis,
 * µm), for the uncertainty of a registration by them alone. `npm run bench:register`, disc and fovea alone:
 * median 109 µm and p90 270 µm at spots on synthetic pairs, but median 122 µm and p90 632 µm on real photographs,
 * where the detector sometimes misses; 150 µm states that wider figure rather than the synthetic one.
 */
export const LANDMARK_SIGMA_UM = 150;
/**
 * Vessel patterns that correlate less than this are not trusted: the disc and fovea alone decide. Two images of
 * one eye, registered, correlate at 0.9 and more (refine.test.ts, bench:register); two different synthetic eyes
 * laid on each other by disc and fovea reach 0.3–0.45 (their arcades run alike).
 */
export const MIN_VESSEL_AGREEMENT = 0.6;
/** The vessels may move the fovea's image at most this far from where the landmarks put it (µm). */
const MAX_VESSEL_CORRECTION_UM = 600;
/** A 2-D normal error with root-mean-square r lies within 1.52 r nine times in ten (Rayleigh, √(ln 10)). */
const P90_OF_RMS = Math.sqrt(Math.log(10));
/** refine.ts works on images of at most this many pixels a side: a working pixel is its precision floor. */
const REFINE_WORKING_SIDE = 800;
/** Restarts of the vessel refinement from perturbed landmarks, to see how firmly it settles. */
const RESTARTS = 4;
/** How far a restart moves today's fovea (µm): the detector's typical error, within the refinement's reach. */
const RESTART_SHIFT_UM = 60;
/** Refinements whose agreement is within this of the best count as settling on the same answer. */
const AGREEING = 0.05;

function extent(raster: Raster): number {
  return Math.max(raster.width, raster.height);
}

/** Points on a ring of 3000 µm around today's fovea and the fovea itself: where spots are planned. */
function gridProbe(fovea: Point, umPerPixel: number): Point[] {
  const r = 3000 / umPerPixel;
  const probe = [fovea];
  for (let k = 0; k < 8; k += 1) probe.push({ x: fovea.x + r * Math.cos((k * Math.PI) / 4), y: fovea.y + r * Math.sin((k * Math.PI) / 4) });
  return probe;
}

/**
 * Registers the earlier image onto today's. The disc and fovea of both images give the similarity; the vessels
 * refine it (refine.ts) when they then agree well (correlation ≥ MIN_VESSEL_AGREEMENT, and the correction
 * plausible). The uncertainty: from the landmarks alone, the landmarks' detection error carried
 * through the fit (seeded Monte Carlo); after the vessels, the spread of refinements restarted from perturbed
 * landmarks, and never less than one working pixel of the refinement. Null when the landmarks give no transform
 * (disc and fovea in one place).
 */
export function registerEarlierImage(earlier: RegistrationImage, today: RegistrationImage): Registration | null {
  const steps = registrationSteps(earlier, today);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface RegistrationImage {
  raster: Raster;
  landmarks: Landmarks;
  umPerPixel: number;
}

/**
 * registerEarlierImage in steps: it pauses after each level of the vessel maps and each round of each
 * refinement's search (tens of milliseconds of work on a 1600 × 1200 pair), so a server serves requests in
 * between instead of holding its event loop (and every query of a request waiting behind it) for seconds.
 */
export function* registrationSteps(earlier: RegistrationImage, today: RegistrationImage): Generator<void, Registration | null, void> {
  const from = [earlier.landmarks.disc, earlier.landmarks.fovea];
  const to = [today.landmarks.disc, today.landmarks.fovea];
  const start = fitSimilarity(from, to);
  if (!start) return null;
  const probe = gridProbe(today.landmarks.fovea, today.umPerPixel);
  // Today's probe points carried back, to measure how the earlier points move.
  const back = invertSimilarity(start);
  const earlierProbe = probe.map((p) => applySimilarity(back, p));
  const sigmaPx = { from: LANDMARK_SIGMA_UM / earlier.umPerPixel, to: LANDMARK_SIGMA_UM / today.umPerPixel };
  const byLandmarks = mappingUncertainty(from, to, earlierProbe, sigmaPx);
  const landmarksUm = (byLandmarks?.maxRmsPx ?? 0) * P90_OF_RMS * today.umPerPixel;

  // The vessels, from the landmarks' fit and from fits with today's fovea moved a little in four directions: the
  // best agreement wins; the others that agree about as well show how firmly it settles.
  const starts = [start];
  for (let k = 0; k < RESTARTS; k += 1) {
    const angle = (k * Math.PI) / 2 + Math.PI / 4;
    const shift = RESTART_SHIFT_UM / today.umPerPixel;
    const moved = fitSimilarity(from, [to[0], { x: to[1].x + shift * Math.cos(angle), y: to[1].y + shift * Math.sin(angle) }]);
    if (moved) starts.push(moved);
  }
  // The vessel maps once for the pair; then each start refined, a round of its search at a time.
  const pair = yield* vesselPairSteps(earlier.raster, today.raster);
  const refinements = [];
  for (const s of starts) refinements.push(yield* refinementSteps(pair, s));
  const best = refinements.reduce((a, b) => (b.score > a.score ? b : a));
  const correctionUm = distance(applySimilarity(best.transform, earlier.landmarks.fovea), today.landmarks.fovea) * today.umPerPixel;
  const trusted = best.score >= MIN_VESSEL_AGREEMENT && correctionUm <= MAX_VESSEL_CORRECTION_UM;
  if (!trusted) {
    return { method: 'landmarks', transform: start, uncertaintyUm: landmarksUm, vesselAgreement: Number.isFinite(best.score) ? best.score : null };
  }
  let spreadPx = 0;
  for (const other of refinements) {
    if (other.score < best.score - AGREEING) continue;
    for (const p of earlierProbe) spreadPx = Math.max(spreadPx, distance(applySimilarity(other.transform, p), applySimilarity(best.transform, p)));
  }
  const floorUm = (extent(today.raster) / Math.min(REFINE_WORKING_SIDE, extent(today.raster))) * today.umPerPixel;
  return { method: 'vessels', transform: best.transform, uncertaintyUm: Math.max(floorUm, spreadPx * today.umPerPixel), vesselAgreement: best.score };
}

function distance(p: Point, q: Point): number {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/** An earlier spot on today's image. */
export interface CarriedSpot {
  x: number;
  y: number;
  powerMw: number | null;
}

/** An earlier exclusion zone (ellipse) on today's image. */
export interface CarriedZone {
  kind: string;
  center: Point;
  radiusXPx: number;
  radiusYPx: number;
  rotationDeg: number;
}

/** Degrees into (−180, 180]. */
function normalisedDegrees(deg: number): number {
  const d = ((((deg + 180) % 360) + 360) % 360) - 180;
  return d === -180 ? 180 : d;
}

/** The earlier plan's enabled spots and its zones, carried onto today's image by the registration. */
export function carryEarlierPlan(
  transform: Similarity,
  plan: {
    spots: readonly { x: number; y: number; enabled: boolean; powerMw?: number | null }[];
    zones: readonly { kind: string; center: Point; radiusXPx: number; radiusYPx: number; rotationDeg: number }[];
  },
): { spots: CarriedSpot[]; zones: CarriedZone[] } {
  const s = scaleOf(transform);
  const turn = rotationDegOf(transform);
  return {
    spots: plan.spots
      .filter((spot) => spot.enabled)
      .map((spot) => ({ ...applySimilarity(transform, spot), powerMw: spot.powerMw ?? null })),
    zones: plan.zones.map((zone) => ({
      kind: zone.kind,
      center: applySimilarity(transform, zone.center),
      radiusXPx: zone.radiusXPx * s,
      radiusYPx: zone.radiusYPx * s,
      rotationDeg: normalisedDegrees(zone.rotationDeg + turn),
    })),
  };
}

/**
 * From the registration's 90 % uncertainty radius to its 99 % radius, for the overlap warning (issue 26: a
 * warning that misses one spot in ten is too lax). For an error that is normal and alike in both directions,
 * the distance is Rayleigh-distributed: r_p = σ·√(−2 ln(1 − p)), so r99 / r90 = √(ln 100 / ln 10) = √2.
 */
export const OVERLAP_UNCERTAINTY_FACTOR = Math.sqrt(Math.log(100) / Math.log(10));

/**
 * Today's spots that may lie on an earlier one: their centres closer than a spot diameter plus the
 * registration's uncertainty (all in today's pixels). Ids of today's spots, ascending. A grid hash keeps it
 * linear in the number of spots.
 */
export function spotsOverEarlier(
  today: readonly { id: number; x: number; y: number; enabled: boolean }[],
  earlier: readonly Point[],
  spotDiameterPx: number,
  uncertaintyPx: number,
): number[] {
  const reach = spotDiameterPx + uncertaintyPx;
  if (!(reach > 0) || earlier.length === 0) return [];
  const cells = new Map<string, Point[]>();
  const cellOf = (p: Point) => [Math.floor(p.x / reach), Math.floor(p.y / reach)] as const;
  for (const p of earlier) {
    const [cx, cy] = cellOf(p);
    const key = `${cx},${cy}`;
    const list = cells.get(key);
    if (list) list.push(p);
    else cells.set(key, [p]);
  }
  const found: number[] = [];
  for (const spot of today) {
    if (!spot.enabled) continue;
    const [cx, cy] = cellOf(spot);
    let near = false;
    for (let dx = -1; dx <= 1 && !near; dx += 1) {
      for (let dy = -1; dy <= 1 && !near; dy += 1) {
        near = (cells.get(`${cx + dx},${cy + dy}`) ?? []).some((p) => distance(p, spot) < reach);
      }
    }
    if (near) found.push(spot.id);
  }
  return found.sort((a, b) => a - b);
}
