import { describe, expect, it } from 'vitest';
import { createRaster } from '../fundus/raster';
import { brightnessModel, DEFAULT_POWER_BOUNDS, DEFAULT_POWER_LIMITS, footprintBrightness, lumaMap, median, powerFactor, spotPowerMw } from './brightness';
import { zoneOf } from './exclusion-zones';
import { retinaFrame } from './frames';
import { gridPitchUm, gridSurroundings, latticeIndices, layOutGrid, spotId, TooManySpotsError, unknownSpotIds, type GridSettings, type ImagedField } from './macula-grid';
import { adaptPowers, recomputePlan, withDose } from './plan';
import { checkPlan, PLAN_PROBLEM_PARAMS, type CheckedPlan, type PlanProblemCode } from './plan-invariants';

const UM_PER_PX = 6;
const frame = retinaFrame({ x: 1000, y: 768 }, UM_PER_PX);
const field: ImagedField = { width: 2048, height: 1536, aperture: { center: { x: 1024, y: 768 }, radiusPx: 760 } };
const faz = zoneOf('FAZ', { center: { x: 1000, y: 768 }, radiusXPx: 500 / UM_PER_PX, radiusYPx: 500 / UM_PER_PX }, frame);
const onh = zoneOf('ONH', { center: { x: 1000 + 4760 / UM_PER_PX, y: 740 }, radiusXPx: 1100 / UM_PER_PX, radiusYPx: 1300 / UM_PER_PX, rotationDeg: 10 }, frame, 200);
const settings: GridSettings = { pattern: 'hexagonal', spotSizeUm: 100, spacing: 2, innerRadiusUm: 500, outerRadiusUm: 3000 };
const surroundings = gridSurroundings(frame, [faz, onh], field);

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
  return { scale: { umPerPixel: UM_PER_PX }, fovea: { x: 1000, y: 768 }, exclusionZones: { faz, onh }, gridSettings: settings, spots, brightness: model, laserDose: 90, ...overrides };
}

const codes = (checked: CheckedPlan, packing = false) => checkPlan(checked, { field, limits: DEFAULT_POWER_LIMITS, powers: true, packing }).map((problem) => problem.code);

describe('macula grid', () => {
  it('fills the ring with spots a pitch apart, each wholly in the ring', () => {
    const spots = layOutGrid(settings, surroundings);
    // Ring area / hexagonal cell area: π(2950² − 550²) / (200² · √3/2) ≈ 760.
    expect(spots.length).toBeGreaterThan(700);
    expect(spots.length).toBeLessThan(800);
    for (const spot of spots) {
      const distance = Math.hypot(spot.xUm, spot.yUm);
      expect(distance).toBeGreaterThanOrEqual(550);
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
    expect(checkPlan({ ...plan(), gridSettings: wide, spots, brightness: null }, { field, limits: DEFAULT_POWER_LIMITS, powers: false })).toEqual([]);
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

  it('takes the median of the treated area and gives brighter spots more power, within the bounds', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    const model = brightnessModel([0.2, 0.4, 0.6]);
    expect(model.medianBrightness).toBe(0.4);
    expect(powerFactor(0.4, model)).toBe(1);
    expect(powerFactor(0.5, model)).toBeCloseTo(Math.sqrt(1.25), 9);
    expect(powerFactor(0.3, model)).toBeCloseTo(Math.sqrt(0.75), 9);
    expect(powerFactor(1, model)).toBe(DEFAULT_POWER_BOUNDS.maxFactor);
    expect(powerFactor(0, model)).toBe(DEFAULT_POWER_BOUNDS.minFactor);
    expect(powerFactor(0.7, brightnessModel([0, 0]))).toBe(1);
    // An earlier model as the bounds: its median does not carry over.
    expect(brightnessModel([0.6, 0.8], model)).toEqual({ ...model, medianBrightness: 0.7 });
    expect(spotPowerMw(90, 1.1234)).toBe(101.1);
  });

  it('adapts the powers of a laid-out grid and recomputes them for a new dose', () => {
    const { spots, model } = plannedSpots();
    const left = spots.reduce((a, b) => (b.x < a.x ? b : a));
    const right = spots.reduce((a, b) => (b.x > a.x ? b : a));
    expect(right.powerMw!).toBeGreaterThan(left.powerMw!);
    expect(model.medianBrightness).toBeGreaterThan(0);
    const higher = withDose(spots, 95);
    expect(higher[0].powerMw).toBe(spotPowerMw(95, spots[0].powerFactor!));
  });

  it('recomputes a whole plan that keeps every invariant', () => {
    const result = recomputePlan({ settings, frame, zones: { faz, onh }, field, luma, bounds: DEFAULT_POWER_BOUNDS, laserDose: 90, limits: DEFAULT_POWER_LIMITS });
    expect(result.problems).toEqual([]);
    expect(result.spots.length).toBe(layOutGrid(settings, surroundings).length);
  });
});

describe('plan invariants', () => {
  it('pass for a plan laid out and powered by the domain', () => {
    expect(codes(plan(), true)).toEqual([]);
  });

  const broken: [string, (p: CheckedPlan) => CheckedPlan, PlanProblemCode][] = [
    ['a spot moved into the FAZ', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, xUm: 100, yUm: 0, x: 1000 + 100 / UM_PER_PX, y: 768 } : s)) }), 'plan.spot_in_exclusion_zone'],
    ['a spot whose pixels lie in the ONH while its µm do not', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, x: onh.center.x, y: onh.center.y } : s)) }), 'plan.spot_in_exclusion_zone'],
    ['a spot off the image', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, x: -3 } : s)) }), 'plan.spot_outside_field'],
    ['a power above the device limit', (p) => ({ ...p, spots: p.spots.map((s, k) => (k === 0 ? { ...s, powerMw: 1200 } : s)) }), 'plan.power_out_of_limits'],
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
    const problems = checkPlan(breakIt(plan()), { field, limits: DEFAULT_POWER_LIMITS, powers: true, packing: true });
    const problem = problems.find((found) => found.code === code);
    expect(problem, problems.map((found) => found.code).join(', ')).toBeDefined();
    for (const name of PLAN_PROBLEM_PARAMS[code]) expect(problem!.params[name], name).toEqual(expect.any(Number));
  });

  it('name the spots concerned and count them', () => {
    const p = plan();
    const [problem] = checkPlan({ ...p, spots: p.spots.map((s) => ({ ...s, powerMw: 1500 })) }, { field, limits: DEFAULT_POWER_LIMITS, powers: true }).filter(
      (found) => found.code === 'plan.power_out_of_limits',
    );
    expect(problem.params).toMatchObject({ count: p.spots.length, minMw: DEFAULT_POWER_LIMITS.minMw, maxMw: 1000 });
    expect(problem.spotIds).toEqual(p.spots.slice(0, 10).map((s) => s.id));
  });
});
