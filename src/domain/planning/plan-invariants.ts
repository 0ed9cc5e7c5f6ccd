// The one check every plan passes on every save and before it is packed into a parameter set. Each broken
// invariant has its own code (a message in locales/*/api.json under the same key), the spots it concerns
// and the figures for its message. The checks are independent: a plan that breaks three invariants
// reports three problems, most serious first.
import { withinPowerLimits, type BrightnessModel, type PowerLimits } from './brightness';
import { zoneInRetina, zonesOverlap, type ExclusionZone } from './exclusion-zones';
import { imagePoint, retinaFrame, retinaPoint, toImage, toRetina } from './frames';
import {
  gridPitchUm,
  gridSurroundings,
  latticeIndices,
  latticePosition,
  layOutGrid,
  MAX_SPOTS,
  TooManySpotsError,
  clearOfZones,
  withinField,
  withinRing,
  type GridSettings,
  type GridSpot,
  type ImagedField,
} from './macula-grid';

export interface PlanSpot extends GridSpot {
  brightness?: number | null;
  powerFactor?: number | null;
  powerMw?: number | null;
}

/** What the check reads of a plan (the contract's Plan and the session's laser dose). */
export interface CheckedPlan {
  scale: { umPerPixel: number };
  fovea: { x: number; y: number };
  exclusionZones: { faz: ExclusionZone; onh: ExclusionZone };
  gridSettings: GridSettings | null;
  spots: readonly PlanSpot[];
  brightness: BrightnessModel | null;
  laserDose: number | null;
}

export const PLAN_PROBLEM_CODES = [
  'plan.spot_in_exclusion_zone',
  'plan.spot_outside_field',
  'plan.power_out_of_limits',
  'plan.power_missing',
  'plan.power_disagrees',
  'plan.power_factor_out_of_bounds',
  'plan.spacing_below_setting',
  'plan.spot_outside_ring',
  'plan.spot_off_grid',
  'plan.spot_coordinates_disagree',
  'plan.duplicate_spot_id',
  'plan.spot_count_mismatch',
  'plan.too_many_spots',
  'plan.no_spots',
  'plan.zone_outside_image',
  'plan.zones_overlap',
  'plan.zone_scale_disagrees',
] as const;

export type PlanProblemCode = (typeof PLAN_PROBLEM_CODES)[number];

const SPOTS = ['count'] as const;
/** The figures each problem carries for its message (locales/<lang>/api.json uses exactly these). */
export const PLAN_PROBLEM_PARAMS: Record<PlanProblemCode, readonly string[]> = {
  'plan.spot_in_exclusion_zone': SPOTS,
  'plan.spot_outside_field': SPOTS,
  'plan.power_out_of_limits': ['count', 'minMw', 'maxMw'],
  'plan.power_missing': SPOTS,
  'plan.power_disagrees': SPOTS,
  'plan.power_factor_out_of_bounds': ['count', 'minFactor', 'maxFactor'],
  'plan.spacing_below_setting': ['count', 'minimumUm'],
  'plan.spot_outside_ring': SPOTS,
  'plan.spot_off_grid': SPOTS,
  'plan.spot_coordinates_disagree': SPOTS,
  'plan.duplicate_spot_id': SPOTS,
  'plan.spot_count_mismatch': ['expected', 'actual'],
  'plan.too_many_spots': ['max'],
  'plan.no_spots': [],
  'plan.zone_outside_image': [],
  'plan.zones_overlap': [],
  'plan.zone_scale_disagrees': [],
};

export interface PlanProblem {
  code: PlanProblemCode;
  /** Up to SPOTS_NAMED of the spots concerned (ids), in plan order. */
  spotIds: number[];
  /** Figures for the message: `count` of spots concerned and per code e.g. `expected`, `minMw`, `maxMw`. */
  params: Record<string, number>;
}

export interface PlanCheckContext {
  field: ImagedField;
  limits: PowerLimits;
  /** From the brightness step on: every treated spot has a factor and a power, and they agree. */
  powers: boolean;
  /** Before packing: at least one spot is treated. */
  packing?: boolean;
}

const SPOTS_NAMED = 10;
/** Coordinates agree when they differ by less than this share of their size (doubles through JSON and back are exact). */
const RELATIVE_TOLERANCE = 1e-9;
const agree = (a: number, b: number) => Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));

class Problems {
  private readonly found = new Map<PlanProblemCode, PlanProblem>();

  add(code: PlanProblemCode, spotId?: number, params: Record<string, number> = {}): void {
    let problem = this.found.get(code);
    if (!problem) this.found.set(code, (problem = { code, spotIds: [], params: { count: 0, ...params } }));
    if (spotId === undefined) return;
    problem.params.count++;
    if (problem.spotIds.length < SPOTS_NAMED) problem.spotIds.push(spotId);
  }

  list(): PlanProblem[] {
    return PLAN_PROBLEM_CODES.flatMap((code) => this.found.get(code) ?? []);
  }
}

function checkZones(plan: CheckedPlan, field: ImagedField, problems: Problems): void {
  const frame = retinaFrame(plan.fovea, plan.scale.umPerPixel);
  const { faz, onh } = plan.exclusionZones;
  for (const zone of [faz, onh]) {
    const { x, y } = zone.center;
    if (!(x >= 0 && y >= 0 && x <= field.width && y <= field.height)) problems.add('plan.zone_outside_image');
    if (!agree(zone.radiusXUm, zone.radiusXPx * frame.umPerPixel) || !agree(zone.radiusYUm, zone.radiusYPx * frame.umPerPixel)) {
      problems.add('plan.zone_scale_disagrees');
    }
  }
  if (zonesOverlap(zoneInRetina(faz, frame), zoneInRetina(onh, frame))) problems.add('plan.zones_overlap');
}

/**
 * Treated spots closer than the grid's pitch. Spots go into cells of one pitch, hashed into a table of
 * linked lists (typed arrays, no allocation per spot); each spot meets the spots of its 3 × 3 cells. Two
 * cells that share a bucket only add candidates: the verdict is the distance.
 */
function checkSpacing(spots: readonly PlanSpot[], pitch: number, problems: Problems): void {
  const n = spots.length;
  if (n < 2) return;
  let size = 1;
  while (size < 2 * n) size <<= 1;
  const head = new Int32Array(size).fill(-1);
  const next = new Int32Array(n);
  const cellX = new Float64Array(n);
  const cellY = new Float64Array(n);
  const bucket = (cx: number, cy: number) => (Math.imul(cx | 0, 73856093) ^ Math.imul(cy | 0, 19349663)) & (size - 1);
  for (let k = 0; k < n; k++) {
    cellX[k] = Math.floor(spots[k].xUm / pitch);
    cellY[k] = Math.floor(spots[k].yUm / pitch);
    const b = bucket(cellX[k], cellY[k]);
    next[k] = head[b];
    head[b] = k;
  }
  const minimum = pitch * (1 - RELATIVE_TOLERANCE);
  const minimumSquared = minimum * minimum;
  for (let k = 0; k < n; k++) {
    const { xUm, yUm } = spots[k];
    let tooClose = false;
    for (let dx = -1; dx <= 1 && !tooClose; dx++) {
      for (let dy = -1; dy <= 1 && !tooClose; dy++) {
        for (let other = head[bucket(cellX[k] + dx, cellY[k] + dy)]; other >= 0; other = next[other]) {
          const ex = spots[other].xUm - xUm;
          const ey = spots[other].yUm - yUm;
          if (other !== k && ex * ex + ey * ey < minimumSquared) {
            tooClose = true;
            break;
          }
        }
      }
    }
    if (tooClose) problems.add('plan.spacing_below_setting', spots[k].id, { minimumUm: Math.round(pitch * 10) / 10 });
  }
}

function checkPowers(plan: CheckedPlan, treated: readonly PlanSpot[], limits: PowerLimits, problems: Problems): void {
  const model = plan.brightness;
  for (const spot of treated) {
    const { powerMw, powerFactor } = spot;
    if (powerMw == null || powerFactor == null || !model || plan.laserDose == null) {
      problems.add('plan.power_missing', spot.id);
      continue;
    }
    if (!withinPowerLimits(limits, powerMw)) problems.add('plan.power_out_of_limits', spot.id, { minMw: limits.minMw, maxMw: limits.maxMw });
    if (powerFactor < model.minFactor || powerFactor > model.maxFactor) {
      problems.add('plan.power_factor_out_of_bounds', spot.id, { minFactor: model.minFactor, maxFactor: model.maxFactor });
    }
    // Powers are the dose times the factor to the device's 0.1 mW: never more than half a step apart.
    if (Math.abs(powerMw - plan.laserDose * powerFactor) > 0.05 + 1e-9) problems.add('plan.power_disagrees', spot.id);
  }
}

/** Every broken invariant of the plan; none for a plan that may be saved (and, with `packing`, packed). */
export function checkPlan(plan: CheckedPlan, context: PlanCheckContext): PlanProblem[] {
  const problems = new Problems();
  checkZones(plan, context.field, problems);
  const settings = plan.gridSettings;
  if (!settings) {
    if (plan.spots.length) problems.add('plan.spot_count_mismatch', undefined, { expected: 0, actual: plan.spots.length });
    if (context.packing) problems.add('plan.no_spots');
    return problems.list();
  }

  const frame = retinaFrame(plan.fovea, plan.scale.umPerPixel);
  const surroundings = gridSurroundings(frame, [plan.exclusionZones.faz, plan.exclusionZones.onh], context.field);
  const radiusUm = settings.spotSizeUm / 2;
  const radiusPx = radiusUm / frame.umPerPixel;
  const seen = new Set<number>();
  for (const spot of plan.spots) {
    if (seen.has(spot.id)) problems.add('plan.duplicate_spot_id', spot.id);
    seen.add(spot.id);
    const retina = toRetina(frame, imagePoint(spot.x, spot.y));
    if (!agree(retina.xUm, spot.xUm) || !agree(retina.yUm, spot.yUm)) problems.add('plan.spot_coordinates_disagree', spot.id);
    // Exclusion and field are judged on each of the two positions the spot carries: the laser reads µm,
    // the display pixels, and neither may be wrong.
    const image = toImage(frame, retinaPoint(spot.xUm, spot.yUm));
    if (!clearOfZones(surroundings, spot, radiusUm)) problems.add('plan.spot_in_exclusion_zone', spot.id);
    if (!withinField(context.field, spot.x, spot.y, radiusPx) || !withinField(context.field, image.x, image.y, radiusPx)) {
      problems.add('plan.spot_outside_field', spot.id);
    }
    if (!withinRing(settings, spot.xUm, spot.yUm)) problems.add('plan.spot_outside_ring', spot.id);
    const indices = latticeIndices(spot.id);
    const onLattice = indices && latticePosition(settings, indices.i, indices.j);
    if (!onLattice || !agree(onLattice.xUm, spot.xUm) || !agree(onLattice.yUm, spot.yUm)) problems.add('plan.spot_off_grid', spot.id);
  }

  const treated = plan.spots.filter((spot) => spot.enabled);
  checkSpacing(treated, gridPitchUm(settings), problems);
  if (plan.spots.length > MAX_SPOTS) problems.add('plan.too_many_spots', undefined, { max: MAX_SPOTS });
  else {
    try {
      const expected = layOutGrid(settings, surroundings);
      const sameSpots = expected.length === seen.size && expected.every((spot) => seen.has(spot.id));
      if (!sameSpots || seen.size !== plan.spots.length) {
        problems.add('plan.spot_count_mismatch', undefined, { expected: expected.length, actual: plan.spots.length });
      }
    } catch (error) {
      if (!(error instanceof TooManySpotsError)) throw error;
      problems.add('plan.too_many_spots', undefined, { max: MAX_SPOTS });
    }
  }
  if (context.powers) checkPowers(plan, treated, context.limits, problems);
  if (context.packing && treated.length === 0) problems.add('plan.no_spots');
  return problems.list();
}
