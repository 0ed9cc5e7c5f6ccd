/**
 * `npm run bench:plan [-- --runs N]`: how long a full recompute of a plan takes in Node — the macula grid
 * laid out around the fovea, every spot tested against the exclusion zones and the imaged field, each
 * spot's brightness over its footprint, the median, the power factors and powers, and the invariant check
 * over the result, consistency and clinical limits with the laser checked against a device profile
 * (src/domain/planning/plan.ts, `recomputePlan`), for grids of about 1,000 and 5,000 spots.
 *
 * The image is a synthetic fundus (1600 × 1200, seed 7, OD) with its painted disc and fovea; the zones
 * are the ones processing proposes. The image's luma map is made once per image, as the server and the
 * wizard do, and is not part of a recompute. Prints median and p95 of N timed recomputes (default 400)
 * after 50 untimed ones, with the share of each stage beside it. Target: ≤ 1 ms median for 1,000 spots.
 */
import { parseArgs } from 'node:util';
import { paintSyntheticFundus } from '../src/domain/fundus/synthetic-fundus';
import { DEFAULT_POWER_BOUNDS, lumaMap } from '../src/domain/planning/brightness';
import { proposeExclusionZones } from '../src/domain/planning/exclusion-zones';
import { retinaFrame } from '../src/domain/planning/frames';
import { gridSurroundings, layOutGrid, type GridSettings, type ImagedField } from '../src/domain/planning/macula-grid';
import { adaptPowers, recomputePlan } from '../src/domain/planning/plan';
import { checkPlan, type PlanLaser } from '../src/domain/planning/plan-invariants';
import { YELLOW_LASER_PROFILE } from '../server/seed/laser-profiles';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '400' } } });
const RUNS = Number(values.runs);
const WARM_UP = 50;

const fundus = paintSyntheticFundus({ eye: 'OD', seed: 7 });
const { truth, umPerPixel } = fundus;
const frame = retinaFrame(truth.fovea, umPerPixel);
const zones = proposeExclusionZones(truth, { umPerPixel, source: 'estimated' });
const field: ImagedField = { width: fundus.raster.width, height: fundus.raster.height, aperture: null };
const surroundings = gridSurroundings(frame, [zones.faz, zones.onh], field);
const luma = lumaMap(fundus.raster);

/** Settings whose grid holds about `target` spots: the spacing found by bisection. */
function settingsFor(target: number, spotSizeUm: number): GridSettings {
  let low = 0.5;
  let high = 4;
  let settings: GridSettings = { pattern: 'hexagonal', spotSizeUm, spacing: high, innerRadiusUm: 600, outerRadiusUm: 3000 };
  for (let step = 0; step < 40; step++) {
    const spacing = (low + high) / 2;
    settings = { ...settings, spacing };
    if (layOutGrid(settings, surroundings).length > target) low = spacing;
    else high = spacing;
  }
  return settings;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function time(run: () => void): { median: number; p95: number } {
  for (let k = 0; k < WARM_UP; k++) run();
  const times: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
}

const format = (ms: number) => `${ms.toFixed(3)} ms`.padStart(10);

console.log(`bench:plan — full recompute in Node ${process.version}, ${RUNS} timed runs after ${WARM_UP} untimed`);
console.log(`image ${field.width} × ${field.height}, ${umPerPixel.toFixed(2)} µm/px, ring 600–3000 µm, hexagonal, micropulse 5 % on a 577 nm profile\n`);
console.log(`${'spots'.padEnd(8)}${'median'.padStart(10)}${'p95'.padStart(10)}   median per stage: grid, brightness + powers, invariants`);
for (const [target, spotSizeUm] of [
  [1000, 100],
  [5000, 50],
] as const) {
  const settings = settingsFor(target, spotSizeUm);
  const laser: PlanLaser = { laserMode: 'micropulse', pulseDurationMs: 15, dutyCyclePercent: 5, spotSizeUm, spotSpacing: settings.spacing };
  const landmarks = { eye: 'OD', opticDisc: truth.opticDisc, laser, profile: YELLOW_LASER_PROFILE };
  const input = { settings, frame, zones, field, luma, bounds: DEFAULT_POWER_BOUNDS, laserDose: 90, ...landmarks };
  const result = recomputePlan(input);
  if (result.problems.length) throw new Error(`The benchmark's plan breaks invariants: ${result.problems.map((p) => p.code).join(', ')}`);
  const whole = time(() => recomputePlan(input));
  const grid = layOutGrid(settings, surroundings);
  const radiusPx = spotSizeUm / 2 / umPerPixel;
  const powered = adaptPowers(grid, luma, radiusPx, DEFAULT_POWER_BOUNDS, 90);
  const plan = { scale: { umPerPixel }, fovea: frame.fovea, exclusionZones: zones, gridSettings: settings, spots: powered.spots, brightness: powered.model, laserDose: 90, ...landmarks };
  const stages = [
    time(() => layOutGrid(settings, surroundings)),
    time(() => adaptPowers(grid, luma, radiusPx, DEFAULT_POWER_BOUNDS, 90)),
    time(() => checkPlan(plan, { field, profile: YELLOW_LASER_PROFILE, powers: true, packing: true })),
  ];
  console.log(
    `${String(result.spots.length).padEnd(8)}${format(whole.median)}${format(whole.p95)}   ${stages.map((s) => format(s.median).trim()).join(', ')}` +
      `  (spot ${spotSizeUm} µm, spacing ${settings.spacing.toFixed(3)})`,
  );
}
