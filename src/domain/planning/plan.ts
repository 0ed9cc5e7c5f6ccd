// A plan's spots from its settings, in the order of the wizard: the grid around the fovea (step 2–3), each
// spot's brightness and power (step 4–5), and the invariants over the result. The server recomputes
// through here on every save; the wizard previews with the same code.
import { brightnessModel, footprintBrightness, powerFactor, spotPowerMw, type BrightnessModel, type LumaMap, type PowerBounds } from './brightness';
import type { ClinicalLimits, LaserProfile } from './clinical-limits';
import type { ExclusionZone } from './exclusion-zones';
import type { RetinaFrame } from './frames';
import { gridSurroundings, layOutGrid, type GridSettings, type ImagedField } from './macula-grid';
import { checkPlan, type PlanLaser, type PlanProblem, type PlanSpot } from './plan-invariants';

/**
 * Each spot's brightness over its footprint, the model from the treated spots' median, and each spot's
 * factor and power (removed spots keep theirs, so putting one back needs no recompute).
 */
export function adaptPowers(
  spots: readonly PlanSpot[],
  luma: LumaMap,
  spotRadiusPx: number,
  bounds: PowerBounds,
  laserDose: number,
  outlierMad?: number,
): { spots: PlanSpot[]; model: BrightnessModel } {
  const brightness = new Float64Array(spots.length);
  const treated = new Float64Array(spots.length);
  let treatedCount = 0;
  for (let k = 0; k < spots.length; k++) {
    brightness[k] = footprintBrightness(luma, spots[k].x, spots[k].y, spotRadiusPx);
    if (spots[k].enabled) treated[treatedCount++] = brightness[k];
  }
  const model = brightnessModel(treated.subarray(0, treatedCount), bounds, outlierMad);
  // Spots written out field by field: a spread per spot costs more than the rest of this function.
  const adapted = spots.map(({ id, x, y, xUm, yUm, enabled }, k): PlanSpot => {
    const factor = powerFactor(brightness[k], model);
    return { id, x, y, xUm, yUm, enabled, brightness: brightness[k], powerFactor: factor, powerMw: spotPowerMw(laserDose, factor) };
  });
  return { model, spots: adapted };
}

/** Powers again for a new dose (final adjustments), with the factors the brightness step gave. */
export function withDose(spots: readonly PlanSpot[], laserDose: number): PlanSpot[] {
  return spots.map((spot) => (spot.powerFactor == null ? spot : { ...spot, powerMw: spotPowerMw(laserDose, spot.powerFactor) }));
}

export interface RecomputeInput {
  settings: GridSettings;
  frame: RetinaFrame;
  zones: { faz: ExclusionZone; onh: ExclusionZone };
  field: ImagedField;
  disabledSpotIds?: Iterable<number>;
  luma: LumaMap;
  bounds: PowerBounds;
  laserDose: number;
  clinical?: ClinicalLimits;
  profile?: LaserProfile | null;
  /** For the clinical checks of landmarks and laser: the treated eye, the optic disc, the laser settings. */
  eye?: string | null;
  opticDisc?: { center: { x: number; y: number }; radiusPx: number } | null;
  laser?: PlanLaser | null;
}

/** Grid, exclusion, brightness, powers and invariants, from scratch. */
export function recomputePlan(input: RecomputeInput): { spots: PlanSpot[]; brightness: BrightnessModel; problems: PlanProblem[] } {
  const surroundings = gridSurroundings(input.frame, [input.zones.faz, input.zones.onh], input.field);
  const grid = layOutGrid(input.settings, surroundings, input.disabledSpotIds);
  const { spots, model } = adaptPowers(grid, input.luma, input.settings.spotSizeUm / 2 / input.frame.umPerPixel, input.bounds, input.laserDose, input.clinical?.brightnessOutlierMad);
  const problems = checkPlan(
    {
      scale: { umPerPixel: input.frame.umPerPixel },
      fovea: input.frame.fovea,
      exclusionZones: input.zones,
      gridSettings: input.settings,
      spots,
      brightness: model,
      laserDose: input.laserDose,
      eye: input.eye,
      opticDisc: input.opticDisc,
      laser: input.laser,
    },
    { field: input.field, clinical: input.clinical, profile: input.profile, powers: true, laser: Boolean(input.laser) },
  );
  return { spots, brightness: model, problems };
}
