// Optic disc and fovea detection by classical image analysis (no learned weights), so that processing an
// exam can propose the ONH and FAZ exclusion zones for the user to confirm. Pure: the server and the
// browser run the same code.
//
// Outline: average the photo down to a working size; find the lit field of view; estimate the disc
// diameter in pixels (from the exam's scale, else from the aperture); remove the vessels with a closing;
// optic disc candidates are bright compact blobs where vessels are dense; around each candidate the fovea
// is the darkest spot of the anatomical window (about 4.76 mm temporal of the disc and a little below it),
// weighed against how far it strays from the expected distance and angle. The best disc and fovea pair
// wins; positions are reported in the input raster's pixels.
import { findFieldOfView, RIM_SHARE, type FieldOfView } from './field-of-view';
import { closing, createMaskedBlur, downsampleRaster, gaussianBlur, type MaskedBlur, type Plane } from './image-ops';
import type { FundusLandmarks, Point, Raster } from './raster';

export interface DetectionOptions {
  /** OD: the optic disc lies right of the fovea in the image; OS: left. null or missing: unknown. */
  eye?: 'OD' | 'OS' | null;
  /** Micrometres on the retina per input pixel, when the exam knows it. */
  umPerPixel?: number | null;
}

/** Positions are in the input raster's pixels, continuous: pixel i covers [i, i + 1), its centre is i + 0.5. */
export interface LandmarkDetection extends FundusLandmarks {
  /**
   * How clearly each finding stands out, 0–1: a heuristic score, not a calibrated probability.
   * - opticDisc grows with the disc's contrast (brightness and vessel convergence against the rest of the
   *   fundus, in units of their spread) and with its lead over the next-best candidate: two similar bright
   *   spots give a low value.
   * - fovea grows with how much darker the spot is than its surroundings (15 % darker counts as fully
   *   dark) and with its lead over any other spot in the anatomical window (after the distance and angle
   *   priors), and is scaled down by an uncertain disc, which places that window.
   * 0 means the position is only the anatomical default (tiny, blank or uniform image). Below about 0.3 treat
   * the finding as a guess the user must check; a high value does not rule out a wrong finding on an
   * atypical fundus (e.g. a disc at the rim of the field next to bright atrophy).
   */
  confidence: { opticDisc: number; fovea: number };
  /**
   * The camera's circular aperture in input pixels, its rim left out as detection leaves it out (a bright
   * reflex or a dark vignette); null when the fundus fills the frame or the image was unreadable.
   */
  aperture?: { center: Point; radiusPx: number } | null;
}

/** Longer side of the working copy: ~30 px per disc diameter on a 45° photo, ample for a 0.25 DD target. */
const WORKING_SIDE = 320;
const DISC_DIAMETER_UM = 1800;
const DISC_FOVEA_UM = 4760;
const UM_PER_DEGREE = 288;
/** Assumed angle of a circular field of view when the exam does not know its scale (common 45° cameras). */
const ASSUMED_FIELD_DEGREES = 45;
/** Fovea below the horizontal through the disc (image y down), degrees: typical, spread and hard limits. */
const FOVEA_ANGLE = { typical: 7, spread: 6, min: -10, max: 25 };
/**
 * Relative spread of the disc–fovea distance around its expectation, by where the scale came from: the
 * anatomy alone varies by ~6 % (IDRiD); an aperture adds the unknown field angle; a frame-filling photo
 * says little about the scale.
 */
const DISTANCE_SPREAD = { exam: 0.08, aperture: 0.15, frame: 0.3 };
/** Weight of the anatomical priors against the darkness of the fovea (both in standard units). */
const PRIOR_WEIGHT = 0.5;
/** How much a dark fovea may outweigh a brighter disc candidate, and the field-centre preference. */
const FOVEA_WEIGHT = 0.3;
const CENTRE_WEIGHT = 1;
const DISC_CANDIDATES = 4;

type ScaleSource = keyof typeof DISTANCE_SPREAD;

interface DiscCandidate {
  center: Point;
  radius: number;
  score: number;
}

interface FoveaFinding {
  point: Point;
  /** Darkness less the prior penalty. */
  score: number;
  /** Lead of the score over the best point elsewhere in the window. */
  margin: number;
}

export function detectLandmarks(raster: Raster, options: DetectionOptions = {}): LandmarkDetection {
  const width = Number.isFinite(raster.width) ? Math.max(0, Math.floor(raster.width)) : 0;
  const height = Number.isFinite(raster.height) ? Math.max(0, Math.floor(raster.height)) : 0;
  const umPerPixel =
    options.umPerPixel && Number.isFinite(options.umPerPixel) && options.umPerPixel > 0 ? options.umPerPixel : null;
  const readable = width >= 16 && height >= 16 && raster.data.length >= width * height * 3;
  const work = readable ? downsampleRaster(raster, WORKING_SIDE) : null;
  if (!work || work.green.width < 12 || work.green.height < 12) {
    return anatomicalDefault(width, height, options.eye, umPerPixel);
  }

  const fieldOfView = findFieldOfView(work.red);
  const { mask } = fieldOfView;
  const scale = discScale(work.scale, work.green, fieldOfView, umPerPixel);
  const discDiameter = scale.diameter;

  // Vessels are narrower than ~1/12 disc diameter: a closing removes them, so that the disc stays bright
  // and the fovea is not confused with a vessel crossing; what it removed is the vessel map.
  const vesselFree = closing(work.green, Math.max(1, Math.round(discDiameter / 12)));
  const blur = createMaskedBlur(mask, work.green.width, work.green.height);
  const discs = findDiscCandidates(work.green, vesselFree, mask, discDiameter, blur);
  const darkness = foveaDarkness(vesselFree, mask, discDiameter, blur);

  const expectedDistance = (discDiameter * DISC_FOVEA_UM) / DISC_DIAMETER_UM;
  const fieldRadius = 0.5 * (fieldOfView.diameter ?? Math.max(work.green.width, work.green.height));
  let best: { disc: DiscCandidate; fovea: FoveaFinding; total: number } | null = null;
  for (const disc of discs) {
    for (const side of sidesToSearch(options.eye)) {
      const spreadOfDistance = DISTANCE_SPREAD[scale.source];
      const fovea = findFovea(darkness.standard, mask, disc.center, side, expectedDistance, spreadOfDistance);
      if (!fovea) continue;
      // The disc lies nasal in the picture, so the fovea is usually on its side towards the field's centre.
      const towardsCentre = (side * (fieldOfView.center.x - disc.center.x)) / fieldRadius;
      const total = disc.score + FOVEA_WEIGHT * fovea.score + CENTRE_WEIGHT * towardsCentre;
      if (!best || total > best.total) best = { disc, fovea, total };
    }
  }
  // Nothing stands out even by one spread (a uniform or nearly uniform image): the textbook layout is the
  // better guess than an arbitrary pixel.
  if (!best || best.disc.score < 1) return anatomicalDefault(width, height, options.eye, umPerPixel);

  const winner = best.disc;
  const runnerUp = discs.filter((d) => d !== winner).reduce((m, d) => Math.max(m, d.score), 0);
  const discConfidence = clamp01((winner.score - 2) / 4) * clamp01((winner.score - runnerUp) / 2);
  const foveaAt = Math.round(best.fovea.point.y) * darkness.standard.width + Math.round(best.fovea.point.x);
  const relativeDepth = darkness.standard.data[foveaAt] * darkness.unit;
  const foveaConfidence =
    clamp01(best.fovea.margin / 2) * clamp01(relativeDepth / 0.15) * Math.sqrt(discConfidence);
  // Working pixel i is the average of input pixels [i·scale, (i+1)·scale), so its centre is (i + 0.5)·scale.
  const toInput = (p: Point): Point => ({
    x: clampTo((p.x + 0.5) * work.scale, width),
    y: clampTo((p.y + 0.5) * work.scale, height),
  });
  const rim = RIM_SHARE * Math.max(work.green.width, work.green.height);
  const aperture =
    fieldOfView.diameter === null
      ? null
      : { center: toInput(fieldOfView.center), radiusPx: Math.max(0, fieldOfView.diameter / 2 - rim) * work.scale };
  return {
    opticDisc: { center: toInput(winner.center), radiusPx: winner.radius * work.scale },
    fovea: toInput(best.fovea.point),
    confidence: { opticDisc: discConfidence, fovea: foveaConfidence },
    aperture,
  };
}

function clamp01(v: number): number {
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0;
}

function clampTo(v: number, size: number): number {
  return Math.min(Math.max(0, size), Math.max(0, v));
}

/** Fovea search sides: -1 = fovea left of the disc in the image (OD), +1 = right (OS). */
function sidesToSearch(eye: DetectionOptions['eye']): Array<-1 | 1> {
  if (eye === 'OD') return [-1];
  if (eye === 'OS') return [1];
  return [-1, 1];
}

/**
 * Expected optic disc diameter in working pixels, and where that knowledge came from. Kept between 2 %
 * (an ultra-wide field) and 40 % (a narrow field) of the frame, so a wrong exam scale cannot make the search
 * degenerate.
 */
function discScale(
  scale: number,
  plane: Plane,
  fieldOfView: FieldOfView,
  umPerPixel: number | null,
): { diameter: number; source: ScaleSource } {
  const side = Math.max(plane.width, plane.height);
  const plausible = (diameter: number) => Math.min(0.4 * side, Math.max(0.02 * side, diameter));
  if (umPerPixel) return { diameter: plausible(DISC_DIAMETER_UM / umPerPixel / scale), source: 'exam' };
  const fieldUm = ASSUMED_FIELD_DEGREES * UM_PER_DEGREE;
  if (fieldOfView.diameter) {
    return { diameter: plausible((fieldOfView.diameter * DISC_DIAMETER_UM) / fieldUm), source: 'aperture' };
  }
  // A frame-filling photo: as if the 45° field spanned the frame's longer side.
  return { diameter: (side * DISC_DIAMETER_UM) / fieldUm, source: 'frame' };
}

/**
 * Optic disc candidates: bright compact blobs in the vessel-free green channel (centre minus surround at
 * the disc's scale) where vessels are dense, since they converge on the disc. Scores are in units of the
 * maps' spread over the field of view.
 */
function findDiscCandidates(
  green: Plane,
  vesselFree: Plane,
  mask: Uint8Array,
  discDiameter: number,
  blur: MaskedBlur,
): DiscCandidate[] {
  const { width, height } = green;
  const size = width * height;
  const centre = blur(vesselFree, discDiameter / 4);
  const surround = blur(vesselFree, discDiameter * 1.2);
  const vessels = new Float32Array(size);
  for (let i = 0; i < size; i++) vessels[i] = vesselFree.data[i] - green.data[i];
  const vesselDensity = blur({ width, height, data: vessels }, discDiameter / 2).data;

  const blob = new Float32Array(size);
  for (let i = 0; i < size; i++) blob[i] = centre.data[i] - surround.data[i];
  const blobSpread = spread(blob, mask);
  const vesselSpread = spread(vesselDensity, mask);
  const vesselMean = mean(vesselDensity, mask);
  const score = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    score[i] = mask[i] ? blob[i] / blobSpread + (0.25 * (vesselDensity[i] - vesselMean)) / vesselSpread : -Infinity;
  }

  const outline = gaussianBlur(vesselFree, discDiameter / 24);
  const candidates: DiscCandidate[] = [];
  for (let k = 0; k < DISC_CANDIDATES; k++) {
    let at = -1;
    for (let i = 0; i < size; i++) if (score[i] > -Infinity && (at < 0 || score[i] > score[at])) at = i;
    if (at < 0) break;
    const peak = { x: at % width, y: Math.floor(at / width) };
    candidates.push({ ...outlineDisc(outline, mask, peak, discDiameter), score: score[at] });
    // Candidates at least a disc diameter apart.
    const r = Math.ceil(discDiameter);
    for (let y = Math.max(0, peak.y - r); y <= Math.min(height - 1, peak.y + r); y++) {
      for (let x = Math.max(0, peak.x - r); x <= Math.min(width - 1, peak.x + r); x++) {
        if ((x - peak.x) ** 2 + (y - peak.y) ** 2 <= r * r) score[y * width + x] = -Infinity;
      }
    }
  }
  return candidates;
}

/**
 * The disc around a candidate: pixels brighter than 30 % of the way from the surroundings to the disc's
 * brightest part, within reach of the centre; the centre moves to their centroid a few times over and their
 * area gives the radius. The reach keeps a bright peripapillary crescent from pulling the disc away.
 */
function outlineDisc(
  plane: Plane,
  mask: Uint8Array,
  candidate: Point,
  discDiameter: number,
): { center: Point; radius: number } {
  const { width, height, data } = plane;
  const fallback = { center: candidate, radius: discDiameter / 2 };
  const inner: number[] = [];
  const ring: number[] = [];
  forEachWithin(width, height, candidate, discDiameter, (i, d) => {
    if (!mask[i]) return;
    if (d <= discDiameter / 2) inner.push(data[i]);
    else if (d >= 0.8 * discDiameter) ring.push(data[i]);
  });
  if (inner.length === 0 || ring.length === 0) return fallback;
  inner.sort((a, b) => a - b);
  ring.sort((a, b) => a - b);
  const background = ring[Math.floor(ring.length / 2)];
  const level = background + 0.3 * (inner[Math.floor(0.95 * (inner.length - 1))] - background);

  const reach = 0.6 * discDiameter;
  let center = candidate;
  let count = 0;
  for (let iteration = 0; iteration < 4; iteration++) {
    let sumX = 0;
    let sumY = 0;
    count = 0;
    forEachWithin(width, height, center, reach, (i) => {
      if (!mask[i] || data[i] < level) return;
      count++;
      sumX += i % width;
      sumY += Math.floor(i / width);
    });
    if (count === 0) return fallback;
    center = { x: sumX / count, y: sumY / count };
  }
  const radius = Math.sqrt(count / Math.PI);
  return { center, radius: Math.min(0.75, Math.max(0.2, radius / discDiameter)) * discDiameter };
}

/** Calls `visit(index, distance)` for every pixel within `radius` of `center`. */
function forEachWithin(
  width: number,
  height: number,
  center: Point,
  radius: number,
  visit: (i: number, d: number) => void,
): void {
  const y0 = Math.max(0, Math.ceil(center.y - radius));
  const y1 = Math.min(height - 1, Math.floor(center.y + radius));
  for (let y = y0; y <= y1; y++) {
    const x0 = Math.max(0, Math.ceil(center.x - radius));
    const x1 = Math.min(width - 1, Math.floor(center.x + radius));
    for (let x = x0; x <= x1; x++) {
      const d = Math.hypot(x - center.x, y - center.y);
      if (d <= radius) visit(y * width + x, d);
    }
  }
}

/**
 * How much darker each point is than its surroundings half a disc diameter out, relative to their
 * brightness (so vignetting does not matter): `standard` in units of that darkness's spread over the field,
 * `unit` the spread (standard × unit = share of the surroundings' brightness).
 */
function foveaDarkness(
  vesselFree: Plane,
  mask: Uint8Array,
  discDiameter: number,
  blur: MaskedBlur,
): { standard: Plane; unit: number } {
  const { width, height } = vesselFree;
  const local = blur(vesselFree, discDiameter / 10).data;
  const surround = blur(vesselFree, discDiameter / 2).data;
  const darkness = new Float32Array(width * height);
  for (let i = 0; i < darkness.length; i++) {
    darkness[i] = mask[i] ? (surround[i] - local[i]) / Math.max(4, surround[i]) : 0;
  }
  const s = spread(darkness, mask);
  for (let i = 0; i < darkness.length; i++) darkness[i] /= s;
  return { standard: { width, height, data: darkness }, unit: s };
}

/**
 * The fovea for one disc candidate and side: the point of the anatomical window that is darkest once the
 * priors on distance (expected ± its spread) and angle below the horizontal are taken off.
 */
function findFovea(
  darkness: Plane,
  mask: Uint8Array,
  disc: Point,
  side: -1 | 1,
  expectedDistance: number,
  relativeSpread: number,
): FoveaFinding | null {
  const { width, height, data } = darkness;
  const distanceSpread = relativeSpread * expectedDistance;
  const minDistance = Math.max(0.5 * expectedDistance, expectedDistance - 3 * distanceSpread);
  const maxDistance = expectedDistance + 3 * distanceSpread;
  // The bounding box of the window (an annular sector between the angle limits).
  const sinMin = Math.sin((FOVEA_ANGLE.min * Math.PI) / 180);
  const sinMax = Math.sin((FOVEA_ANGLE.max * Math.PI) / 180);
  const nearest = minDistance * Math.cos((Math.max(-FOVEA_ANGLE.min, FOVEA_ANGLE.max) * Math.PI) / 180);
  const x0 = Math.max(0, Math.floor(side < 0 ? disc.x - maxDistance : disc.x + nearest));
  const x1 = Math.min(width - 1, Math.ceil(side < 0 ? disc.x - nearest : disc.x + maxDistance));
  const y0 = Math.max(0, Math.floor(disc.y + Math.min(sinMin * maxDistance, sinMin * minDistance)));
  const y1 = Math.min(height - 1, Math.ceil(disc.y + sinMax * maxDistance));
  const tanMin = Math.tan((FOVEA_ANGLE.min * Math.PI) / 180);
  const tanMax = Math.tan((FOVEA_ANGLE.max * Math.PI) / 180);
  const score = (x: number, y: number): number => {
    const along = side * (x - disc.x);
    const below = y - disc.y;
    if (along <= 0 || below < tanMin * along || below > tanMax * along) return -Infinity;
    const distance = Math.hypot(along, below);
    if (distance < minDistance || distance > maxDistance) return -Infinity;
    const angle = (Math.atan2(below, along) * 180) / Math.PI;
    const distanceOff = (distance - expectedDistance) / distanceSpread;
    const angleOff = (angle - FOVEA_ANGLE.typical) / FOVEA_ANGLE.spread;
    return data[y * width + x] - PRIOR_WEIGHT * 0.5 * (distanceOff * distanceOff + angleOff * angleOff);
  };
  let best: { x: number; y: number; score: number } | null = null;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!mask[y * width + x]) continue;
      const s = score(x, y);
      if (s > -Infinity && (!best || s > best.score)) best = { x, y, score: s };
    }
  }
  if (!best) return null;
  const { x, y } = best;
  // The best rival at least half a disc diameter away: a second dark spot makes the finding ambiguous.
  const apart = (0.5 * expectedDistance * DISC_DIAMETER_UM) / DISC_FOVEA_UM;
  let rival = -Infinity;
  for (let yy = y0; yy <= y1; yy++) {
    for (let xx = x0; xx <= x1; xx++) {
      if (!mask[yy * width + xx] || (xx - x) ** 2 + (yy - y) ** 2 < apart * apart) continue;
      rival = Math.max(rival, score(xx, yy));
    }
  }
  return {
    point: {
      x: x + parabolicOffset(score(x - 1, y), best.score, score(x + 1, y)),
      y: y + parabolicOffset(score(x, y - 1), best.score, score(x, y + 1)),
    },
    score: best.score,
    margin: Number.isFinite(rival) ? best.score - rival : best.score,
  };
}

/** Sub-pixel position of a peak from its two neighbours (0 when a neighbour is missing). */
function parabolicOffset(before: number, peak: number, after: number): number {
  if (!Number.isFinite(before) || !Number.isFinite(after)) return 0;
  const curvature = before - 2 * peak + after;
  if (curvature >= 0) return 0;
  return Math.max(-0.5, Math.min(0.5, (0.5 * (before - after)) / curvature));
}

function mean(values: Float32Array, mask: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask[i]) {
      sum += values[i];
      n++;
    }
  }
  return n ? sum / n : 0;
}

/** Standard deviation inside the mask, never zero (a uniform image would divide by it). */
function spread(values: Float32Array, mask: Uint8Array): number {
  const m = mean(values, mask);
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    if (mask[i]) {
      sum += (values[i] - m) ** 2;
      n++;
    }
  }
  return Math.max(1e-6, Math.sqrt(n ? sum / n : 0));
}

/**
 * Nothing to search (tiny or unreadable raster): the textbook layout with zero confidence, the fovea in the
 * centre and the disc 4.76 mm nasal of it and a little above (right for OD and an unknown eye, left for OS).
 */
function anatomicalDefault(
  width: number,
  height: number,
  eye: DetectionOptions['eye'],
  umPerPixel: number | null,
): LandmarkDetection {
  const discDiameter = umPerPixel
    ? DISC_DIAMETER_UM / umPerPixel
    : (Math.max(width, height, 1) * DISC_DIAMETER_UM) / (ASSUMED_FIELD_DEGREES * UM_PER_DEGREE);
  const fovea = { x: width / 2, y: height / 2 };
  const nasal = eye === 'OS' ? -1 : 1;
  const distance = (discDiameter * DISC_FOVEA_UM) / DISC_DIAMETER_UM;
  const angle = (FOVEA_ANGLE.typical * Math.PI) / 180;
  return {
    opticDisc: {
      center: {
        x: clampTo(fovea.x + nasal * distance * Math.cos(angle), width),
        y: clampTo(fovea.y - distance * Math.sin(angle), height),
      },
      radiusPx: discDiameter / 2,
    },
    fovea,
    confidence: { opticDisc: 0, fovea: 0 },
  };
}
