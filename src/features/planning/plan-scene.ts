/**
 * What the planning canvas shows, computed from the plan in its own units (µm on the retina, image pixels for
 * the zones) and the step's draft. Pure: the canvas (plan-canvas.ts) only converts these to the screen.
 */
import { powerFactor, spotPowerMw, type BrightnessModel } from '@/domain/planning/brightness';
import { gridSurroundings, layOutGrid, TooManySpotsError, type GridSettings, type GridSpot, type ImagedField } from '@/domain/planning/macula-grid';
import { zoneOf, type ExclusionZone, type ZoneShape } from '@/domain/planning/exclusion-zones';
import type { RetinaFrame } from '@/domain/planning/frames';
import { POWER_COLOURS, spotColourClass } from '@/domain/planning/power-colours';

/** A spot as drawn: the grid's spot, and the colour class of its power factor (or -1 for no colour). */
export interface DrawnSpot extends GridSpot {
  /** Index into POWER_COLOURS, or -1 before the brightness step. */
  colour: number;
  powerFactor: number | null;
  powerMw: number | null;
}

export interface Zones {
  faz: ZoneShape;
  onh: ZoneShape;
}

export const zoneShape = (zone: ExclusionZone): ZoneShape => ({
  center: { ...zone.center },
  radiusXPx: zone.radiusXPx,
  radiusYPx: zone.radiusYPx,
  rotationDeg: zone.rotationDeg,
});

/** The zones of a draft as the domain's zones (µm from the plan's scale), for a preview layout. */
export function zonesInUm(zones: Zones, umPerPixel: number, onhMarginUm?: number): { faz: ExclusionZone; onh: ExclusionZone } {
  return { faz: zoneOf('FAZ', zones.faz, { umPerPixel }), onh: zoneOf('ONH', zones.onh, { umPerPixel }, onhMarginUm) };
}

/** The live grid of step 2: laid out in the browser with the server's code; null with the reason it cannot be. */
export function previewGrid(
  settings: GridSettings,
  frame: RetinaFrame,
  zones: { faz: ExclusionZone; onh: ExclusionZone },
  field: ImagedField,
  disabled: ReadonlySet<number>,
): { spots: GridSpot[]; problem: null } | { spots: []; problem: 'too_many' | 'outer_radius' } {
  if (settings.outerRadiusUm <= settings.innerRadiusUm) return { spots: [], problem: 'outer_radius' };
  try {
    return { spots: layOutGrid(settings, gridSurroundings(frame, [zones.faz, zones.onh], field), disabled), problem: null };
  } catch (error) {
    if (error instanceof TooManySpotsError) return { spots: [], problem: 'too_many' };
    throw error;
  }
}

/** The ids with `id` removed if present, else added (kept sorted): a spot removed or restored. */
export const toggledId = (ids: readonly number[], id: number) => (ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id].sort((a, b) => a - b));

type BrightnessSpot = GridSpot & { brightness?: number | null; powerFactor?: number | null };

/**
 * The spots with factors and powers for bounds the user is trying: the model's median stays (it depends on
 * the treated spots, not on the bounds), so a factor follows from each spot's brightness as on the server.
 * Without a brightness (before the step), the factor the server gave stays.
 */
export function poweredSpots(spots: readonly BrightnessSpot[], model: BrightnessModel | null, laserDose: number | null, disabled?: ReadonlySet<number>): DrawnSpot[] {
  return spots.map((spot) => {
    const factor = model && spot.brightness != null ? powerFactor(spot.brightness, model) : (spot.powerFactor ?? null);
    return {
      id: spot.id,
      x: spot.x,
      y: spot.y,
      xUm: spot.xUm,
      yUm: spot.yUm,
      enabled: disabled ? !disabled.has(spot.id) : spot.enabled,
      colour: spotColourClass(factor, model),
      powerFactor: factor,
      powerMw: factor === null || laserDose === null ? null : spotPowerMw(laserDose, factor),
    };
  });
}

/** Counts of the treated spots' factors in `bins` equal classes between the bounds. */
export function factorHistogram(spots: readonly DrawnSpot[], model: Pick<BrightnessModel, 'minFactor' | 'maxFactor'>, bins = POWER_COLOURS.length): number[] {
  const counts = new Array<number>(bins).fill(0);
  const span = model.maxFactor - model.minFactor;
  for (const spot of spots) {
    if (!spot.enabled || spot.powerFactor === null) continue;
    const t = span > 0 ? (spot.powerFactor - model.minFactor) / span : 0.5;
    counts[Math.min(bins - 1, Math.max(0, Math.floor(t * bins)))]++;
  }
  return counts;
}

/** Nominal energy of the treated spots, mJ: power (mW) × pulse duration (ms) summed (µJ) / 1000. */
export function totalEnergyMj(spots: readonly DrawnSpot[], pulseDurationMs: number | null): number | null {
  if (pulseDurationMs === null) return null;
  let microjoules = 0;
  for (const spot of spots) {
    if (!spot.enabled) continue;
    if (spot.powerMw === null) return null;
    microjoules += spot.powerMw * pulseDurationMs;
  }
  return microjoules / 1000;
}

/** The spot under image point (x, y), within its radius (plus `slackPx` for a finger), or null. */
export function spotAt(spots: readonly { id: number; x: number; y: number }[], x: number, y: number, radiusPx: number, slackPx = 0): number | null {
  let best: number | null = null;
  let bestDistance = radiusPx + slackPx;
  for (const spot of spots) {
    const distance = Math.hypot(spot.x - x, spot.y - y);
    if (distance <= bestDistance) {
      bestDistance = distance;
      best = spot.id;
    }
  }
  return best;
}

/**
 * The next spot from `fromId` in the direction (dx, dy) on the image (arrow keys): the nearest spot whose
 * offset points within 60° of that direction, so rows of a hexagonal grid are followed too. Null when
 * none lies that way.
 */
export function spotTowards(spots: readonly { id: number; x: number; y: number }[], fromId: number, dx: number, dy: number): number | null {
  const from = spots.find((spot) => spot.id === fromId);
  if (!from) return null;
  let best: number | null = null;
  let bestScore = Infinity;
  for (const spot of spots) {
    if (spot.id === fromId) continue;
    const ox = spot.x - from.x;
    const oy = spot.y - from.y;
    const distance = Math.hypot(ox, oy);
    const along = (ox * dx + oy * dy) / distance;
    if (!(along >= 0.5)) continue;
    // Prefer the nearest spot, then the one most in line.
    const score = distance * (2 - along);
    if (score < bestScore) {
      bestScore = score;
      best = spot.id;
    }
  }
  return best;
}

/** The spot nearest the fovea: where keyboard selection of spots starts. */
export function centralSpot(spots: readonly DrawnSpot[]): number | null {
  let best: number | null = null;
  let bestDistance = Infinity;
  for (const spot of spots) {
    const distance = Math.hypot(spot.xUm, spot.yUm);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = spot.id;
    }
  }
  return best;
}
