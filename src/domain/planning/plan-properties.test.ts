/// <reference types="vite/client" />
// Properties of the plan geometry over random plans: image sizes, scales, both eyes, zone positions, sizes
// and rotations, apertures and every grid setting the contract allows. The laid-out grid is judged by
// checks written apart from the domain's (sampled rims, a brute-force neighbour search), and every kind of
// broken plan must be refused by the invariant check with its own code. The clinical limits (foveal minimum,
// spacing, ring, anatomy, laser) are judged in clinical-properties.test.ts; here the laser is a safe one.
// Each property counts the plans it really checked (a grid with spots) and needs a minimum share of them.
// Runs: PLAN_PROPERTY_RUNS (default 1,000; `npm run test:plan-properties` runs 100,000), seed: PLAN_PROPERTY_SEED.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spotPowerMw } from './brightness';
import type { LaserProfile } from './clinical-limits';
import { insideEllipse, type Ellipse } from './ellipse';
import { zoneInRetina, zoneOf, type ExclusionZone } from './exclusion-zones';
import { retinaFrame, retinaPoint, toImage } from './frames';
import { gridPitchUm, gridSurroundings, layOutGrid, TooManySpotsError, type GridSettings, type GridSpot, type ImagedField } from './macula-grid';
import { checkPlan, type CheckedPlan, type PlanLaser, type PlanProblemCode, type PlanSpot } from './plan-invariants';

// Vitest passes the process's environment through import.meta.env, which Vite replaces where it is written
// out in full (the domain has no Node types).
const env = import.meta.env as Record<string, string | undefined>;
const RUNS = Number(env.PLAN_PROPERTY_RUNS ?? 1000);
const SEED = env.PLAN_PROPERTY_SEED === undefined ? undefined : Number(env.PLAN_PROPERTY_SEED);
// Generous: the runs are synchronous, so a slow machine only makes vitest call a finished test late.
const TIMEOUT_MS = Math.max(120_000, RUNS * 60);

interface Scenario {
  field: ImagedField;
  umPerPixel: number;
  fovea: { x: number; y: number };
  faz: ExclusionZone;
  onh: ExclusionZone;
  settings: GridSettings;
}

/**
 * Uniform in [min, max], leaning to the bounds (fast-check's bias on integers). Not fc.double: it is uniform over
 * the doubles' bit patterns, so that nine in ten of its values in [0, 3000] lie below 1 (an inner radius of
 * 0 nearly always, rotations of ±0).
 */
const STEPS = 2 ** 30;
const double = (min: number, max: number) => fc.integer({ min: 0, max: STEPS }).map((n) => min + (n / STEPS) * (max - min));

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    width: fc.integer({ min: 256, max: 4096 }),
    height: fc.integer({ min: 256, max: 4096 }),
    umPerPixel: double(2, 30),
    eye: fc.constantFrom('OD', 'OS'),
    foveaAt: fc.tuple(double(0.25, 0.75), double(0.25, 0.75)),
    aperture: fc.option(fc.tuple(double(0.3, 0.55), double(-0.05, 0.05), double(-0.05, 0.05)), { nil: null }),
    faz: fc.tuple(double(150, 900), double(150, 900), double(-180, 180)),
    discDistanceUm: double(3500, 5500),
    discDropUm: double(-600, 600),
    onh: fc.tuple(double(500, 1700), double(500, 1700), double(-180, 180)),
    pattern: fc.constantFrom('hexagonal' as const, 'square' as const),
    spotSizeUm: double(50, 500),
    spacing: double(0.5, 4),
    innerRadiusUm: double(0, 3000),
    outerRadiusUm: double(500, 6000),
    // Four times in five a ring wider than a spot (else any outer radius: the grid may be empty).
    ringHoldsSpot: fc.noBias(fc.integer({ min: 0, max: 4 })).map((n) => n > 0),
  })
  .map((r) => {
    const fovea = { x: r.width * r.foveaAt[0], y: r.height * r.foveaAt[1] };
    const scale = { umPerPixel: r.umPerPixel };
    const side = r.eye === 'OD' ? 1 : -1;
    const minSide = Math.min(r.width, r.height);
    const aperture = r.aperture && {
      center: { x: r.width / 2 + r.aperture[1] * r.width, y: r.height / 2 + r.aperture[2] * r.height },
      radiusPx: r.aperture[0] * minSide * 2,
    };
    return {
      field: { width: r.width, height: r.height, aperture },
      umPerPixel: r.umPerPixel,
      fovea,
      faz: zoneOf('FAZ', { center: fovea, radiusXPx: r.faz[0] / r.umPerPixel, radiusYPx: r.faz[1] / r.umPerPixel, rotationDeg: r.faz[2] }, scale),
      onh: zoneOf(
        'ONH',
        {
          center: { x: fovea.x + (side * r.discDistanceUm) / r.umPerPixel, y: fovea.y + r.discDropUm / r.umPerPixel },
          radiusXPx: r.onh[0] / r.umPerPixel,
          radiusYPx: r.onh[1] / r.umPerPixel,
          rotationDeg: r.onh[2],
        },
        scale,
        200,
      ),
      settings: {
        pattern: r.pattern,
        spotSizeUm: r.spotSizeUm,
        spacing: r.spacing,
        innerRadiusUm: r.innerRadiusUm,
        outerRadiusUm: r.ringHoldsSpot ? Math.max(500, r.innerRadiusUm + r.spotSizeUm) + ((r.outerRadiusUm - 500) / 5500) * (6000 - Math.max(500, r.innerRadiusUm + r.spotSizeUm)) : r.outerRadiusUm,
      },
    };
  });

function layOut(s: Scenario): GridSpot[] | null {
  try {
    return layOutGrid(s.settings, gridSurroundings(retinaFrame(s.fovea, s.umPerPixel), [s.faz, s.onh], s.field));
  } catch (error) {
    if (error instanceof TooManySpotsError) return null;
    throw error;
  }
}

const RIM_POINTS = 72;
/** Float slack of the field and ring comparisons (µm or px). */
const SLACK = 1e-9;

/** Written apart from the domain: a point of the spot's rim (or its centre) inside the zone, or a point of the zone's rim inside the spot. */
function sampledTouch(zone: Ellipse, x: number, y: number, radius: number): boolean {
  if (Math.hypot(x - zone.cx, y - zone.cy) > Math.max(zone.rx, zone.ry) + radius) return false;
  if (insideEllipse(zone, x, y)) return true;
  for (let k = 0; k < RIM_POINTS; k++) {
    const t = (2 * Math.PI * k) / RIM_POINTS;
    if (insideEllipse(zone, x + radius * Math.cos(t), y + radius * Math.sin(t))) return true;
  }
  const cos = Math.cos(zone.rotation);
  const sin = Math.sin(zone.rotation);
  for (let k = 0; k < RIM_POINTS * 4; k++) {
    const t = (2 * Math.PI * k) / (RIM_POINTS * 4);
    const u = zone.rx * Math.cos(t);
    const v = zone.ry * Math.sin(t);
    if (Math.hypot(zone.cx + u * cos - v * sin - x, zone.cy + u * sin + v * cos - y) < radius) return true;
  }
  return false;
}

/** The smallest distance between two spots, by a bucket search of its own. */
function smallestGap(spots: readonly GridSpot[], bucket: number): number {
  const buckets = new Map<string, GridSpot[]>();
  for (const spot of spots) {
    const key = `${Math.round(spot.xUm / bucket)}:${Math.round(spot.yUm / bucket)}`;
    const bucketed = buckets.get(key);
    if (bucketed) bucketed.push(spot);
    else buckets.set(key, [spot]);
  }
  let gap = Number.POSITIVE_INFINITY;
  for (const spot of spots) {
    const bx = Math.round(spot.xUm / bucket);
    const by = Math.round(spot.yUm / bucket);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const other of buckets.get(`${bx + dx}:${by + dy}`) ?? []) {
          if (other !== spot) gap = Math.min(gap, Math.hypot(other.xUm - spot.xUm, other.yUm - spot.yUm));
        }
      }
    }
  }
  return gap;
}

/**
 * A device and settings no grid of this file can break: micropulse of at most 108 mW × 5 % stays below
 * 350 W/cm² down to 50 µm spots. Its power range is the file format's, which the breakages below exceed.
 */
const PROFILE: LaserProfile = {
  wavelengthNm: 577,
  spotSizeUm: { min: 50, max: 500 },
  modes: { micropulse: { powerMw: { min: 0.1, max: 1000 }, pulseMs: { min: 5, max: 500 }, dutyCyclePercent: { min: 1, max: 50 } } },
};
const laserOf = (settings: GridSettings): PlanLaser => ({ laserMode: 'micropulse', pulseDurationMs: 15, dutyCyclePercent: 5, spotSizeUm: settings.spotSizeUm, spotSpacing: settings.spacing });
// Factors above 1 need the physician's recorded choice (the powers below go up to 1.2).
const ABOVE_TITRATION = { by: { id: 'u-1', name: 'Dr. Test' }, at: '2026-11-21T10:02:00Z' };

/** The plan of a scenario; no optic disc, so the anatomy (judged in clinical-properties.test.ts) is left out. */
function planOf(s: Scenario, spots: readonly PlanSpot[]): CheckedPlan {
  return {
    scale: { umPerPixel: s.umPerPixel },
    fovea: s.fovea,
    exclusionZones: { faz: s.faz, onh: s.onh },
    gridSettings: s.settings,
    spots,
    brightness: { medianBrightness: 0.4, minFactor: 0.8, maxFactor: 1.2, gamma: 0.5, aboveTitration: ABOVE_TITRATION },
    laserDose: 90,
    laser: laserOf(s.settings),
  };
}

const FACTORS = [0.8, 0.9, 1, 1.1, 1.2];
const powered = (spots: readonly GridSpot[]): PlanSpot[] =>
  spots.map((spot, k) => ({ ...spot, brightness: 0.4, powerFactor: FACTORS[k % 5], powerMw: spotPowerMw(90, FACTORS[k % 5]) }));

const check = (s: Scenario, plan: CheckedPlan) => checkPlan(plan, { field: s.field, profile: PROFILE, powers: true, packing: true }).map((p) => p.code);

/**
 * Codes the geometry property does not judge: an empty grid at packing, zones the scenario may draw off the
 * image or overlapping, and the clinical limits of the settings it draws from the contract's whole range (a FAZ
 * smaller than the foveal minimum, spacing below one width, a ring beyond 3000 µm).
 */
const NOT_JUDGED = new Set<PlanProblemCode>(['plan.no_spots', 'plan.zone_outside_image', 'plan.zones_overlap', 'plan.spot_near_fovea', 'plan.spacing_too_small', 'plan.ring_too_wide']);

/**
 * Share of the runs that must have met a grid with spots (measured: about 62 %; the others lie off a small
 * image, in a ring narrower than a spot, or hold more spots than a parameter set).
 */
const MIN_CHECKED_SHARE = 0.4;

// Vitest cannot stop a synchronous property, and fast-check bounds the shrinking of a failure by nothing else:
// after this long it reports the smallest counterexample so far. The counts below catch a run cut short.
const parameters = { numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(Math.max(120_000, RUNS * 120))], ...(SEED === undefined ? {} : { seed: SEED }) };

describe(`plan geometry over ${RUNS} random plans`, () => {
  it(
    'lays out no spot that touches a zone, leaves the field or the ring, or comes closer than the spacing; the check agrees',
    () => {
      const outcomes = { checked: 0, empty: 0, tooMany: 0 };
      fc.assert(
        fc.property(scenario, (s) => {
          const spots = layOut(s);
          if (!spots) {
            outcomes.tooMany++;
            return;
          }
          if (!spots.length) {
            outcomes.empty++;
            return;
          }
          outcomes.checked++;
          const frame = retinaFrame(s.fovea, s.umPerPixel);
          const zones = [zoneInRetina(s.faz, frame), zoneInRetina(s.onh, frame)];
          const radiusUm = s.settings.spotSizeUm / 2;
          const radiusPx = radiusUm / s.umPerPixel;
          // Plain comparisons per spot (an expect per spot would cost more than the layout); the first spot
          // that breaks one is reported with the reason.
          const broken = spots
            .map((spot) => {
              if (zones.some((zone) => sampledTouch(zone, spot.xUm, spot.yUm, radiusUm))) return 'touches a zone';
              // Field and ring are compared with a slack of the last bits of a double (Math.hypot and the
              // domain's square root may round apart); the zones get none (the domain keeps a picometre off).
              if (spot.x - radiusPx < -SLACK || spot.y - radiusPx < -SLACK || spot.x + radiusPx > s.field.width + SLACK || spot.y + radiusPx > s.field.height + SLACK) {
                return 'leaves the image';
              }
              const { aperture } = s.field;
              if (aperture && Math.hypot(spot.x - aperture.center.x, spot.y - aperture.center.y) + radiusPx > aperture.radiusPx + SLACK) return 'leaves the aperture';
              const distance = Math.hypot(spot.xUm, spot.yUm);
              if (distance - radiusUm < s.settings.innerRadiusUm - SLACK || distance + radiusUm > s.settings.outerRadiusUm + SLACK) return 'leaves the ring';
              const image = toImage(frame, retinaPoint(spot.xUm, spot.yUm));
              if (image.x !== spot.x || image.y !== spot.y) return 'pixels disagree with µm';
              return null;
            })
            .findIndex((reason) => reason !== null);
          expect(broken === -1 ? null : spots[broken]).toBeNull();
          const pitch = gridPitchUm(s.settings);
          if (spots.length > 1) expect(smallestGap(spots, pitch)).toBeGreaterThanOrEqual(pitch * (1 - 1e-9));
          expect(new Set(spots.map((spot) => spot.id)).size).toBe(spots.length);
          expect(check(s, planOf(s, powered(spots))).filter((code) => !NOT_JUDGED.has(code))).toEqual([]);
        }),
        parameters,
      );
      expect(outcomes.checked + outcomes.empty + outcomes.tooMany).toBe(RUNS);
      expect(outcomes.checked, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(MIN_CHECKED_SHARE * RUNS);
    },
    TIMEOUT_MS,
  );

  type Breakage = { name: string; code: PlanProblemCode; apply: (s: Scenario, spots: PlanSpot[], k: number) => PlanSpot[] };

  const at = (spots: PlanSpot[], k: number, change: Partial<PlanSpot>) => spots.map((spot, index) => (index === k ? { ...spot, ...change } : spot));
  const breakages: Breakage[] = [
    {
      name: 'a spot moved onto the fovea',
      code: 'plan.spot_in_exclusion_zone',
      apply: (s, spots, k) => at(spots, k, { xUm: 1, yUm: 0, ...pixelsOf(s, 1, 0) }),
    },
    {
      name: 'a spot moved onto the disc',
      code: 'plan.spot_in_exclusion_zone',
      apply: (s, spots, k) => {
        const frame = retinaFrame(s.fovea, s.umPerPixel);
        const disc = zoneInRetina(s.onh, frame);
        return at(spots, k, { xUm: disc.cx, yUm: disc.cy, x: s.onh.center.x, y: s.onh.center.y });
      },
    },
    { name: 'a spot beyond the image', code: 'plan.spot_outside_field', apply: (s, spots, k) => at(spots, k, { x: s.field.width + 5 }) },
    { name: 'a power above the device', code: 'plan.power_out_of_limits', apply: (_, spots, k) => at(spots, k, { powerMw: 1000.1 + k }) },
    { name: 'a power of zero', code: 'plan.power_out_of_limits', apply: (_, spots, k) => at(spots, k, { powerMw: 0 }) },
    { name: 'a spot left out', code: 'plan.spot_count_mismatch', apply: (_, spots, k) => spots.filter((__, index) => index !== k) },
    { name: 'a spot twice', code: 'plan.duplicate_spot_id', apply: (_, spots, k) => [...spots, spots[k]] },
    {
      name: 'a spot nudged off its lattice position',
      code: 'plan.spot_off_grid',
      apply: (s, spots, k) => {
        const spot = spots[k];
        const xUm = spot.xUm + s.settings.spotSizeUm * 0.01;
        return at(spots, k, { xUm, ...pixelsOf(s, xUm, spot.yUm) });
      },
    },
    { name: 'pixels that do not follow the µm', code: 'plan.spot_coordinates_disagree', apply: (_, spots, k) => at(spots, k, { y: spots[k].y + 0.25 }) },
    { name: 'every spot removed', code: 'plan.no_spots', apply: (_, spots) => spots.map((spot) => ({ ...spot, enabled: false })) },
  ];

  function pixelsOf(s: Scenario, xUm: number, yUm: number) {
    return toImage(retinaFrame(s.fovea, s.umPerPixel), retinaPoint(xUm, yUm));
  }

  it(
    'refuses every broken plan with the code of what is broken',
    () => {
      const checked = new Map(breakages.map((breakage) => [breakage.name, 0]));
      let runs = 0;
      fc.assert(
        fc.property(scenario, fc.constantFrom(...breakages), fc.nat(), (s, breakage, pick) => {
          runs++;
          const spots = layOut(s);
          if (!spots?.length) return;
          const broken = breakage.apply(s, powered(spots), pick % spots.length);
          checked.set(breakage.name, checked.get(breakage.name)! + 1);
          expect(check(s, planOf(s, broken))).toContain(breakage.code);
        }),
        parameters,
      );
      expect(runs).toBe(RUNS);
      const total = [...checked.values()].reduce((sum, count) => sum + count, 0);
      expect(total, JSON.stringify(Object.fromEntries(checked))).toBeGreaterThanOrEqual(MIN_CHECKED_SHARE * RUNS);
      // Every kind of breakage was really tried (about a tenth of the checked plans each).
      if (RUNS >= 100) for (const [name, count] of checked) expect(count, name).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
