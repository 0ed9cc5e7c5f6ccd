import { describe, expect, it } from 'vitest';
import { createRaster } from '../fundus/raster';
import { brightnessModel, brightnessOutlier, DEFAULT_POWER_BOUNDS, DEFAULT_POWER_LIMITS, footprintBrightness, lumaMap, median, ordinaryRange, powerFactor, spotPowerMw, type PowerBounds } from './brightness';
import { clinicLimits, spotAreaCm2, type ClinicalLimits, type LaserProfile } from './clinical-limits';
import { ellipseOutline } from './ellipse';
import { proposeExclusionZones, zoneInRetina, zoneOf, type ExclusionZone } from './exclusion-zones';
import { imagePoint, retinaFrame, toRetina } from './frames';
import { gridPitchUm, gridSurroundings, latticeIndices, layOutGrid, MAX_SPOTS, spotId, TooManySpotsError, unknownSpotIds, withinField, withinRing, type GridSettings, type ImagedField } from './macula-grid';
import { adaptPowers, recomputePlan, withDose } from './plan';
import { checkPlan, PLAN_PROBLEM_PARAMS, type CheckedPlan, type PlanLaser, type PlanProblem, type PlanProblemCode } from './plan-invariants';

const UM_PER_PX = 6;
const FOVEA = { x: 1000, y: 768 };
const frame = retinaFrame(FOVEA, UM_PER_PX);
const field: ImagedField = { width: 2048, height: 1536, aperture: { center: { x: 1024, y: 768 }, radiusPx: 760 } };
/** A right eye: the disc 4.76 mm nasal (to the right in the image), 850 µm in radius. */
const DISC = { center: { x: FOVEA.x + 4760 / UM_PER_PX, y: 740 }, radiusPx: 850 / UM_PER_PX };
const faz = zoneOf('FAZ', { center: FOVEA, radiusXPx: 600 / UM_PER_PX, radiusYPx: 600 / UM_PER_PX }, frame, 100);
// Drawn as an ellipse holding the disc with more than its 600 µm margin.
const onh = zoneOf('ONH', { center: DISC.center, radiusXPx: 1500 / UM_PER_PX, radiusYPx: 1700 / UM_PER_PX, rotationDeg: 10 }, frame, 600);
const settings: GridSettings = { pattern: 'hexagonal', spotSizeUm: 100, spacing: 2, innerRadiusUm: 600, outerRadiusUm: 3000 };
const surroundings = gridSurroundings(frame, [faz, onh], field);

/** A 577 nm device offering both modes. */
const PROFILE: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: {
    continuous: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 10, max: 1000 } },
    micropulse: { powerMw: { min: 50, max: 2000 }, pulseMs: { min: 5, max: 500 }, dutyCyclePercent: { min: 2, max: 50 } },
  },
};
const MICROPULSE: PlanLaser = { laserMode: 'micropulse', pulseDurationMs: 15, dutyCyclePercent: 5, spotSizeUm: 100, spotSpacing: 2 };

/** A fundus-like image: brighter to the right, so spots differ in brightness. */
function gradientImage() {
  const raster = createRaster(field.width, field.height);
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      const k = (y * raster.width + x) * 3;
      const value = 60 + Math.round((120 * x) / raster.width);
      raster.data[k] = value + 40;
      raster.data[k + 1] = value;
      raster.data[k + 2] = value - 30;
    }
  }
  return lumaMap(raster);
}
const luma = gradientImage();

function plannedSpots() {
  return adaptPowers(layOutGrid(settings, surroundings), luma, 50 / UM_PER_PX, DEFAULT_POWER_BOUNDS, 90);
}

function plan(overrides: Partial<CheckedPlan> = {}): CheckedPlan {
  const { spots, model } = plannedSpots();
  return {
    scale: { umPerPixel: UM_PER_PX },
    fovea: FOVEA,
    opticDisc: DISC,
    eye: 'OD',
    exclusionZones: { faz, onh },
    gridSettings: settings,
    spots,
    brightness: model,
    laserDose: 90,
    laser: MICROPULSE,
    ...overrides,
  };
}

/** What the user drew and set, laid out and powered by the domain as the wizard does. */
interface Drawn {
  zones?: { faz: ExclusionZone; onh: ExclusionZone };
  settings?: Partial<GridSettings>;
  bounds?: Partial<PowerBounds>;
  laserDose?: number;
  laser?: Partial<PlanLaser>;
}

function drawnPlan(drawn: Drawn, overrides: Partial<CheckedPlan> = {}): CheckedPlan {
  const zones = drawn.zones ?? { faz, onh };
  const grid = { ...settings, ...drawn.settings };
  const laserDose = drawn.laserDose ?? 90;
  const { spots, model } = adaptPowers(
    layOutGrid(grid, gridSurroundings(frame, [zones.faz, zones.onh], field)),
    luma,
    grid.spotSizeUm / 2 / UM_PER_PX,
    { ...DEFAULT_POWER_BOUNDS, ...drawn.bounds },
    laserDose,
  );
  const laser = { ...MICROPULSE, spotSizeUm: grid.spotSizeUm, spotSpacing: grid.spacing, ...drawn.laser };
  return plan({ exclusionZones: zones, gridSettings: grid, spots, brightness: model, laserDose, laser, ...overrides });
}

interface Checked {
  packing?: boolean;
  profile?: LaserProfile | null;
  clinical?: ClinicalLimits;
}

const problemsOf = (checked: CheckedPlan, context: Checked = {}) =>
  checkPlan(checked, { field, powers: true, packing: context.packing ?? true, profile: 'profile' in context ? context.profile : PROFILE, clinical: context.clinical });
const codes = (checked: CheckedPlan, context: Checked = {}) => problemsOf(checked, context).map((problem) => problem.code);
const problem = (checked: CheckedPlan, code: PlanProblemCode, context: Checked = {}): PlanProblem => {
  const problems = problemsOf(checked, context);
  const found = problems.find((candidate) => candidate.code === code);
  expect(found, problems.map((candidate) => candidate.code).join(', ')).toBeDefined();
  return found!;
};

describe('macula grid', () => {
  it('fills the ring with spots a pitch apart, each wholly in the ring', () => {
    const spots = layOutGrid(settings, surroundings);
    // Ring area / hexagonal cell area: π(2950² − 650²) / (200² · √3/2) ≈ 751.
    expect(spots.length).toBeGreaterThan(700);
    expect(spots.length).toBeLessThan(800);
    for (const spot of spots) {
      const distance = Math.hypot(spot.xUm, spot.yUm);
      expect(distance).toBeGreaterThanOrEqual(650);
      expect(distance).toBeLessThanOrEqual(2950);
    }
    const [a, b] = spots;
    expect(Math.hypot(a.xUm - b.xUm, a.yUm - b.yUm)).toBeCloseTo(gridPitchUm(settings), 9);
  });

  it('lays a square grid out with a quarter more cells per area than hexagonal rows need', () => {
    const square = layOutGrid({ ...settings, pattern: 'square' }, surroundings);
    const hexagonal = layOutGrid(settings, surroundings);
    expect(square.length / hexagonal.length).toBeCloseTo(Math.sqrt(3) / 2, 1);
  });

  it('leaves out spots that would touch the ONH or leave the field', () => {
    const wide = { ...settings, outerRadiusUm: 6000 };
    const spots = layOutGrid(wide, surroundings);
    const unclipped = layOutGrid(wide, gridSurroundings(frame, [faz], { width: 1e5, height: 1e5, aperture: null }));
    expect(spots.length).toBeLessThan(unclipped.length);
    // The geometry holds; only the clinical limit of the ring (3000 µm) refuses so wide a grid.
    expect(checkPlan({ ...plan(), gridSettings: wide, spots, brightness: null }, { field, powers: false }).map((found) => found.code)).toEqual(['plan.ring_too_wide']);
  });

  it('gives every spot its lattice position as id, so a removed spot stays removed when laid out again', () => {
    const first = layOutGrid(settings, surroundings);
    const removed = [first[3].id, first[100].id];
    const again = layOutGrid(settings, surroundings, removed);
    expect(again.map((spot) => spot.id)).toEqual(first.map((spot) => spot.id));
    expect(again.filter((spot) => !spot.enabled).map((spot) => spot.id)).toEqual(removed);
    expect(latticeIndices(spotId(-7, 12))).toEqual({ i: -7, j: 12 });
    expect(latticeIndices(-1)).toBeNull();
    expect(unknownSpotIds(first, [first[0].id, 9])).toEqual([9]);
  });

  it('refuses a grid with more spots than a parameter set holds', () => {
    expect(() => layOutGrid({ ...settings, spotSizeUm: 50, spacing: 0.5, outerRadiusUm: 6000 }, surroundings)).toThrow(TooManySpotsError);
  });
});

describe('brightness and power', () => {
  it('averages the pixels under a spot', () => {
    const raster = createRaster(10, 10);
    raster.data.fill(255);
    for (let k = 0; k < 5 * 10 * 3; k++) raster.data[k] = 0; // top half black
    const map = lumaMap(raster);
    expect(footprintBrightness(map, 5, 7.5, 2)).toBe(1);
    expect(footprintBrightness(map, 5, 2.5, 2)).toBe(0);
    expect(footprintBrightness(map, 5, 5, 3)).toBeCloseTo(0.5, 1);
    // Smaller than a pixel: the pixel under the centre.
    expect(footprintBrightness(map, 5.3, 6.2, 0.2)).toBe(1);
  });

  it('takes the median of the treated area and gives darker spots less power, none more than the titrated power by default', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(DEFAULT_POWER_BOUNDS).toEqual({ minFactor: 0.8, maxFactor: 1, gamma: 0.5 });
    const model = brightnessModel([0.2, 0.4, 0.6]);
    expect(model.medianBrightness).toBe(0.4);
    expect(model.excludedSpots).toBe(0);
    expect(powerFactor(0.4, model)).toBe(1);
    expect(powerFactor(0.5, model)).toBe(1);
    expect(powerFactor(0.3, model)).toBeCloseTo(Math.sqrt(0.75), 9);
    expect(powerFactor(1, model)).toBe(1);
    expect(powerFactor(0, model)).toBe(DEFAULT_POWER_BOUNDS.minFactor);
    expect(powerFactor(0.7, brightnessModel([0, 0]))).toBe(1);
    // Above the titrated power only within bounds the physician raised.
    const raised = brightnessModel([0.2, 0.4, 0.6], { minFactor: 0.8, maxFactor: 1.2, gamma: 0.5 });
    expect(powerFactor(0.5, raised)).toBeCloseTo(Math.sqrt(1.25), 9);
    expect(powerFactor(1, raised)).toBe(1.2);
    // An earlier model as the bounds: neither its median nor its ordinary range carries over.
    const again = brightnessModel([0.6, 0.8], model);
    expect(again).toMatchObject({ minFactor: 0.8, maxFactor: 1, gamma: 0.5, medianBrightness: 0.7, excludedSpots: 0 });
    expect(again.ordinaryRange).toEqual(ordinaryRange([0.6, 0.8], 2.5));
    expect(spotPowerMw(90, 1.1234)).toBe(101.1);
  });

  it('leaves spots beyond 2.5 scaled median absolute deviations out of the median and never above the titrated power (Leys 2013)', () => {
    // Nine spots of ordinary fundus and two far outliers (an exudate, a haemorrhage).
    const values = [0.38, 0.39, 0.4, 0.4, 0.41, 0.42, 0.4, 0.39, 0.41, 0.95, 0.02];
    const range = ordinaryRange(values, 2.5)!;
    // Median 0.4, median absolute deviation 0.01 → scaled 0.014826, ± 2.5 × that.
    expect(range.min).toBeCloseTo(0.4 - 2.5 * 1.4826 * 0.01, 9);
    expect(range.max).toBeCloseTo(0.4 + 2.5 * 1.4826 * 0.01, 9);
    const model = brightnessModel(values, { minFactor: 0.5, maxFactor: 1.5, gamma: 1 });
    expect(model.excludedSpots).toBe(2);
    expect(model.medianBrightness).toBe(0.4);
    expect(brightnessOutlier(0.95, model)).toBe('bright');
    expect(brightnessOutlier(0.02, model)).toBe('dark');
    expect(brightnessOutlier(0.41, model)).toBeNull();
    // The bright outlier would get 1.5 by the ratio: capped at 1. The dark one keeps its lower factor.
    expect(powerFactor(0.95, model)).toBe(1);
    expect(powerFactor(0.02, model)).toBe(0.5);
    expect(powerFactor(0.42, model)).toBeCloseTo(1.05, 9);
    // A flat image: a spread of less than one grey level calls nothing an outlier.
    expect(brightnessModel([0.5, 0.5, 0.5, 0.501]).excludedSpots).toBe(0);
    expect(ordinaryRange([], 2.5)).toBeNull();
  });

  it('adapts the powers of a laid-out grid and recomputes them for a new dose', () => {
    const { spots, model } = adaptPowers(layOutGrid(settings, surroundings), luma, 50 / UM_PER_PX, { ...DEFAULT_POWER_BOUNDS, maxFactor: 1.2 }, 90);
    const left = spots.reduce((a, b) => (b.x < a.x ? b : a));
    const right = spots.reduce((a, b) => (b.x > a.x ? b : a));
    expect(right.powerMw!).toBeGreaterThan(left.powerMw!);
    expect(model.medianBrightness).toBeGreaterThan(0);
    const higher = withDose(spots, 95);
    expect(higher[0].powerMw).toBe(spotPowerMw(95, spots[0].powerFactor!));
  });

  it('takes the median over the treated spots only: a disabled spot on a bright patch does not move it', () => {
    const raster = createRaster(40, 10);
    raster.data.fill(60);
    for (let row = 0; row < 10; row++) raster.data.fill(250, (row * 40 + 30) * 3, (row * 40 + 40) * 3);
    const spot = (id: number, x: number, enabled: boolean) => ({ id, x, y: 5, xUm: x, yUm: 0, enabled });
    const grid = [spot(1, 5, true), spot(2, 10, true), spot(3, 15, true), spot(4, 35, false)];
    const { spots, model } = adaptPowers(grid, lumaMap(raster), 2, DEFAULT_POWER_BOUNDS, 100);
    expect(model.medianBrightness).toBeCloseTo(60 / 255, 12);
    expect(model.excludedSpots).toBe(0);
    expect(spots[3]).toMatchObject({ enabled: false, brightness: 250 / 255, powerFactor: 1 });
  });

  it('leaves a spot without a power factor as it is when the dose changes', () => {
    const unpowered = { id: 7, x: 1, y: 2, xUm: 3, yUm: 4, enabled: true };
    expect(withDose([unpowered], 120)[0]).toBe(unpowered);
  });

  it('recomputes a whole plan that keeps every invariant', () => {
    const result = recomputePlan({ settings, frame, zones: { faz, onh }, field, luma, bounds: DEFAULT_POWER_BOUNDS, laserDose: 90, profile: PROFILE });
    expect(result.problems).toEqual([]);
    expect(result.spots.length).toBe(layOutGrid(settings, surroundings).length);
    expect(Math.max(...result.spots.map((spot) => spot.powerFactor!))).toBeLessThanOrEqual(1);
  });

  it('recomputes the grid around the zones: an ONH drawn into the ring keeps every spot off it', () => {
    const wide = zoneOf('ONH', { center: DISC.center, radiusXPx: 2500 / UM_PER_PX, radiusYPx: 2500 / UM_PER_PX }, frame, 600);
    const result = recomputePlan({ settings, frame, zones: { faz, onh: wide }, field, luma, bounds: DEFAULT_POWER_BOUNDS, laserDose: 90, profile: PROFILE });
    expect(result.problems).toEqual([]);
    expect(result.spots.length).toBeLessThan(layOutGrid(settings, surroundings).length);
  });

  it('reads each spot\'s brightness over its own footprint: half the spot size, in pixels', () => {
    // An image whose every pixel differs: a footprint of another size reads another mean.
    const raster = createRaster(field.width, field.height);
    let state = 5;
    for (let k = 0; k < raster.data.length; k++) raster.data[k] = (state = (state * 1103515245 + 12345) % 2147483648) % 256;
    const speckled = lumaMap(raster);
    const result = recomputePlan({ settings, frame, zones: { faz, onh }, field, luma: speckled, bounds: DEFAULT_POWER_BOUNDS, laserDose: 90, profile: PROFILE });
    for (const spot of result.spots.slice(0, 50)) expect(spot.brightness).toBe(footprintBrightness(speckled, spot.x, spot.y, settings.spotSizeUm / 2 / UM_PER_PX));
  });

  it('recomputes with the powers checked: a dose above the device\'s range is refused', () => {
    const result = recomputePlan({ settings, frame, zones: { faz, onh }, field, luma, bounds: DEFAULT_POWER_BOUNDS, laserDose: 2500, profile: PROFILE, laser: MICROPULSE });
    expect(result.problems.map((problem) => problem.code)).toContain('plan.power_out_of_limits');
  });

  it('recomputes with the clinical checks of landmarks and laser when it is given them', () => {
    const input = { settings, frame, zones: { faz, onh }, field, luma, bounds: DEFAULT_POWER_BOUNDS, laserDose: 90, profile: PROFILE, eye: 'OD', opticDisc: DISC, laser: MICROPULSE };
    expect(recomputePlan(input).problems).toEqual([]);
    expect(recomputePlan({ ...input, eye: 'OS' }).problems.map((p) => p.code)).toEqual(['plan.laterality_mismatch']);
    expect(recomputePlan({ ...input, laser: { ...MICROPULSE, dutyCyclePercent: 20 } }).problems.map((p) => p.code)).toEqual(['plan.duty_cycle_out_of_range']);
    // Without laser settings (the steps before the final adjustments) the laser is not judged yet.
    expect(recomputePlan({ ...input, laser: null }).problems).toEqual([]);
  });
});

describe('plan invariants', () => {
  it('pass for a plan laid out and powered by the domain', () => {
    expect(codes(plan())).toEqual([]);
    expect(codes(drawnPlan({}))).toEqual([]);
  });

  const broken: [string, (p: CheckedPlan) => CheckedPlan, PlanProblemCode][] = [
    ['a spot moved into the FAZ', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, xUm: 100, yUm: 0, x: 1000 + 100 / UM_PER_PX, y: 768 } : s)) }), 'plan.spot_in_exclusion_zone'],
    ['a spot whose pixels lie in the ONH while its µm do not', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, x: onh.center.x, y: onh.center.y } : s)) }), 'plan.spot_in_exclusion_zone'],
    ['a spot off the image', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, x: -3 } : s)) }), 'plan.spot_outside_field'],
    ['a power above the device limit', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, powerMw: 2200 } : s)) }), 'plan.power_out_of_limits'],
    ['a treated spot without power', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, powerMw: null } : s)) }), 'plan.power_missing'],
    ['a power that is not dose × factor', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, powerMw: s.powerMw! + 1 } : s)) }), 'plan.power_disagrees'],
    ['a factor beyond the bounds', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, powerFactor: 2, powerMw: 180 } : s)) }), 'plan.power_factor_out_of_bounds'],
    ['two spots closer than the spacing', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 1 ? { ...s, xUm: p.spots[0].xUm + 10, yUm: p.spots[0].yUm, x: p.spots[0].x + 10 / UM_PER_PX, y: p.spots[0].y } : s)) }), 'plan.spacing_below_setting'],
    ['a spot outside the ring', (p) => ({ ...p, gridSettings: { ...settings, outerRadiusUm: 2000 } }), 'plan.spot_outside_ring'],
    ['a spot away from its lattice position', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, xUm: s.xUm + 3, x: s.x + 3 / UM_PER_PX } : s)) }), 'plan.spot_off_grid'],
    ['pixels and µm that disagree', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, x: s.x + 0.5 } : s)) }), 'plan.spot_coordinates_disagree'],
    ['a spot twice', (p) => ({ ...p, spots: [...p.spots, p.spots[0]] }), 'plan.duplicate_spot_id'],
    ['a spot missing', (p) => ({ ...p, spots: p.spots.slice(1) }), 'plan.spot_count_mismatch'],
    ['every spot removed, at packing', (p) => ({ ...p, spots: p.spots.map((s) => ({ ...s, enabled: false })) }), 'plan.no_spots'],
    ['a zone centre off the image', (p) => ({ ...p, exclusionZones: { faz, onh: { ...onh, center: { x: 2100, y: 740 } } } }), 'plan.zone_outside_image'],
    ['overlapping zones', (p) => ({ ...p, exclusionZones: { faz, onh: { ...onh, center: { x: 1100, y: 768 } } } }), 'plan.zones_overlap'],
    ['µm radii that do not follow the scale', (p) => ({ ...p, exclusionZones: { faz: { ...faz, radiusXUm: faz.radiusXUm - 50 }, onh } }), 'plan.zone_scale_disagrees'],
  ];

  it.each(broken)('refuse %s with its own code and the figures of its message', (_, breakIt, code) => {
    const found = problem(breakIt(plan()), code);
    for (const name of PLAN_PROBLEM_PARAMS[code]) expect(found.params[name], name).toEqual(expect.any(Number));
  });

  it('name the spots concerned and count them', () => {
    const p = plan();
    const [found] = checkPlan({ ...p, spots: p.spots.map((s) => ({ ...s, powerMw: 1500 })) }, { field, powers: true }).filter(
      (candidate) => candidate.code === 'plan.power_out_of_limits',
    );
    expect(found.params).toMatchObject({ count: p.spots.length, minMw: DEFAULT_POWER_LIMITS.minMw, maxMw: 1000 });
    expect(found.spotIds).toEqual(p.spots.slice(0, 10).map((s) => s.id));
  });

  it('judge powers by the treating device in the plan\'s mode, the file format\'s range without one', () => {
    const p = plan();
    // A device whose micropulse starts at 85 mW: the darker spots (factor < 0.944 of 90 mW) are below it.
    const device: LaserProfile = { ...PROFILE, modes: { ...PROFILE.modes, micropulse: { ...PROFILE.modes.micropulse!, powerMw: { min: 85, max: 2000 } } } };
    const low = p.spots.filter((spot) => spot.powerMw! < 85).length;
    expect(low).toBeGreaterThan(0);
    expect(problem(p, 'plan.power_out_of_limits', { profile: device }).params).toMatchObject({ count: low, minMw: 85, maxMw: 2000 });
    // In continuous mode the continuous range applies; without a device, the file format's 0.1–1000 mW.
    const continuous = { ...MICROPULSE, laserMode: 'continuous' as const, pulseDurationMs: 100, dutyCyclePercent: null };
    expect(codes(plan({ laser: continuous }), { profile: device })).not.toContain('plan.power_out_of_limits');
    expect(codes(p, { packing: false, profile: undefined })).toEqual([]);
  });
});

/** A plan of landmarks and proposed zones only (no grid yet): what the anatomy checks see. */
function landmarksPlan(eye: string | null, disc: { x: number; y: number }, umPerPixel = 5): CheckedPlan {
  const fovea = { x: 2000, y: 2000 };
  const opticDisc = { center: disc, radiusPx: 800 / umPerPixel };
  const scale = { umPerPixel, source: 'manifest' as const };
  return { scale, fovea, eye, opticDisc, exclusionZones: proposeExclusionZones({ fovea, opticDisc }, scale), gridSettings: null, spots: [], brightness: null, laserDose: null };
}
const anatomy = (p: CheckedPlan) => checkPlan(p, { field: { width: 4096, height: 4096, aperture: null }, powers: false });

describe('clinical invariants: anatomy', () => {
  it('accept the disc nasal to the fovea: right of it in a right eye (OD), left of it in a left eye (OS)', () => {
    expect(anatomy(landmarksPlan('OD', { x: 2952, y: 1950 }))).toEqual([]);
    expect(anatomy(landmarksPlan('OS', { x: 1048, y: 1950 }))).toEqual([]);
  });

  it('refuse the disc on the temporal side, or straight above the fovea, as plan.laterality_mismatch', () => {
    expect(anatomy(landmarksPlan('OD', { x: 1048, y: 1950 })).map((p) => p.code)).toEqual(['plan.laterality_mismatch']);
    expect(anatomy(landmarksPlan('OS', { x: 2952, y: 1950 })).map((p) => p.code)).toEqual(['plan.laterality_mismatch']);
    expect(anatomy(landmarksPlan('OD', { x: 2000, y: 1000 })).map((p) => p.code)).toEqual(['plan.laterality_mismatch']);
    expect(anatomy(landmarksPlan('OS', { x: 2000, y: 1000 })).map((p) => p.code)).toEqual(['plan.laterality_mismatch']);
    // Without a known eye there is no side to judge.
    expect(anatomy(landmarksPlan(null, { x: 1048, y: 1950 }))).toEqual([]);
  });

  it('accept a disc–fovea distance of 3760–6530 µm at the plan\'s scale (Jonas 2015) and refuse any other, with the figures', () => {
    // At 5 µm per pixel: 752 px = 3760 µm, 1306 px = 6530 µm.
    expect(anatomy(landmarksPlan('OD', { x: 2752, y: 2000 }))).toEqual([]);
    expect(anatomy(landmarksPlan('OD', { x: 3306, y: 2000 }))).toEqual([]);
    expect(anatomy(landmarksPlan('OS', { x: 2000 - 752, y: 2000 }))).toEqual([]);
    expect(anatomy(landmarksPlan('OD', { x: 2751.8, y: 2000 }))).toEqual([
      { code: 'plan.disc_fovea_implausible', spotIds: [], params: { count: 0, distanceUm: 3759, minUm: 3760, maxUm: 6530 } },
    ]);
    expect(anatomy(landmarksPlan('OD', { x: 3306.2, y: 2000 }))).toEqual([
      { code: 'plan.disc_fovea_implausible', spotIds: [], params: { count: 0, distanceUm: 6531, maxUm: 6530, minUm: 3760 } },
    ]);
    // The same landmarks at a wrong scale: 952 px at 8 µm per pixel is 7.6 mm.
    expect(anatomy(landmarksPlan('OD', { x: 2952, y: 2000 }, 8)).map((p) => [p.code, p.params.distanceUm])).toEqual([['plan.disc_fovea_implausible', 7616]]);
  });

  it('refuse an ONH zone that does not hold the optic disc and its 600 µm margin, giving the margin it keeps', () => {
    const p = landmarksPlan('OD', { x: 2952, y: 1950 });
    const onhOf = (radiusUm: number) => zoneOf('ONH', { center: p.opticDisc!.center, radiusXPx: radiusUm / 5, radiusYPx: radiusUm / 5 }, p.scale);
    const withOnh = (radiusUm: number) => anatomy({ ...p, exclusionZones: { ...p.exclusionZones, onh: onhOf(radiusUm) } });
    expect(withOnh(800 + 600)).toEqual([]);
    // Within a micrometre: a zone 1 µm short of the margin is refused.
    expect(withOnh(800 + 599).map((found) => found.code)).toEqual(['plan.disc_not_covered']);
    expect(withOnh(800 + 500)).toEqual([{ code: 'plan.disc_not_covered', spotIds: [], params: { count: 0, marginUm: 600, coveredUm: 499 } }]);
    expect(withOnh(10).map((found) => found.params)).toEqual([{ count: 0, marginUm: 600, coveredUm: 0 }]);
    // Off-centre: the zone is wide enough but misses the disc's nasal side.
    const shifted = { ...p.opticDisc!.center, x: p.opticDisc!.center.x - 40 };
    const offCentre = zoneOf('ONH', { center: shifted, radiusXPx: 1500 / 5, radiusYPx: 1500 / 5 }, p.scale);
    expect(anatomy({ ...p, exclusionZones: { ...p.exclusionZones, onh: offCentre } }).map((found) => found.code)).toEqual(['plan.disc_not_covered']);
    // A clinic's stricter margin (700 + 150 µm).
    const { limits } = clinicLimits({ discClearanceUm: 700, aimingMarginUm: 150 });
    const stricter = checkPlan(p, { field: { width: 4096, height: 4096, aperture: null }, powers: false, clinical: limits });
    expect(stricter.map((found) => [found.code, found.params.marginUm])).toEqual([['plan.disc_not_covered', 850]]);
  });
});

describe('clinical invariants: the issue\'s four plans, each refused with its own code', () => {
  it('(a) FAZ drawn 1 px in radius and an inner radius of 0 → plan.spot_near_fovea with the closest distance', () => {
    const tinyFaz = zoneOf('FAZ', { center: FOVEA, radiusXPx: 1, radiusYPx: 1 }, frame);
    const p = drawnPlan({ zones: { faz: tinyFaz, onh }, settings: { innerRadiusUm: 0 } });
    expect(codes(p)).toEqual(['plan.spot_near_fovea']);
    // The six spots one pitch (200 µm) from the fovea: their edges lie 150 µm from it (149.99… on the
    // hexagonal rows, whose height is irrational; the figure is rounded down, towards the fovea).
    const edges = p.spots.map((spot) => Math.hypot(spot.xUm, spot.yUm) - 50);
    const near = p.spots.filter((_, k) => edges[k] < 600);
    expect(Math.min(...edges)).toBeCloseTo(150, 9);
    const found = problem(p, 'plan.spot_near_fovea');
    expect(found.params).toEqual({ count: near.length, minimumUm: 600, closestUm: Math.floor(Math.min(...edges)) });
    expect(found.spotIds).toEqual(near.slice(0, 10).map((spot) => spot.id));
    // Removing those spots (not treating them) makes the plan safe.
    const removed = { ...p, spots: p.spots.map((spot) => (near.includes(spot) ? { ...spot, enabled: false } : spot)) };
    expect(codes(removed)).not.toContain('plan.spot_near_fovea');
  });

  it('(b) spacing 0.5 with 200 µm spots → plan.spacing_too_small', () => {
    const p = drawnPlan({ settings: { spotSizeUm: 200, spacing: 0.5 } });
    expect(codes(p)).toEqual(['plan.spacing_too_small']);
    expect(problem(p, 'plan.spacing_too_small').params).toEqual({ count: 0, spacing: 0.5, minimum: 1 });
  });

  it('(c) 666 mW, bounds 0.5–1.5 without a recorded choice, 50 µm spots, continuous 1000 ms → above titration, irradiance, pulse', () => {
    const p = drawnPlan({
      laserDose: 666,
      bounds: { minFactor: 0.5, maxFactor: 1.5 },
      settings: { spotSizeUm: 50 },
      laser: { laserMode: 'continuous', pulseDurationMs: 1000, dutyCyclePercent: null },
    });
    expect(codes(p)).toEqual(['plan.pulse_out_of_range', 'plan.irradiance_too_high', 'plan.power_above_titration']);
    expect(problem(p, 'plan.pulse_out_of_range').params).toEqual({ count: 0, pulseMs: 1000, minMs: 10, maxMs: 100 });
    const treated = p.spots.filter((spot) => spot.enabled);
    const above = treated.filter((spot) => spot.powerFactor! > 1);
    expect(above.length).toBeGreaterThan(0);
    expect(problem(p, 'plan.power_above_titration').params).toEqual({ count: above.length, maxFactor: 1 });
    // Every spot: at least 333 mW on 0.0000196 cm² ≈ 17,000 W/cm², above the 9,550 W/cm² of continuous photocoagulation.
    const highest = Math.max(...treated.map((spot) => spot.powerMw! / 1000 / (Math.PI * 0.0025 ** 2)));
    expect(problem(p, 'plan.irradiance_too_high').params).toEqual({ count: treated.length, maxWPerCm2: 9550, highestWPerCm2: Math.round(highest * 10) / 10 });
  });

  it('(d) ONH drawn 2 px wide on the disc and an outer radius of 6000 µm → plan.disc_not_covered and plan.ring_too_wide', () => {
    const thinOnh = zoneOf('ONH', { center: DISC.center, radiusXPx: 1, radiusYPx: 1 }, frame);
    const p = drawnPlan({ zones: { faz, onh: thinOnh }, settings: { outerRadiusUm: 6000 } });
    expect(codes(p)).toEqual(['plan.disc_not_covered', 'plan.ring_too_wide']);
    expect(problem(p, 'plan.disc_not_covered').params).toEqual({ count: 0, marginUm: 600, coveredUm: 0 });
    expect(problem(p, 'plan.ring_too_wide').params).toEqual({ count: 0, outerRadiusUm: 6000, maxUm: 3000 });
    // What the two codes guard against: spots laid out on the optic disc itself.
    const discUm = { xUm: (DISC.center.x - FOVEA.x) * UM_PER_PX, yUm: -(DISC.center.y - FOVEA.y) * UM_PER_PX };
    expect(p.spots.some((spot) => Math.hypot(spot.xUm - discUm.xUm, spot.yUm - discUm.yUm) < 850)).toBe(true);
  });
});

describe('clinical invariants: the grid', () => {
  it('keep spots from overlapping in micropulse (spacing ≥ 1) and two widths apart in continuous (DRCR.net)', () => {
    expect(codes(drawnPlan({ settings: { spacing: 1 } }))).toEqual([]);
    expect(codes(drawnPlan({ settings: { spacing: 0.95 } }))).toEqual(['plan.spacing_too_small']);
    const continuous = { laserMode: 'continuous' as const, pulseDurationMs: 100, dutyCyclePercent: null };
    expect(codes(drawnPlan({ settings: { spacing: 2 }, laser: continuous }))).toEqual([]);
    const close = drawnPlan({ settings: { spacing: 1.5 }, laser: continuous });
    expect(problem(close, 'plan.spacing_too_small').params).toEqual({ count: 0, spacing: 1.5, minimum: 2 });
  });

  it('let a device whose patterns allow it place continuous spots one width apart, unless the clinic is stricter', () => {
    const continuous = { laserMode: 'continuous' as const, pulseDurationMs: 100, dutyCyclePercent: null };
    const device = { ...PROFILE, modes: { ...PROFILE.modes, continuous: { ...PROFILE.modes.continuous!, minSpacing: 1 } } };
    const p = drawnPlan({ settings: { spacing: 1.5 }, laser: continuous });
    expect(codes(p, { profile: device })).toEqual([]);
    const { limits } = clinicLimits({ continuousSpacingDiameters: 3 });
    expect(problem(p, 'plan.spacing_too_small', { profile: device, clinical: limits }).params).toMatchObject({ minimum: 3 });
  });

  it('end the ring at 3000 µm (DRCR.net), or a clinic\'s smaller radius', () => {
    expect(codes(drawnPlan({ settings: { outerRadiusUm: 3000 } }))).toEqual([]);
    expect(codes(drawnPlan({ settings: { outerRadiusUm: 3000.5 } }))).toEqual(['plan.ring_too_wide']);
    const { limits } = clinicLimits({ outerRadiusUm: 2500 });
    expect(problem(drawnPlan({}), 'plan.ring_too_wide', { clinical: limits }).params).toEqual({ count: 0, outerRadiusUm: 3000, maxUm: 2500 });
  });

  it('keep treated spots 600 µm from the fovea even where the FAZ drawn is smaller, or a clinic\'s larger minimum', () => {
    const smallFaz = zoneOf('FAZ', { center: FOVEA, radiusXPx: 300 / UM_PER_PX, radiusYPx: 300 / UM_PER_PX }, frame);
    // Inner radius 550: spot edges at 550 µm and beyond, inside the FAZ drawn but within the foveal minimum.
    const p = drawnPlan({ zones: { faz: smallFaz, onh }, settings: { innerRadiusUm: 550 } });
    expect(problem(p, 'plan.spot_near_fovea').params).toMatchObject({ minimumUm: 600, closestUm: 550 });
    const { limits } = clinicLimits({ fovealClearanceUm: 700 });
    const standard = drawnPlan({});
    const edges = standard.spots.map((spot) => Math.hypot(spot.xUm, spot.yUm) - 50);
    expect(problem(standard, 'plan.spot_near_fovea', { clinical: limits }).params).toEqual({
      count: edges.filter((edge) => edge < 800).length,
      minimumUm: 800,
      closestUm: Math.floor(Math.min(...edges)),
    });
    // Only treated spots count.
    const untreated = { ...p, spots: p.spots.map((spot) => (Math.hypot(spot.xUm, spot.yUm) < 650 ? { ...spot, enabled: false } : spot)) };
    expect(codes(untreated)).toEqual([]);
  });
});

describe('clinical invariants: the laser', () => {
  it('at packing need a device profile, complete settings and a mode the device offers', () => {
    expect(codes(plan(), { profile: null })).toEqual(['plan.device_profile_missing']);
    expect(codes(plan(), { profile: undefined })).toEqual(['plan.device_profile_missing']);
    // A save before packing does not need the device yet.
    expect(codes(plan(), { packing: false, profile: null })).toEqual([]);
    expect(codes(plan({ laser: null }))).toEqual(['plan.laser_settings_missing']);
    expect(codes(plan({ laser: { ...MICROPULSE, pulseDurationMs: null } }))).toEqual(['plan.laser_settings_missing']);
    expect(codes(plan({ laser: { ...MICROPULSE, laserMode: null } }))).toEqual(['plan.laser_settings_missing']);
    const continuousOnly: LaserProfile = { ...PROFILE, modes: { continuous: PROFILE.modes.continuous } };
    expect(codes(plan(), { profile: continuousOnly })).toEqual(['plan.mode_not_offered']);
  });

  it('need a spot size the device delivers and the grid\'s spot size and spacing', () => {
    const large: LaserProfile = { ...PROFILE, spotSizeUm: { min: 150, max: 500 } };
    expect(problem(plan(), 'plan.spot_size_not_offered', { profile: large }).params).toEqual({ count: 0, spotSizeUm: 100, minUm: 150, maxUm: 500 });
    expect(codes(plan({ laser: { ...MICROPULSE, spotSizeUm: 200 } }))).toEqual(['plan.laser_grid_disagree']);
    expect(codes(plan({ laser: { ...MICROPULSE, spotSpacing: 3 } }))).toEqual(['plan.laser_grid_disagree']);
  });

  it('keep the pulse within the device, and continuous burns at most 100 ms (DRCR.net)', () => {
    expect(codes(drawnPlan({ laser: { laserMode: 'continuous', pulseDurationMs: 100, dutyCyclePercent: null } }))).toEqual([]);
    const long = drawnPlan({ laser: { laserMode: 'continuous', pulseDurationMs: 100.5, dutyCyclePercent: null } });
    expect(problem(long, 'plan.pulse_out_of_range').params).toEqual({ count: 0, pulseMs: 100.5, minMs: 10, maxMs: 100 });
    expect(problem(plan({ laser: { ...MICROPULSE, pulseDurationMs: 4 } }), 'plan.pulse_out_of_range').params).toEqual({ count: 0, pulseMs: 4, minMs: 5, maxMs: 500 });
    expect(problem(plan({ laser: { ...MICROPULSE, pulseDurationMs: 501 } }), 'plan.pulse_out_of_range').params).toEqual({ count: 0, pulseMs: 501, minMs: 5, maxMs: 500 });
  });

  it('need a micropulse duty cycle within the device and at most 15 % (Luttrull)', () => {
    expect(codes(plan({ laser: { ...MICROPULSE, dutyCyclePercent: null } }))).toEqual(['plan.duty_cycle_missing']);
    expect(codes(plan({ laser: { ...MICROPULSE, dutyCyclePercent: 15 } }))).toEqual([]);
    expect(problem(plan({ laser: { ...MICROPULSE, dutyCyclePercent: 15.5 } }), 'plan.duty_cycle_out_of_range').params).toEqual({ count: 0, dutyCyclePercent: 15.5, minPercent: 2, maxPercent: 15 });
    expect(problem(plan({ laser: { ...MICROPULSE, dutyCyclePercent: 1 } }), 'plan.duty_cycle_out_of_range').params).toEqual({ count: 0, dutyCyclePercent: 1, minPercent: 2, maxPercent: 15 });
    const narrow: LaserProfile = { ...PROFILE, modes: { ...PROFILE.modes, micropulse: { ...PROFILE.modes.micropulse!, dutyCyclePercent: { min: 5, max: 10 } } } };
    expect(problem(plan({ laser: { ...MICROPULSE, dutyCyclePercent: 12 } }), 'plan.duty_cycle_out_of_range', { profile: narrow }).params).toMatchObject({ maxPercent: 10 });
    const { limits } = clinicLimits({ micropulseDutyCyclePercent: 5 });
    expect(codes(plan(), { clinical: limits })).toEqual([]);
    expect(problem(plan({ laser: { ...MICROPULSE, dutyCyclePercent: 6 } }), 'plan.duty_cycle_out_of_range', { clinical: limits }).params).toMatchObject({ maxPercent: 5 });
  });

  it('keep every spot\'s irradiance below the mode\'s ceiling: 350 W/cm² duty-averaged in micropulse, 9550 W/cm² continuous', () => {
    // 90 mW × 15 % on 50 µm ≈ 688 W/cm².
    const small = drawnPlan({ settings: { spotSizeUm: 50 }, laser: { dutyCyclePercent: 15 } });
    const treated = small.spots.filter((spot) => spot.enabled);
    const found = problem(small, 'plan.irradiance_too_high');
    expect(found.params.count).toBe(treated.length);
    expect(found.params.maxWPerCm2).toBe(350);
    expect(found.params.highestWPerCm2).toBeCloseTo((Math.max(...treated.map((spot) => spot.powerMw!)) * 0.15) / 1000 / spotAreaCm2(50), 1);
    // 750 mW on 100 µm continuous is 9549 W/cm²: the top of conventional photocoagulation, accepted; 751 mW is not.
    const continuous = { laserMode: 'continuous' as const, pulseDurationMs: 100, dutyCyclePercent: null };
    expect(codes(drawnPlan({ laserDose: 750, laser: continuous }))).toEqual([]);
    const hotter = drawnPlan({ laserDose: 790, laser: continuous });
    const over = hotter.spots.filter((spot) => spot.powerMw! > 750).length;
    expect(over).toBeGreaterThan(0);
    expect(problem(hotter, 'plan.irradiance_too_high').params).toMatchObject({ count: over, maxWPerCm2: 9550 });
    // Before packing and without the laser step, irradiance is not judged (the settings may be incomplete).
    expect(checkPlan(small, { field, powers: true, profile: PROFILE }).map((p) => p.code)).toEqual([]);
  });

  it('refuse a factor above 1 unless the physician recorded it, and never on a brightness outlier', () => {
    const raised = drawnPlan({ bounds: { maxFactor: 1.2 } });
    const above = raised.spots.filter((spot) => spot.powerFactor! > 1);
    expect(above.length).toBeGreaterThan(0);
    expect(problem(raised, 'plan.power_above_titration').params).toEqual({ count: above.length, maxFactor: 1 });
    const recorded = { ...raised, brightness: { ...raised.brightness!, aboveTitration: { by: { id: 'u-17', name: 'Dr. Anna Schäfer' }, at: '2026-11-21T10:02:00Z' } } };
    expect(codes(recorded)).toEqual([]);
    // A spot outside ordinary fundus with a factor above 1 is refused even so.
    const k = recorded.spots.indexOf(above[0]);
    const outlier = { ...recorded, spots: recorded.spots.map((spot, index) => (index === k ? { ...spot, brightness: recorded.brightness.ordinaryRange!.max + 0.01 } : spot)) };
    const found = problem(outlier, 'plan.power_above_titration');
    expect(found.spotIds).toEqual([above[0].id]);
    expect(found.params).toEqual({ count: 1, maxFactor: 1 });
  });
});

// Edges the mutation run (issue 26) found untested: each test below fails on a mutant that survived before.
describe('plan invariants at their edges', () => {
  it('refuse a zone centre off each side of the image, and take one on its very edge', () => {
    const onhAt = (x: number, y: number) => plan({ exclusionZones: { faz, onh: { ...onh, center: { x, y } } } });
    for (const [x, y] of [
      [-1, 740],
      [1200, -1],
      [field.width + 1, 740],
      [1200, field.height + 1],
    ]) {
      expect(codes(onhAt(x, y)), `${x}, ${y}`).toContain('plan.zone_outside_image');
    }
    for (const [x, y] of [
      [0, 0],
      [field.width, field.height],
    ]) {
      expect(codes(onhAt(x, y)), `${x}, ${y}`).not.toContain('plan.zone_outside_image');
    }
  });

  /**
   * Two treated spots of the plan moved to (xUm, yUm) 6 mm (30 pitches) away from the others, which stay treated:
   * with the whole plan the check's hash table is large, and a cell the search skips is not found by a collision.
   */
  function pairAt(first: [number, number], second: [number, number], order: 'first' | 'last' = 'first') {
    const base = plan();
    const moved = [first, second].map(([xUm, yUm], k) => ({ ...base.spots[k], xUm: xUm + 6000, yUm: yUm + 6000 }));
    const rest = base.spots.slice(2);
    return checkPlan({ ...base, spots: order === 'first' ? [...moved, ...rest] : [...rest, ...moved] }, { field, powers: false }).find(
      (candidate) => candidate.code === 'plan.spacing_below_setting',
    );
  }

  it('find two treated spots closer than the pitch in every direction, naming both, the pitch to 0.1 µm', () => {
    const pitch = gridPitchUm(settings); // 200 µm
    // Across a cell boundary to the left and right, above and below, and diagonally; the pair first or last in the plan.
    for (const [first, second] of [
      [[pitch * 3 - 1, 0], [pitch * 3 + 1, 0]],
      [[0, pitch * 3 - 1], [0, pitch * 3 + 1]],
      [[pitch * 3 - 1, pitch * 3 - 1], [pitch * 3 + 1, pitch * 3 + 1]],
      [[pitch * 3 - 1, pitch * 3 + 1], [pitch * 3 + 1, pitch * 3 - 1]],
      [[10, 20], [10, 20 + pitch / 2]],
    ] as [[number, number], [number, number]][]) {
      for (const order of ['first', 'last'] as const) {
        const found = pairAt(first, second, order);
        expect(found, `${first} ${second} ${order}`).toBeDefined();
        expect(found!.params, `${first} ${second} ${order}`).toEqual({ count: 2, minimumUm: 200 });
        expect(found!.spotIds).toHaveLength(2);
      }
    }
    expect(pairAt([0, 0], [pitch * 1.001, 0])).toBeUndefined();
    // The figure is the pitch to 0.1 µm: spots of 100 µm √3 apart.
    const odd = { ...settings, spacing: Math.sqrt(3) };
    const base = plan();
    const spots = [base.spots[0], { ...base.spots[1], xUm: base.spots[0].xUm + 10, yUm: base.spots[0].yUm }];
    const found = checkPlan({ ...base, gridSettings: odd, spots }, { field, powers: false }).find((candidate) => candidate.code === 'plan.spacing_below_setting');
    expect(found!.params.minimumUm).toBe(173.2);
  });

  it('take a laser exactly at the ends of the device\'s ranges', () => {
    const atEnds = (laser: Partial<PlanLaser>, profile = PROFILE) => codes(plan({ laser: { ...MICROPULSE, ...laser } }), { profile });
    const laserCodes = ['plan.spot_size_not_offered', 'plan.pulse_out_of_range', 'plan.duty_cycle_out_of_range'];
    const exactSpot: LaserProfile = { ...PROFILE, spotSizeUm: { min: 100, max: 100 } };
    expect(atEnds({}, exactSpot).filter((code) => laserCodes.includes(code))).toEqual([]);
    expect(atEnds({ pulseDurationMs: 5 }).filter((code) => laserCodes.includes(code))).toEqual([]);
    expect(atEnds({ dutyCyclePercent: 2 }).filter((code) => laserCodes.includes(code))).toEqual([]);
    expect(atEnds({ dutyCyclePercent: 15 }).filter((code) => laserCodes.includes(code))).toEqual([]);
  });
});

describe('the ONH zone around the disc, at its edges', () => {
  const p = landmarksPlan('OD', { x: 2952, y: 1950 });
  const disc = p.opticDisc!;
  const at = (dx: number, dy: number, shape: { rx: number; ry: number; rotationDeg?: number } = { rx: 1500, ry: 1500 }) =>
    zoneOf('ONH', { center: { x: disc.center.x + dx, y: disc.center.y + dy }, radiusXPx: shape.rx / 5, radiusYPx: shape.ry / 5, rotationDeg: shape.rotationDeg }, p.scale);
  const coverOf = (onh: ExclusionZone) => anatomy({ ...p, exclusionZones: { ...p.exclusionZones, onh } }).find((found) => found.code === 'plan.disc_not_covered');

  it('finds the side a shifted zone leaves open, whichever side it is, and the margin it keeps there', () => {
    // A 1500 µm zone 40 px (200 µm) off the disc's centre keeps 1500 − 200 − 800 = 500 µm on the near side.
    for (const [dx, dy] of [
      [-40, 0],
      [40, 0],
      [0, -40],
      [0, 40],
    ]) {
      const found = coverOf(at(dx, dy));
      expect(found, `${dx}, ${dy}`).toBeDefined();
      expect(found!.params.coveredUm, `${dx}, ${dy}`).toBeGreaterThanOrEqual(499);
      expect(found!.params.coveredUm, `${dx}, ${dy}`).toBeLessThanOrEqual(500);
    }
  });

  it('measures the margin a rotated ellipse keeps against the points of its own outline', () => {
    const onh = at(-30, 10, { rx: 1700, ry: 1250, rotationDeg: 35 });
    const frame = retinaFrame(p.fovea, p.scale.umPerPixel);
    const centre = toRetina(frame, imagePoint(disc.center.x, disc.center.y));
    const nearest = Math.min(...ellipseOutline(zoneInRetina(onh, frame), 256).map(({ x, y }) => Math.hypot(x - centre.xUm, y - centre.yUm)));
    const found = coverOf(onh);
    expect(found!.params.coveredUm).toBe(Math.max(0, Math.floor(nearest - 800)));
    expect(found!.params.coveredUm).toBeGreaterThan(0);
  });
});

describe('plans without a grid, or with too many spots', () => {
  it('refuse spots without grid settings, and a plan to pack without any', () => {
    const p = plan();
    expect(problem({ ...p, gridSettings: null }, 'plan.spot_count_mismatch').params).toEqual({ count: 0, expected: 0, actual: p.spots.length });
    const empty = { ...p, gridSettings: null, spots: [] };
    expect(codes(empty)).toContain('plan.no_spots');
    expect(codes(empty, { packing: false })).not.toContain('plan.no_spots');
  });

  it('refuse more spots than a parameter set holds, laid out or drawn', () => {
    const p = plan();
    const many = Array.from({ length: MAX_SPOTS + 1 }, (_, k) => ({ ...p.spots[k % p.spots.length], id: k }));
    expect(problem({ ...p, spots: many }, 'plan.too_many_spots').params).toEqual({ count: 0, max: MAX_SPOTS });
    // Grid settings whose layout would exceed it, with the plan's own spots.
    const crowded = { ...settings, spotSizeUm: 50, spacing: 0.5, outerRadiusUm: 6000 };
    expect(problem({ ...p, gridSettings: crowded }, 'plan.too_many_spots').params).toEqual({ count: 0, max: MAX_SPOTS });
    // Exactly as many as it holds is no such problem.
    const full = Array.from({ length: MAX_SPOTS }, (_, k) => ({ ...p.spots[k % p.spots.length], id: k }));
    expect(codes({ ...p, spots: full })).not.toContain('plan.too_many_spots');
  });
});

describe('the grid at its edges', () => {
  it('gives lattice indices for every id of the lattice and none beyond it', () => {
    expect(latticeIndices(0)).toEqual({ i: -1024, j: -1024 });
    expect(latticeIndices(spotId(1023, 1023))).toEqual({ i: 1023, j: 1023 });
    expect(latticeIndices(2048 * 2048)).toBeNull();
    expect(latticeIndices(0.5)).toBeNull();
  });

  it('counts a spot whose edge lies exactly on the image\'s or the aperture\'s edge as inside', () => {
    const bare: ImagedField = { width: 2000, height: 1000, aperture: null };
    expect(withinField(bare, 10, 10, 10)).toBe(true);
    expect(withinField(bare, 1990, 990, 10)).toBe(true);
    expect(withinField(bare, 9.5, 500, 10)).toBe(false);
    expect(withinField(bare, 500, 990.5, 10)).toBe(false);
    const round: ImagedField = { width: 2000, height: 1000, aperture: { center: { x: 1000, y: 500 }, radiusPx: 400 } };
    expect(withinField(round, 1000 + 390, 500, 10)).toBe(true);
    expect(withinField(round, 1000 + 390.5, 500, 10)).toBe(false);
  });

  it('counts a spot whose edge lies exactly on the ring\'s edges as inside', () => {
    const ring: GridSettings = { ...settings, innerRadiusUm: 600, outerRadiusUm: 3000 };
    expect(withinRing(ring, 650, 0)).toBe(true);
    expect(withinRing(ring, 2950, 0)).toBe(true);
    expect(withinRing(ring, 649, 0)).toBe(false);
    expect(withinRing(ring, 2951, 0)).toBe(false);
  });
});
