// The one check every plan passes on every save and before it is packed into a parameter set. Each broken
// invariant has its own code (a message in locales/*/api.json under the same key), the spots it concerns
// and the figures for its message. The checks are independent: a plan that breaks three invariants
// reports three problems, most serious first.
// Two kinds of invariant: consistency with what was drawn (spots clear of the zones, on the lattice, powers
// from the factors) and clinical safety whatever was drawn (clinical-limits.ts: the foveal minimum, the disc
// covered with its margin, laterality, plausible anatomy, no overlap, a complete dose within the treating
// device's profile and the irradiance ceilings).
import { brightnessOutlier, DEFAULT_POWER_LIMITS, withinPowerLimits, type BrightnessModel, type PowerLimits } from './brightness';
import {
  DEFAULT_CLINICAL_LIMITS,
  DISC_FOVEA,
  discMarginUm,
  fovealMinimumUm,
  irradianceCeiling,
  irradianceWPerCm2,
  minimumSpacing,
  type ClinicalLimits,
  type LaserModeName,
  type LaserProfile,
} from './clinical-limits';
import { insideEllipse } from './ellipse';
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

/** The session's laser settings as the plan will be lasered with them. */
export interface PlanLaser {
  laserMode: LaserModeName | null;
  pulseDurationMs: number | null;
  /** Micropulse only, %. */
  dutyCyclePercent: number | null;
  spotSizeUm: number | null;
  spotSpacing: number | null;
}

/** What the check reads of a plan (the contract's Plan, the session's eye, laser dose and settings). */
export interface CheckedPlan {
  scale: { umPerPixel: number };
  fovea: { x: number; y: number };
  /** The optic disc as detected or confirmed (image pixels); null for a plan made without one. */
  opticDisc?: { center: { x: number; y: number }; radiusPx: number } | null;
  /** The treated eye; laterality is checked for OD and OS. */
  eye?: string | null;
  exclusionZones: { faz: ExclusionZone; onh: ExclusionZone };
  gridSettings: GridSettings | null;
  spots: readonly PlanSpot[];
  brightness: BrightnessModel | null;
  laserDose: number | null;
  laser?: PlanLaser | null;
}

export const PLAN_PROBLEM_CODES = [
  'plan.laterality_mismatch',
  'plan.disc_fovea_implausible',
  'plan.spot_near_fovea',
  'plan.disc_not_covered',
  'plan.spacing_too_small',
  'plan.ring_too_wide',
  'plan.device_profile_missing',
  'plan.laser_settings_missing',
  'plan.mode_not_offered',
  'plan.spot_size_not_offered',
  'plan.pulse_out_of_range',
  'plan.duty_cycle_missing',
  'plan.duty_cycle_out_of_range',
  'plan.irradiance_too_high',
  'plan.power_above_titration',
  'plan.laser_grid_disagree',
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
  'plan.laterality_mismatch': [],
  'plan.disc_fovea_implausible': ['distanceUm', 'minUm', 'maxUm'],
  'plan.spot_near_fovea': ['count', 'minimumUm', 'closestUm'],
  'plan.disc_not_covered': ['marginUm', 'coveredUm'],
  'plan.spacing_too_small': ['spacing', 'minimum'],
  'plan.ring_too_wide': ['outerRadiusUm', 'maxUm'],
  'plan.device_profile_missing': [],
  'plan.laser_settings_missing': [],
  'plan.mode_not_offered': [],
  'plan.spot_size_not_offered': ['spotSizeUm', 'minUm', 'maxUm'],
  'plan.pulse_out_of_range': ['pulseMs', 'minMs', 'maxMs'],
  'plan.duty_cycle_missing': [],
  'plan.duty_cycle_out_of_range': ['dutyCyclePercent', 'minPercent', 'maxPercent'],
  'plan.irradiance_too_high': ['count', 'highestWPerCm2', 'maxWPerCm2'],
  'plan.power_above_titration': ['count', 'maxFactor'],
  'plan.laser_grid_disagree': [],
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
  /** The clinic's clinical limits (default: the protocols' figures). */
  clinical?: ClinicalLimits;
  /** The laser profile of the device that will treat; null when none is known (packing then refuses). */
  profile?: LaserProfile | null;
  /** From the brightness step on: every treated spot has a factor and a power, and they agree. */
  powers: boolean;
  /** From the final adjustments on: the laser settings are complete and within the device's profile. */
  laser?: boolean;
  /** Before packing: at least one spot is treated, and the laser is checked. */
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

  get(code: PlanProblemCode): PlanProblem | undefined {
    return this.found.get(code);
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

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Laterality and the disc–fovea distance: the landmarks fit a real eye at the plan's scale. */
function checkAnatomy(plan: CheckedPlan, problems: Problems): void {
  const disc = plan.opticDisc;
  if (!disc) return;
  // In a fundus photograph the disc lies nasal to the fovea: to the right in a right eye, to the left in a left one.
  const dx = disc.center.x - plan.fovea.x;
  if ((plan.eye === 'OD' && !(dx > 0)) || (plan.eye === 'OS' && !(dx < 0))) problems.add('plan.laterality_mismatch');
  const distanceUm = Math.hypot(dx, disc.center.y - plan.fovea.y) * plan.scale.umPerPixel;
  if (!(distanceUm >= DISC_FOVEA.minUm && distanceUm <= DISC_FOVEA.maxUm)) {
    problems.add('plan.disc_fovea_implausible', undefined, { distanceUm: Math.round(distanceUm), minUm: DISC_FOVEA.minUm, maxUm: DISC_FOVEA.maxUm });
  }
}

/** Points on the enlarged disc's edge that the ONH zone must hold. */
const COVER_POINTS = 256;
/**
 * How far the enlarged disc may reach beyond the zone: half a micrometre, far below the 100 µm aiming margin
 * it is part of, and above the rounding of a zone proposed to 0.01 px (and of the points between those checked,
 * at most 0.1 µm in for a 1,500 µm circle).
 */
const COVER_TOLERANCE_UM = 0.5;

/**
 * The ONH zone holds the optic disc and the margin around its edge, judged on points of the enlarged disc's
 * edge; the message gives the margin the zone does keep, from the nearest of its edge points.
 */
function checkDiscCover(plan: CheckedPlan, frame: ReturnType<typeof retinaFrame>, limits: ClinicalLimits, problems: Problems): void {
  const disc = plan.opticDisc;
  if (!disc) return;
  const zone = zoneInRetina(plan.exclusionZones.onh, frame);
  const centre = toRetina(frame, imagePoint(disc.center.x, disc.center.y));
  const discRadiusUm = disc.radiusPx * frame.umPerPixel;
  const margin = discMarginUm(limits);
  const corner = discRadiusUm + margin - COVER_TOLERANCE_UM;
  let covered = true;
  for (let k = 0; k < COVER_POINTS && covered; k++) {
    const angle = (2 * Math.PI * k) / COVER_POINTS;
    covered = insideEllipse(zone, centre.xUm + corner * Math.cos(angle), centre.yUm + corner * Math.sin(angle));
  }
  if (covered) return;
  let nearest = insideEllipse(zone, centre.xUm, centre.yUm) ? Number.POSITIVE_INFINITY : 0;
  for (let k = 0; k < COVER_POINTS && nearest > 0; k++) {
    const angle = (2 * Math.PI * k) / COVER_POINTS;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const x = zone.cx + zone.rx * cos * Math.cos(zone.rotation) - zone.ry * sin * Math.sin(zone.rotation);
    const y = zone.cy + zone.rx * cos * Math.sin(zone.rotation) + zone.ry * sin * Math.cos(zone.rotation);
    nearest = Math.min(nearest, Math.hypot(x - centre.xUm, y - centre.yUm));
  }
  problems.add('plan.disc_not_covered', undefined, { marginUm: margin, coveredUm: Math.max(0, Math.floor(nearest - discRadiusUm)) });
}

/** No treated spot's edge closer to the fovea than the clearance and the aiming margin. */
function checkFovealMinimum(treated: readonly PlanSpot[], radiusUm: number, limits: ClinicalLimits, problems: Problems): void {
  const minimum = fovealMinimumUm(limits);
  let closest = Number.POSITIVE_INFINITY;
  const near: number[] = [];
  for (const spot of treated) {
    const edge = Math.hypot(spot.xUm, spot.yUm) - radiusUm;
    if (edge < minimum) {
      near.push(spot.id);
      closest = Math.min(closest, edge);
    }
  }
  if (!near.length) return;
  problems.add('plan.spot_near_fovea', undefined, { minimumUm: minimum, closestUm: Math.max(0, Math.floor(closest)) });
  for (const id of near) problems.add('plan.spot_near_fovea', id);
}

/** The grid's own settings: no overlapping spots (the mode's spacing) and a ring within the macula. */
function checkGridSettings(plan: CheckedPlan, settings: GridSettings, context: PlanCheckContext, limits: ClinicalLimits, problems: Problems): void {
  const minimum = minimumSpacing(limits, plan.laser?.laserMode ?? null, context.profile ?? null);
  if (settings.spacing < minimum - 1e-9) problems.add('plan.spacing_too_small', undefined, { spacing: settings.spacing, minimum });
  if (settings.outerRadiusUm > limits.outerRadiusUm) problems.add('plan.ring_too_wide', undefined, { outerRadiusUm: settings.outerRadiusUm, maxUm: limits.outerRadiusUm });
}

/**
 * The laser settings as they will be lasered: complete, a mode the treating device offers, spot size, pulse and
 * (micropulse) duty cycle within its profile and the clinical limits, and equal to the plan's grid.
 */
function checkLaser(plan: CheckedPlan, context: PlanCheckContext, limits: ClinicalLimits, problems: Problems): void {
  const laser = plan.laser;
  if (!laser || laser.laserMode === null || laser.pulseDurationMs === null || plan.laserDose === null || laser.spotSizeUm === null) {
    problems.add('plan.laser_settings_missing');
    return;
  }
  const settings = plan.gridSettings;
  if (settings && (laser.spotSizeUm !== settings.spotSizeUm || (laser.spotSpacing !== null && laser.spotSpacing !== settings.spacing))) {
    problems.add('plan.laser_grid_disagree');
  }
  const profile = context.profile;
  if (!profile) {
    problems.add('plan.device_profile_missing');
    return;
  }
  const mode = profile.modes[laser.laserMode];
  if (!mode) {
    problems.add('plan.mode_not_offered');
    return;
  }
  const { min: minUm, max: maxUm } = profile.spotSizeUm;
  if (laser.spotSizeUm < minUm || laser.spotSizeUm > maxUm) problems.add('plan.spot_size_not_offered', undefined, { spotSizeUm: laser.spotSizeUm, minUm, maxUm });
  const maxMs = laser.laserMode === 'continuous' ? Math.min(mode.pulseMs.max, limits.continuousPulseMs) : mode.pulseMs.max;
  if (laser.pulseDurationMs < mode.pulseMs.min || laser.pulseDurationMs > maxMs) {
    problems.add('plan.pulse_out_of_range', undefined, { pulseMs: laser.pulseDurationMs, minMs: mode.pulseMs.min, maxMs });
  }
  if (laser.laserMode === 'micropulse') {
    const duty = laser.dutyCyclePercent;
    const range = profile.modes.micropulse!.dutyCyclePercent;
    const maxPercent = Math.min(range.max, limits.micropulseDutyCyclePercent);
    if (duty === null) problems.add('plan.duty_cycle_missing');
    else if (duty < range.min || duty > maxPercent) problems.add('plan.duty_cycle_out_of_range', undefined, { dutyCyclePercent: duty, minPercent: range.min, maxPercent });
  }
}

/** The power range of the treating device in the plan's mode; the file format's when either is unknown. */
function powerLimitsOf(plan: CheckedPlan, profile: LaserProfile | null | undefined): PowerLimits {
  const mode = plan.laser?.laserMode ? profile?.modes[plan.laser.laserMode] : undefined;
  return mode ? { minMw: mode.powerMw.min, maxMw: mode.powerMw.max } : DEFAULT_POWER_LIMITS;
}

function checkPowers(plan: CheckedPlan, treated: readonly PlanSpot[], context: PlanCheckContext, limits: ClinicalLimits, problems: Problems): void {
  const model = plan.brightness;
  const range = powerLimitsOf(plan, context.profile);
  const laser = plan.laser;
  // The irradiance once mode and spot size are known (micropulse: and its duty cycle, which sign-off requires).
  const irradiance =
    context.laser && laser?.laserMode && laser.spotSizeUm !== null && !(laser.laserMode === 'micropulse' && laser.dutyCyclePercent === null)
      ? { mode: laser.laserMode, spotSizeUm: laser.spotSizeUm, duty: laser.laserMode === 'micropulse' ? laser.dutyCyclePercent : null }
      : null;
  const ceiling = irradiance ? irradianceCeiling(limits, irradiance.mode) : Number.POSITIVE_INFINITY;
  let highest = 0;
  const aboveTitration = model && model.maxFactor > limits.maxPowerFactor && !model.aboveTitration;
  for (const spot of treated) {
    const { powerMw, powerFactor } = spot;
    if (powerMw == null || powerFactor == null || !model || plan.laserDose == null) {
      problems.add('plan.power_missing', spot.id);
      continue;
    }
    if (!withinPowerLimits(range, powerMw)) problems.add('plan.power_out_of_limits', spot.id, { minMw: range.minMw, maxMw: range.maxMw });
    if (powerFactor < model.minFactor || powerFactor > model.maxFactor) {
      problems.add('plan.power_factor_out_of_bounds', spot.id, { minFactor: model.minFactor, maxFactor: model.maxFactor });
    }
    // Above the titrated power only by the physician's explicit bound, and never on a spot outside ordinary fundus.
    const outlier = spot.brightness != null && brightnessOutlier(spot.brightness, model) !== null;
    if (powerFactor > limits.maxPowerFactor && (aboveTitration || outlier)) {
      problems.add('plan.power_above_titration', spot.id, { maxFactor: limits.maxPowerFactor });
    }
    // Powers are the dose times the factor to the device's 0.1 mW: never more than half a step apart.
    if (Math.abs(powerMw - plan.laserDose * powerFactor) > 0.05 + 1e-9) problems.add('plan.power_disagrees', spot.id);
    if (irradiance) {
      const value = irradianceWPerCm2(powerMw, irradiance.spotSizeUm, irradiance.duty);
      if (value > ceiling) {
        highest = Math.max(highest, value);
        problems.add('plan.irradiance_too_high', spot.id, { maxWPerCm2: ceiling });
      }
    }
  }
  const problem = problems.get('plan.irradiance_too_high');
  if (problem) problem.params.highestWPerCm2 = round1(highest);
}

/** Every broken invariant of the plan; none for a plan that may be saved (and, with `packing`, packed). */
export function checkPlan(plan: CheckedPlan, context: PlanCheckContext): PlanProblem[] {
  const problems = new Problems();
  const limits = context.clinical ?? DEFAULT_CLINICAL_LIMITS;
  const frame = retinaFrame(plan.fovea, plan.scale.umPerPixel);
  checkAnatomy(plan, problems);
  checkDiscCover(plan, frame, limits, problems);
  checkZones(plan, context.field, problems);
  if (context.laser || context.packing) checkLaser(plan, context, limits, problems);
  const settings = plan.gridSettings;
  if (!settings) {
    if (plan.spots.length) problems.add('plan.spot_count_mismatch', undefined, { expected: 0, actual: plan.spots.length });
    if (context.packing) problems.add('plan.no_spots');
    return problems.list();
  }
  checkGridSettings(plan, settings, context, limits, problems);

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
  checkFovealMinimum(treated, radiusUm, limits, problems);
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
  if (context.powers) checkPowers(plan, treated, { ...context, laser: context.laser || context.packing }, limits, problems);
  if (context.packing && treated.length === 0) problems.add('plan.no_spots');
  return problems.list();
}
