/// <reference types="vite/client" />
// Clinical safety over random plans (issue 26): whatever is drawn and set, a plan the invariant check accepts
// keeps every clinical limit. The plans are random in every part the user or the device decides: the eye and
// its landmarks, the scale, both zones (any size down to a pixel), every grid setting the contract allows, the
// treating device's laser profile, the laser settings, the dose and the power-factor bounds, a clinic's
// stricter limits, spots removed, and now and then a factor raised by hand. Each is laid out and powered by the
// domain and checked as before packing.
// The verdict is judged by a check written here, apart from the domain's: brute force over the treated spots,
// with the limits' figures and the protocols' rules spelled out again. Every limit that check finds broken must
// be refused with its code; so every plan the domain accepts is clinically safe. Each part of a plan is drawn
// safe (like the proposals) most of the time, so that about a third of the plans are accepted; the counts of
// accepted and refused plans, and of the codes that refused them, are asserted.
// Runs: PLAN_PROPERTY_RUNS (default 1,000), seed: PLAN_PROPERTY_SEED; the long run is
// `PLAN_PROPERTY_RUNS=100000 vitest run --project unit src/domain/planning/clinical-properties.test.ts`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRaster } from '../fundus/raster';
import { lumaMap, spotPowerMw, type LumaMap, type PowerBounds } from './brightness';
import { clinicLimits, CLINICAL_LIMITS, DEFAULT_CLINICAL_LIMITS, type ClinicalLimits, type LaserModeName, type LaserProfile, type LimitName } from './clinical-limits';
import { proposeExclusionZones, zoneOf, type ExclusionZone } from './exclusion-zones';
import { retinaFrame } from './frames';
import { gridSurroundings, layOutGrid, TooManySpotsError, type GridSettings, type GridSpot, type ImagedField } from './macula-grid';
import { adaptPowers } from './plan';
import { checkPlan, type CheckedPlan, type PlanLaser, type PlanProblemCode, type PlanSpot } from './plan-invariants';

// Vitest passes the process's environment through import.meta.env, which Vite replaces where it is written
// out in full (the domain has no Node types).
const env = import.meta.env as Record<string, string | undefined>;
const RUNS = Number(env.PLAN_PROPERTY_RUNS ?? 1000);
const SEED = env.PLAN_PROPERTY_SEED === undefined ? undefined : Number(env.PLAN_PROPERTY_SEED);
// Generous: the runs are synchronous, so a slow machine only makes vitest call a finished test late.
const TIMEOUT_MS = Math.max(120_000, RUNS * 60);
// Vitest cannot stop a synchronous property, and fast-check bounds the shrinking of a failure by nothing else:
// after this long it reports the smallest counterexample so far. The counts below catch a run cut short.
const parameters = { numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(Math.max(120_000, RUNS * 120))], ...(SEED === undefined ? {} : { seed: SEED }) };

// ---- the images the spots' brightness is read from ----------------------------------------------------------

/**
 * Fundus-like images: brighter to one side and darker at the rim, crossed by dark vessels, with bright
 * (exudate-like) and dark (haemorrhage-like) patches, so that spots differ in brightness and some lie far
 * outside ordinary fundus. Made once per size.
 */
const IMAGE_SIZES = [
  { width: 1536, height: 1536 },
  { width: 2048, height: 1536 },
  { width: 2400, height: 2000 },
] as const;
const images = new Map<number, LumaMap>();
function imageOf(index: number): LumaMap {
  let map = images.get(index);
  if (map) return map;
  const { width, height } = IMAGE_SIZES[index];
  const raster = createRaster(width, height);
  const paint = (x: number, y: number, value: number) => {
    const k = (y * width + x) * 3;
    raster.data[k] = value + 45;
    raster.data[k + 1] = value;
    raster.data[k + 2] = value - 25;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const rim = Math.hypot(x / width - 0.5, y / height - 0.5);
      const value = 70 + (80 * x) / width - 90 * rim * rim;
      paint(x, y, Math.abs(Math.sin(x / 41 + Math.sin(y / 97) * 3)) < 0.06 ? value * 0.45 : value);
    }
  }
  for (let k = 0; k < 24; k++) {
    const cx = (((k * 7919) % 97) / 97) * width;
    const cy = (((k * 104729) % 89) / 89) * height;
    const r = 8 + (k % 5) * 6;
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(height, cy + r); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(width, cx + r); x++) if (Math.hypot(x - cx, y - cy) < r) paint(x, y, k % 3 === 0 ? 235 : 12);
    }
  }
  map = lumaMap(raster);
  images.set(index, map);
  return map;
}

// ---- random plans --------------------------------------------------------------------------------------------

interface Scenario {
  image: number;
  field: ImagedField;
  umPerPixel: number;
  eye: 'OD' | 'OS';
  fovea: { x: number; y: number };
  disc: { center: { x: number; y: number }; radiusPx: number };
  zones: { faz: ExclusionZone; onh: ExclusionZone };
  settings: GridSettings;
  /** The treating device's profile; null when the device is not known. */
  profile: LaserProfile | null;
  laser: PlanLaser;
  laserDose: number;
  bounds: PowerBounds;
  aboveTitration: boolean;
  clinical: ClinicalLimits;
  /** Share of spots the user removed, and which (a seed). */
  removed: { share: number; seed: number };
  /** A plan sent with the factor of its most unusual spot raised to the upper bound (not as the domain powers it). */
  edited: boolean;
}

// Uniform in [0, 1] (fc.double is uniform over the doubles' bit patterns, so nine in ten of its values in
// [0, 1] are below 10⁻¹⁰⁰). Values lean to their bounds (fast-check's bias on integers: a setting exactly at
// a limit is the interesting case); the choices between safe and anything are drawn without bias, so that
// their shares hold.
const STEPS = 2 ** 30;
const unit = fc.integer({ min: 0, max: STEPS }).map((n) => n / STEPS);
const between = (u: number, min: number, max: number) => min + u * (max - min);
/** True with the given probability. */
const chance = (share: number) => fc.noBias(unit).map((u) => u < share);

const LIMIT_NAMES = Object.keys(CLINICAL_LIMITS) as LimitName[];

/** A clinic's limits: the defaults half of the time, else up to four of them stricter, anywhere up to their strictest. */
const clinical: fc.Arbitrary<ClinicalLimits> = fc.option(fc.array(fc.tuple(fc.constantFrom(...LIMIT_NAMES), unit), { maxLength: 4 }), { freq: 2, nil: null }).map((chosen) => {
  if (!chosen) return DEFAULT_CLINICAL_LIMITS;
  const settings: Partial<ClinicalLimits> = {};
  for (const [name, u] of chosen) settings[name] = between(u, CLINICAL_LIMITS[name].default, CLINICAL_LIMITS[name].strictest);
  const { limits, refused } = clinicLimits(settings);
  if (refused.length) throw new Error(`stricter settings refused: ${refused.join(', ')}`);
  return limits;
});

const range = (low: [number, number], high: [number, number]) => fc.tuple(unit, unit).map(([a, b]) => ({ min: between(a, ...low), max: between(b, ...high) }));

const profile: fc.Arbitrary<LaserProfile> = fc
  .record({
    wavelengthNm: fc.constantFrom(532, 577, 810),
    spotSizeUm: range([50, 120], [250, 500]),
    offers: fc.constantFrom('both', 'both', 'continuous', 'micropulse'),
    continuous: fc.record({ powerMw: range([20, 80], [800, 3000]), pulseMs: range([5, 20], [50, 1000]), minSpacing: fc.option(fc.constantFrom(1, 1.5, 2.5), { nil: undefined }) }),
    micropulse: fc.record({ powerMw: range([20, 80], [800, 3000]), pulseMs: range([5, 10], [100, 500]), dutyCyclePercent: range([1, 5], [10, 50]) }),
  })
  .map(({ wavelengthNm, spotSizeUm, offers, continuous, micropulse }) => {
    const { minSpacing, ...rest } = continuous;
    const modes: LaserProfile['modes'] = {};
    if (offers !== 'micropulse') modes.continuous = minSpacing === undefined ? rest : { ...rest, minSpacing };
    if (offers !== 'continuous') modes.micropulse = micropulse;
    return { wavelengthNm, spotSizeUm, modes };
  });

const rawScenario = fc.record({
  image: fc.integer({ min: 0, max: IMAGE_SIZES.length - 1 }),
  aperture: fc.option(fc.tuple(unit, unit, unit), { nil: null }),
  scale: unit,
  eye: fc.constantFrom('OD' as const, 'OS' as const),
  foveaAt: fc.tuple(unit, unit),
  // Anatomy: the disc nasal and 3.8–6.5 mm away most of the time.
  nasal: chance(0.95),
  plausible: chance(0.9),
  discDistance: unit,
  discAngle: unit,
  discRadius: unit,
  clinical,
  // Zones: proposed (perhaps enlarged, an ellipse, turned), or drawn anyhow, each on its own.
  proposedFaz: chance(0.8),
  proposedOnh: chance(0.8),
  nearMiss: fc.tuple(fc.boolean(), fc.boolean()),
  faz: fc.tuple(unit, unit, unit),
  onh: fc.tuple(unit, unit, unit, unit, unit),
  // Grid: within the clinical limits, or anywhere in the contract's bounds.
  safeGrid: chance(0.8),
  grid: fc.record({ pattern: fc.constantFrom('hexagonal' as const, 'square' as const), spotSize: unit, spacing: unit, inner: unit, innerZero: chance(0.1), innerNearFovea: fc.boolean(), outer: unit }),
  profile,
  deviceKnown: chance(0.97),
  // Laser: a mode the device offers with settings within it and the limits, or anything.
  safeLaser: chance(0.85),
  laser: fc.record({ pulseGiven: chance(0.98), offered: chance(0.9), mode: fc.constantFrom<LaserModeName>('continuous', 'micropulse'), pulse: unit, duty: unit, dutyGiven: chance(0.7), dose: unit, sameAsGrid: chance(0.95) }),
  safeBounds: chance(0.85),
  bounds: fc.record({ minFactor: unit, maxFactor: unit, raised: chance(0.3), gamma: unit, aboveTitration: fc.boolean() }),
  edited: chance(0.1),
  // Spots removed by the user: none, a few, many, or (rarely) all.
  removed: fc.record({ share: fc.noBias(fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 0, 0.05, 0.05, 0.05, 0.05, 0.3, 0.3, 0.3, 0.3, 0.9, 0.9, 1)), seed: fc.nat() }),
});

const CONTINUOUS_PROTOCOL_SPACING = 2;

function build(r: RawScenario): Scenario {
  const { width, height } = IMAGE_SIZES[r.image];
  const limits = r.clinical;
  // The disc–fovea distance in µm, and a scale at which the disc and the grid fit on the image.
  const distanceUm = r.plausible ? between(r.discDistance, 3800, 6500) : between(r.discDistance, 1500, 9000);
  const angle = between(r.discAngle, -0.25, 0.25);
  const umPerPixel = Math.max(between(r.scale, 3, 12), (distanceUm + 3600) / width);
  const side = (r.eye === 'OD') === r.nasal ? 1 : -1;
  const dxPx = (side * distanceUm * Math.cos(angle)) / umPerPixel;
  const dyPx = (distanceUm * Math.sin(angle)) / umPerPixel;
  const margin = 1700 / umPerPixel;
  const free = Math.max(0, width - Math.abs(dxPx) - 2 * margin);
  const foveaX = (side > 0 ? margin : width - margin) + side * r.foveaAt[0] * free;
  const fovea = { x: foveaX, y: between(r.foveaAt[1], 0.35, 0.65) * height };
  const disc = { center: { x: fovea.x + dxPx, y: fovea.y + dyPx }, radiusPx: between(r.discRadius, 550, 1100) / umPerPixel };
  const scale = { umPerPixel, source: 'manifest' as const };
  const aperture = r.aperture && {
    center: { x: width / 2 + between(r.aperture[1], -0.05, 0.05) * width, y: height / 2 + between(r.aperture[2], -0.05, 0.05) * height },
    radiusPx: between(r.aperture[0], 0.45, 0.75) * Math.max(width, height),
  };
  const field = { width, height, aperture };

  // Proposed zones, perhaps drawn larger, as an ellipse and turned: still holding everything they must. Or
  // zones drawn anyhow: half of the time near misses of the proposal (80–105 % of the foveal minimum; the
  // disc with 70–110 % of its margin, up to 50 µm off), else from a single pixel up (FAZ 1 px–1000 µm, ONH
  // 1 px–2500 µm and up to 400 µm off the disc).
  const proposed = proposeExclusionZones({ fovea, opticDisc: disc }, scale, limits);
  const grow = (zone: ExclusionZone, u: number, v: number, w: number) =>
    zoneOf(zone.kind, { center: zone.center, radiusXPx: zone.radiusXPx * (1 + u * 0.4), radiusYPx: zone.radiusYPx * (1 + v * 0.4), rotationDeg: between(w, -180, 180) }, scale, zone.marginUm);
  const foveal = limits.fovealClearanceUm + limits.aimingMarginUm;
  const discRadiusUm = disc.radiusPx * umPerPixel;
  const discMargin = limits.discClearanceUm + limits.aimingMarginUm;
  const fazRadius = (u: number) => (r.nearMiss[0] ? between(u, 0.8, 1.05) * foveal : Math.max(1, u * u * 1000)) / umPerPixel;
  const onhRadius = (u: number) => (r.nearMiss[1] ? discRadiusUm + between(u, 0.7, 1.1) * discMargin : Math.max(1, u * 2500)) / umPerPixel;
  const onhOffset = (u: number) => between(u, -1, 1) * (r.nearMiss[1] ? 50 : 400);
  const zones = {
    faz: r.proposedFaz
      ? grow(proposed.faz, ...r.faz)
      : zoneOf('FAZ', { center: fovea, radiusXPx: fazRadius(r.faz[0]), radiusYPx: fazRadius(r.faz[1]), rotationDeg: between(r.faz[2], -180, 180) }, scale),
    onh: r.proposedOnh
      ? grow(proposed.onh, r.onh[0], r.onh[1], r.onh[2])
      : zoneOf(
          'ONH',
          {
            center: { x: disc.center.x + onhOffset(r.onh[3]) / umPerPixel, y: disc.center.y + onhOffset(r.onh[4]) / umPerPixel },
            radiusXPx: onhRadius(r.onh[0]),
            radiusYPx: onhRadius(r.onh[1]),
            rotationDeg: between(r.onh[2], -180, 180),
          },
          scale,
        ),
  };

  const profileOf = r.profile;
  const offered = (Object.keys(profileOf.modes) as LaserModeName[]).filter((mode) => profileOf.modes[mode]);
  const mode: LaserModeName = r.safeLaser && r.laser.offered ? offered[offered.indexOf(r.laser.mode) >= 0 ? offered.indexOf(r.laser.mode) : 0] : r.laser.mode;

  const g = r.grid;
  let settings: GridSettings;
  if (r.safeGrid) {
    const spotSizeUm = between(g.spotSize, Math.max(50, profileOf.spotSizeUm.min), Math.min(500, profileOf.spotSizeUm.max));
    const device = profileOf.modes.continuous?.minSpacing;
    const continuousMinimum = limits.continuousSpacingDiameters > CONTINUOUS_PROTOCOL_SPACING ? limits.continuousSpacingDiameters : (device ?? CONTINUOUS_PROTOCOL_SPACING);
    const least = Math.max(limits.spacingDiameters, mode === 'continuous' ? continuousMinimum : 1);
    // Within the limits, or from the fovea on (a tenth of the time), relying on the FAZ.
    const innerRadiusUm = g.innerZero ? 0 : between(g.inner, limits.fovealClearanceUm + limits.aimingMarginUm, 1500);
    const outerRadiusUm = between(g.outer, Math.min(limits.outerRadiusUm, innerRadiusUm + 2 * spotSizeUm), limits.outerRadiusUm);
    settings = { pattern: g.pattern, spotSizeUm, spacing: between(g.spacing, least, 4), innerRadiusUm, outerRadiusUm };
  } else {
    // Anywhere in the contract's bounds, the inner radius half of the time within the foveal minimum.
    const innerRadiusUm = between(g.inner, 0, g.innerNearFovea ? 700 : 3000);
    settings = { pattern: g.pattern, spotSizeUm: between(g.spotSize, 50, 500), spacing: between(g.spacing, 0.5, 4), innerRadiusUm, outerRadiusUm: between(g.outer, 500, 6000) };
  }

  const l = r.laser;
  const modeProfile = profileOf.modes[mode];
  let pulseDurationMs: number;
  let dutyCyclePercent: number | null = null;
  if (r.safeLaser && modeProfile) {
    pulseDurationMs = between(l.pulse, modeProfile.pulseMs.min, mode === 'continuous' ? Math.min(modeProfile.pulseMs.max, limits.continuousPulseMs) : modeProfile.pulseMs.max);
    const duty = profileOf.modes.micropulse?.dutyCyclePercent;
    if (mode === 'micropulse' && duty) dutyCyclePercent = between(l.duty, duty.min, Math.min(duty.max, limits.micropulseDutyCyclePercent));
  } else {
    pulseDurationMs = between(l.pulse, 1, 1000);
    if (mode === 'micropulse' && l.dutyGiven) dutyCyclePercent = between(l.duty, 0.5, 60);
  }

  const b = r.bounds;
  const raised = !r.safeBounds || b.raised;
  const bounds: PowerBounds = {
    minFactor: between(b.minFactor, 0.5, 1),
    maxFactor: raised ? between(b.maxFactor, 1, 1.5) : 1,
    gamma: b.gamma,
  };
  const aboveTitration = r.safeBounds ? raised : b.aboveTitration;

  // A dose whose powers stay within the device and below the irradiance ceiling, or anything up to 1000 mW.
  let laserDose = between(l.dose, 1, 1000);
  if (r.safeLaser && modeProfile) {
    const area = Math.PI * (settings.spotSizeUm / 2e4) ** 2;
    const ceiling = mode === 'micropulse' ? limits.micropulseIrradiance : limits.continuousIrradiance;
    const hottest = (ceiling * area * 1000) / ((dutyCyclePercent ?? 100) / 100);
    const low = (modeProfile.powerMw.min + 0.1) / bounds.minFactor;
    const high = (Math.min(modeProfile.powerMw.max, hottest) - 0.1) / bounds.maxFactor;
    laserDose = high > low ? between(l.dose, low, high) : high;
  }
  laserDose = Math.min(1000, Math.max(0.1, laserDose));

  const spotSizeUm = l.sameAsGrid ? settings.spotSizeUm : settings.spotSizeUm + 10;
  return {
    image: r.image,
    field,
    umPerPixel,
    eye: r.eye,
    fovea,
    disc,
    zones,
    settings,
    profile: r.deviceKnown ? profileOf : null,
    laser: { laserMode: mode, pulseDurationMs: l.pulseGiven ? pulseDurationMs : null, dutyCyclePercent, spotSizeUm, spotSpacing: settings.spacing },
    laserDose,
    bounds,
    aboveTitration,
    clinical: limits,
    removed: r.removed,
    edited: r.edited,
  };
}
type RawScenario = typeof rawScenario extends fc.Arbitrary<infer T> ? T : never;

const scenario: fc.Arbitrary<Scenario> = rawScenario.map((r) => build(r));

const ABOVE_TITRATION = { by: { id: 'u-17', name: 'Dr. Anna Schäfer' }, at: '2026-11-21T10:02:00Z' };

/** The plan as the wizard makes it: laid out and powered by the domain, some spots removed by the user (and, now and then, one factor raised by hand). */
function planOf(s: Scenario): CheckedPlan {
  const frame = retinaFrame(s.fovea, s.umPerPixel);
  let grid: GridSpot[] = [];
  try {
    grid = layOutGrid(s.settings, gridSurroundings(frame, [s.zones.faz, s.zones.onh], s.field));
  } catch (error) {
    // Too many spots: the check refuses the settings (plan.too_many_spots) with no spots laid out.
    if (!(error instanceof TooManySpotsError)) throw error;
  }
  const removed = (id: number) => ((Math.imul(id ^ s.removed.seed, 2654435761) >>> 0) / 2 ** 32) < s.removed.share;
  const spots = grid.map((spot) => (removed(spot.id) ? { ...spot, enabled: false } : spot));
  const { spots: powered, model } = adaptPowers(spots, imageOf(s.image), s.settings.spotSizeUm / 2 / s.umPerPixel, s.bounds, s.laserDose, s.clinical.brightnessOutlierMad);
  if (s.edited) {
    // The treated spot furthest from the median brightness (an outlier, where there is one) at the upper bound.
    let k = -1;
    for (let j = 0; j < powered.length; j++) {
      const distance = (spot: PlanSpot) => Math.abs(spot.brightness! - model.medianBrightness);
      if (powered[j].enabled && (k < 0 || distance(powered[j]) > distance(powered[k]))) k = j;
    }
    if (k >= 0) powered[k] = { ...powered[k], powerFactor: model.maxFactor, powerMw: spotPowerMw(s.laserDose, model.maxFactor) };
  }
  return {
    scale: { umPerPixel: s.umPerPixel },
    fovea: s.fovea,
    opticDisc: s.disc,
    eye: s.eye,
    exclusionZones: s.zones,
    gridSettings: s.settings,
    spots: powered,
    brightness: s.aboveTitration ? { ...model, aboveTitration: ABOVE_TITRATION } : model,
    laserDose: s.laserDose,
    laser: s.laser,
  };
}

const check = (s: Scenario, plan: CheckedPlan) => checkPlan(plan, { field: s.field, clinical: s.clinical, profile: s.profile, powers: true, packing: true }).map((p) => p.code);

// ---- the clinical invariants, judged apart from the domain -----------------------------------------------------

/** Disc–fovea distance of real eyes, µm (Jonas et al. 2015: 3.76–6.53 mm). */
const DISC_FOVEA_UM = { min: 3760, max: 6530 };
/**
 * How far a spot may reach into the disc's margin: the domain judges the ONH zone's cover of the enlarged disc
 * on points of its edge with half a micrometre of tolerance; one micrometre covers that and the points between.
 */
const DISC_TOLERANCE_UM = 1;
/** Slack for the pixels read back into µm (the domain lets them differ from the µm by 10⁻⁹ relative). */
const PIXEL_SLACK_UM = 1e-3;

/** Each clinical limit the plan breaks, with the codes any one of which refuses it. */
type Violations = Map<string, readonly PlanProblemCode[]>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The smallest distance between two of the spots, by a bucket search of cells `cell` wide (any distance below `cell` is found). */
function closestPair(spots: readonly PlanSpot[], cell: number): number {
  const buckets = new Map<number, PlanSpot[]>();
  const key = (bx: number, by: number) => bx * 100_003 + by;
  for (const spot of spots) {
    const k = key(Math.floor(spot.xUm / cell), Math.floor(spot.yUm / cell));
    const bucket = buckets.get(k);
    if (bucket) bucket.push(spot);
    else buckets.set(k, [spot]);
  }
  let closest = Number.POSITIVE_INFINITY;
  for (const spot of spots) {
    const bx = Math.floor(spot.xUm / cell);
    const by = Math.floor(spot.yUm / cell);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const other of buckets.get(key(bx + dx, by + dy)) ?? []) {
          if (other !== spot) closest = Math.min(closest, Math.hypot(other.xUm - spot.xUm, other.yUm - spot.yUm));
        }
      }
    }
  }
  return closest;
}

function clinicalViolations(s: Scenario, plan: CheckedPlan): Violations {
  const found: Violations = new Map();
  const broken = (what: string, ...codes: PlanProblemCode[]) => found.set(what, codes);
  const limits = s.clinical;
  const treated = plan.spots.filter((spot) => spot.enabled);
  const settings = s.settings;
  const radius = settings.spotSizeUm / 2;
  if (treated.length === 0) broken('no treated spot', 'plan.no_spots');

  // Anatomy: the disc nasal to the fovea (right of it in the image of a right eye), at a real eye's distance.
  const dx = s.disc.center.x - s.fovea.x;
  const dy = s.disc.center.y - s.fovea.y;
  if (s.eye === 'OD' ? !(dx > 0) : !(dx < 0)) broken('disc not nasal', 'plan.laterality_mismatch');
  const distance = Math.hypot(dx, dy) * s.umPerPixel;
  if (distance < DISC_FOVEA_UM.min || distance > DISC_FOVEA_UM.max) broken('disc–fovea distance', 'plan.disc_fovea_implausible');

  // Every treated spot: its edge at least the clearance plus the aiming margin from the fovea and from the
  // disc's edge, within the outer radius; at its µm and at its pixels.
  const foveal = limits.fovealClearanceUm + limits.aimingMarginUm;
  const discMargin = limits.discClearanceUm + limits.aimingMarginUm;
  const disc = { xUm: dx * s.umPerPixel, yUm: -dy * s.umPerPixel, radiusUm: s.disc.radiusPx * s.umPerPixel };
  for (const spot of treated) {
    const fromFovea = Math.hypot(spot.xUm, spot.yUm);
    if (fromFovea - radius < foveal) broken('spot near the fovea', 'plan.spot_near_fovea');
    const pixelUm = { x: (spot.x - s.fovea.x) * s.umPerPixel, y: -(spot.y - s.fovea.y) * s.umPerPixel };
    if (Math.hypot(pixelUm.x, pixelUm.y) - radius < foveal - PIXEL_SLACK_UM) broken('spot near the fovea on the image', 'plan.spot_near_fovea', 'plan.spot_coordinates_disagree');
    const fromDisc = Math.hypot(spot.xUm - disc.xUm, spot.yUm - disc.yUm) - radius - disc.radiusUm;
    if (fromDisc < discMargin - DISC_TOLERANCE_UM) broken('spot near the disc', 'plan.disc_not_covered', 'plan.spot_in_exclusion_zone');
    if (Math.hypot(pixelUm.x - disc.xUm, pixelUm.y - disc.yUm) - radius - disc.radiusUm < discMargin - DISC_TOLERANCE_UM - PIXEL_SLACK_UM) {
      broken('spot near the disc on the image', 'plan.disc_not_covered', 'plan.spot_in_exclusion_zone', 'plan.spot_coordinates_disagree');
    }
    if (fromFovea + radius > limits.outerRadiusUm + 1e-9) broken('spot beyond the outer radius', 'plan.ring_too_wide', 'plan.spot_outside_ring');
  }
  if (settings.outerRadiusUm > limits.outerRadiusUm) broken('ring too wide', 'plan.ring_too_wide');

  // Spacing: spots never overlap; continuous burns two widths apart (DRCR.net) unless the device's patterns
  // allow less (never below one), or the clinic asks for more.
  const laser = s.laser;
  const device = s.profile?.modes.continuous?.minSpacing;
  let least = limits.spacingDiameters;
  if (laser.laserMode === 'continuous') {
    least = Math.max(least, 1, limits.continuousSpacingDiameters > CONTINUOUS_PROTOCOL_SPACING ? limits.continuousSpacingDiameters : (device ?? CONTINUOUS_PROTOCOL_SPACING));
  }
  if (settings.spacing < least - 1e-9) broken('spacing setting', 'plan.spacing_too_small');
  if (treated.length > 1 && closestPair(treated, least * settings.spotSizeUm) < least * settings.spotSizeUm * (1 - 1e-9)) {
    broken('spots closer than the spacing', 'plan.spacing_too_small', 'plan.spacing_below_setting');
  }

  // The laser: complete, known to the device, in a mode it offers, a spot size it delivers, equal to the grid.
  // (Incomplete settings, an unknown device or a mode not offered refuse the laser on their own: what the
  // device would allow is then moot.)
  const complete = laser.laserMode !== null && laser.pulseDurationMs !== null && laser.spotSizeUm !== null && plan.laserDose !== null;
  const mode = laser.laserMode === null ? undefined : s.profile?.modes[laser.laserMode];
  const duty = laser.laserMode === 'micropulse' ? laser.dutyCyclePercent : null;
  if (!complete) broken('laser settings incomplete', 'plan.laser_settings_missing');
  else {
    if (laser.spotSizeUm !== settings.spotSizeUm || (laser.spotSpacing !== null && laser.spotSpacing !== settings.spacing)) broken('laser and grid differ', 'plan.laser_grid_disagree');
    if (!s.profile) broken('device unknown', 'plan.device_profile_missing');
    else if (!mode) broken('mode not offered', 'plan.mode_not_offered');
    else {
      const { min, max } = s.profile.spotSizeUm;
      if (laser.spotSizeUm! < min || laser.spotSizeUm! > max) broken('spot size not offered', 'plan.spot_size_not_offered');
      const longest = laser.laserMode === 'continuous' ? Math.min(mode.pulseMs.max, limits.continuousPulseMs) : mode.pulseMs.max;
      if (laser.pulseDurationMs! < mode.pulseMs.min || laser.pulseDurationMs! > longest) broken('pulse', 'plan.pulse_out_of_range');
      const dutyRange = s.profile.modes.micropulse?.dutyCyclePercent;
      if (laser.laserMode === 'micropulse' && dutyRange) {
        if (duty === null) broken('duty cycle missing', 'plan.duty_cycle_missing');
        else if (duty < dutyRange.min || duty > Math.min(dutyRange.max, limits.micropulseDutyCyclePercent)) broken('duty cycle', 'plan.duty_cycle_out_of_range');
      }
    }
  }

  // Every treated spot's power: within the device's range in this mode, below the irradiance ceiling (in
  // micropulse averaged over the duty cycle), and no factor above the titrated power unless the physician
  // recorded it, never on a spot outside ordinary fundus.
  const brightness = treated.map((spot) => spot.brightness ?? Number.NaN);
  const middle = median(brightness);
  const spread = Math.max(1 / 255, 1.4826 * median(brightness.map((value) => Math.abs(value - middle))));
  const ordinary = { min: middle - limits.brightnessOutlierMad * spread, max: middle + limits.brightnessOutlierMad * spread };
  // The spot the laser fires: its own spot size (the grid's, unless they disagree and the plan is refused for it).
  const areaCm2 = Math.PI * (((laser.spotSizeUm ?? settings.spotSizeUm) * 1e-4) / 2) ** 2;
  const ceiling = laser.laserMode === 'micropulse' ? limits.micropulseIrradiance : limits.continuousIrradiance;
  const recorded = !!plan.brightness?.aboveTitration;
  for (const spot of treated) {
    const power = spot.powerMw;
    const factor = spot.powerFactor;
    if (power == null || factor == null) {
      broken('power missing', 'plan.power_missing');
      continue;
    }
    if (mode && (power < mode.powerMw.min || power > mode.powerMw.max)) broken('power outside the device', 'plan.power_out_of_limits');
    const irradiance = ((power / 1000) * (duty ?? 100)) / 100 / areaCm2;
    // (A micropulse laser without a duty cycle is refused for that; its irradiance has no figure.)
    if (laser.laserMode !== null && (laser.laserMode !== 'micropulse' || duty !== null) && irradiance > ceiling * (1 + 1e-12)) broken('irradiance', 'plan.irradiance_too_high');
    const outlier = spot.brightness != null && (spot.brightness > ordinary.max + 1e-12 || spot.brightness < ordinary.min - 1e-12);
    if (factor > limits.maxPowerFactor && (!recorded || outlier)) broken('above the titrated power', 'plan.power_above_titration', 'plan.power_factor_out_of_bounds');
  }
  return found;
}

// ---- properties ------------------------------------------------------------------------------------------------

/** The clinical codes; each must have refused some random plan (at 1,000 runs, each refuses dozens). */
const CLINICAL_CODES: readonly PlanProblemCode[] = [
  'plan.device_profile_missing',
  'plan.laser_settings_missing',
  'plan.laterality_mismatch',
  'plan.disc_fovea_implausible',
  'plan.spot_near_fovea',
  'plan.disc_not_covered',
  'plan.spacing_too_small',
  'plan.ring_too_wide',
  'plan.mode_not_offered',
  'plan.spot_size_not_offered',
  'plan.pulse_out_of_range',
  'plan.duty_cycle_missing',
  'plan.duty_cycle_out_of_range',
  'plan.irradiance_too_high',
  'plan.power_above_titration',
  'plan.laser_grid_disagree',
];
/** Least share of accepted and of refused plans (measured: 30–36 % accepted). */
const MIN_SHARE = 0.05;

describe(`clinical safety over ${RUNS} random plans`, () => {
  it(
    'accepts only plans that keep every clinical limit, judged apart from the domain, and refuses each broken limit with its code',
    () => {
      const counts = { accepted: 0, refused: 0 };
      const acceptedByMode: Record<LaserModeName, number> = { continuous: 0, micropulse: 0 };
      const refusedBy = new Map<PlanProblemCode, number>();
      fc.assert(
        fc.property(scenario, (s) => {
          const plan = planOf(s);
          const codes = check(s, plan);
          const violations = clinicalViolations(s, plan);
          for (const [what, refusing] of violations) {
            expect(
              refusing.some((code) => codes.includes(code)),
              `${what}: expected one of ${refusing.join(', ')}; got ${codes.join(', ') || 'none (accepted)'}`,
            ).toBe(true);
          }
          if (codes.length === 0) {
            counts.accepted++;
            acceptedByMode[s.laser.laserMode!]++;
          } else {
            counts.refused++;
            for (const code of codes) refusedBy.set(code, (refusedBy.get(code) ?? 0) + 1);
          }
        }),
        parameters,
      );
      const summary = JSON.stringify({ ...counts, acceptedByMode, refusedBy: Object.fromEntries(refusedBy) });
      expect(counts.accepted + counts.refused, summary).toBe(RUNS);
      expect(counts.accepted, summary).toBeGreaterThanOrEqual(MIN_SHARE * RUNS);
      expect(counts.refused, summary).toBeGreaterThanOrEqual(MIN_SHARE * RUNS);
      expect(acceptedByMode.continuous, summary).toBeGreaterThan(0);
      expect(acceptedByMode.micropulse, summary).toBeGreaterThan(0);
      if (RUNS >= 1000) for (const code of CLINICAL_CODES) expect(refusedBy.get(code) ?? 0, `${code} in ${summary}`).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});

// ---- the proposals are safe ------------------------------------------------------------------------------------

/** A 577 nm device with both modes, as the demo clinic's. */
const PROFILE_577: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: {
    continuous: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 10, max: 200 } },
    micropulse: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 5, max: 300 }, dutyCyclePercent: { min: 2, max: 15 } },
  },
};
/** The server's default grid. */
const DEFAULT_GRID: GridSettings = { pattern: 'hexagonal', spotSizeUm: 100, spacing: 2, innerRadiusUm: 600, outerRadiusUm: 3000 };

/** The plan the wizard proposes on the true landmarks: proposed zones, the default grid, micropulse 5 % 15 ms 90 mW, bounds 0.8–1. */
function proposedPlan(image: number, eye: 'OD' | 'OS', fovea: { x: number; y: number }, disc: Scenario['disc'], umPerPixel: number): { plan: CheckedPlan; field: ImagedField } {
  const { width, height } = IMAGE_SIZES[image];
  const field = { width, height, aperture: null };
  const scale = { umPerPixel, source: 'manifest' as const };
  const zones = proposeExclusionZones({ fovea, opticDisc: disc }, scale);
  const frame = retinaFrame(fovea, umPerPixel);
  const grid = layOutGrid(DEFAULT_GRID, gridSurroundings(frame, [zones.faz, zones.onh], field));
  const { spots, model } = adaptPowers(grid, imageOf(image), DEFAULT_GRID.spotSizeUm / 2 / umPerPixel, { minFactor: 0.8, maxFactor: 1, gamma: 0.5 }, 90);
  const laser: PlanLaser = { laserMode: 'micropulse', pulseDurationMs: 15, dutyCyclePercent: 5, spotSizeUm: 100, spotSpacing: 2 };
  return { plan: { scale, fovea, opticDisc: disc, eye, exclusionZones: zones, gridSettings: DEFAULT_GRID, spots, brightness: model, laserDose: 90, laser }, field };
}

describe('the proposed plan', () => {
  it('on a right eye with the disc 4.76 mm nasal is accepted before packing', () => {
    const { plan, field } = proposedPlan(1, 'OD', { x: 700, y: 768 }, { center: { x: 700 + 4760 / 6, y: 740 }, radiusPx: 850 / 6 }, 6);
    expect(plan.spots.length).toBeGreaterThan(500);
    expect(checkPlan(plan, { field, profile: PROFILE_577, powers: true, packing: true })).toEqual([]);
  });

  it(`is accepted on ${Math.ceil(RUNS / 4)} random true landmarks of both eyes`, () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.record({ image: fc.integer({ min: 0, max: IMAGE_SIZES.length - 1 }), eye: fc.constantFrom('OD' as const, 'OS' as const), distance: unit, angle: unit, radius: unit, scale: unit, at: fc.tuple(unit, unit) }),
        (r) => {
          const { width, height } = IMAGE_SIZES[r.image];
          const distanceUm = between(r.distance, 3800, 6500);
          const umPerPixel = Math.max(between(r.scale, 3, 12), (distanceUm + 3600) / width);
          const side = r.eye === 'OD' ? 1 : -1;
          const angle = between(r.angle, -0.25, 0.25);
          const dxPx = (side * distanceUm * Math.cos(angle)) / umPerPixel;
          const margin = 1700 / umPerPixel;
          const fovea = { x: (side > 0 ? margin : width - margin) + side * r.at[0] * Math.max(0, width - Math.abs(dxPx) - 2 * margin), y: between(r.at[1], 0.35, 0.65) * height };
          const disc = { center: { x: fovea.x + dxPx, y: fovea.y + (distanceUm * Math.sin(angle)) / umPerPixel }, radiusPx: between(r.radius, 550, 1100) / umPerPixel };
          const { plan, field } = proposedPlan(r.image, r.eye, fovea, disc, umPerPixel);
          expect(checkPlan(plan, { field, profile: PROFILE_577, powers: true, packing: true })).toEqual([]);
          checked++;
        },
      ),
      { ...parameters, numRuns: Math.ceil(RUNS / 4) },
    );
    expect(checked).toBe(Math.ceil(RUNS / 4));
  }, TIMEOUT_MS);
});
