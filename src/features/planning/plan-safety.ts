/**
 * The clinical refusals of a step's save, previewed in the browser (docs/clinical-limits.md): the step's draft
 * made into the plan the server would store, as the server makes it (server/services/plan-steps.ts), and run
 * through the domain's own check (`checkPlan`) with the limits in force and the treating device's laser
 * profile (Plan.safety). What comes out is what the save would be refused with, so the wizard can say it
 * before the user saves. Pure: the steps only show it.
 */
import type { Plan } from '@generated/model/plan';
import type { Role } from '@generated/model/role';
import type { Treatment } from '@generated/model/treatment';
import { brightnessOutlier, type BrightnessModel } from '@/domain/planning/brightness';
import { DEFAULT_CLINICAL_LIMITS, fovealMinimumUm, type ClinicalLimits, type LaserProfile } from '@/domain/planning/clinical-limits';
import { estimatedScale, ONH_MARGIN_UM, zoneOf, type ExclusionZone, type ZoneShape } from '@/domain/planning/exclusion-zones';
import type { GridSettings, GridSpot, ImagedField } from '@/domain/planning/macula-grid';
import { checkPlan, type CheckedPlan, type PlanLaser, type PlanProblemCode } from '@/domain/planning/plan-invariants';

/** The refusals for what a clinic must not plan, whatever is drawn, that steps 1 and 2 can break. */
export const CLINICAL_CODES = [
  'plan.laterality_mismatch',
  'plan.disc_fovea_implausible',
  'plan.disc_not_covered',
  'plan.spot_near_fovea',
  'plan.spacing_too_small',
  'plan.ring_too_wide',
] as const satisfies readonly PlanProblemCode[];

export type ClinicalCode = (typeof CLINICAL_CODES)[number];

/** A refusal with the figures of its message (the same as the server's, see PLAN_PROBLEM_PARAMS). */
export interface ClinicalProblem {
  code: ClinicalCode;
  params: Record<string, number>;
}

const CLINICAL: ReadonlySet<string> = new Set(CLINICAL_CODES);

/** What of a session the check reads besides its plan: the eye and the laser settings (the mode sets the least spacing). */
export type CheckedSession = Pick<Treatment, 'eye' | 'plan' | 'laserMode' | 'pulseDurationMs' | 'dutyCyclePercent' | 'spotSizeUm' | 'spotSpacing'>;

/** What the plan is held to: the limits in force and the treating device's laser profile (the defaults before issue 26). */
export function safetyOf(plan: Plan): { limits: ClinicalLimits; profile: LaserProfile | null } {
  return { limits: plan.safety?.limits ?? DEFAULT_CLINICAL_LIMITS, profile: plan.safety?.treatmentDevice?.laserProfile ?? null };
}

/** Where spots may lie: the plan's imaged field, else the whole display image. */
export const fieldOf = (plan: Plan, image: { width: number; height: number }): ImagedField => plan.imagedField ?? { width: image.width, height: image.height, aperture: null };

function laserOf(session: CheckedSession): PlanLaser {
  return {
    laserMode: session.laserMode ?? null,
    pulseDurationMs: session.pulseDurationMs ?? null,
    dutyCyclePercent: session.laserMode === 'micropulse' ? (session.dutyCyclePercent ?? null) : null,
    spotSizeUm: session.spotSizeUm ?? null,
    spotSpacing: session.spotSpacing ?? null,
  };
}

function clinicalProblems(session: CheckedSession, plan: CheckedPlan, field: ImagedField): ClinicalProblem[] {
  const { limits, profile } = safetyOf(session.plan);
  return checkPlan(plan, { field, clinical: limits, profile, powers: false })
    .filter((problem): problem is typeof problem & { code: ClinicalCode } => CLINICAL.has(problem.code))
    .map(({ code, params }) => ({ code, params }));
}

// ---------------------------------------------------------------------------------------------------
// Step 1: the exclusion zones

const round2 = (value: number) => Math.round(value * 100) / 100;

/** A drawn zone as the step sends it: pixels to 0.01, as the server stores them. */
export function sentShape(shape: ZoneShape): Required<ZoneShape> {
  return {
    center: { x: round2(shape.center.x), y: round2(shape.center.y) },
    radiusXPx: round2(shape.radiusXPx),
    radiusYPx: round2(shape.radiusYPx),
    rotationDeg: round2(shape.rotationDeg ?? 0),
  };
}

export interface ZonesPreview {
  /** The plan's scale after the save: an estimated one follows the fovea (the FAZ's centre) and the disc. */
  scale: { umPerPixel: number; source: 'manifest' | 'estimated' };
  /** The optic disc after the save: moved by the ONH zone's move (a zone moved onto the disc says where it is). */
  opticDisc: { center: { x: number; y: number }; radiusPx: number } | null;
  zones: { faz: ExclusionZone; onh: ExclusionZone };
  problems: ClinicalProblem[];
}

/**
 * The zones of step 1 as the server would take them (saveExclusionZones): the disc moved with the ONH zone's
 * centre, an estimated scale made again from fovea and disc, the zones' µm from it; and the landmarks and the
 * disc's cover checked as on the save (the grid it then proposes keeps the limits by construction).
 */
export function previewZones(session: CheckedSession, draft: { faz: ZoneShape; onh: ZoneShape }, field: ImagedField): ZonesPreview {
  const { plan } = session;
  const previous = plan.exclusionZones!;
  const faz = sentShape(draft.faz);
  const onh = sentShape(draft.onh);
  const disc = plan.opticDisc;
  const opticDisc = disc
    ? {
        center: { x: round2(disc.center.x + onh.center.x - previous.onh.center.x), y: round2(disc.center.y + onh.center.y - previous.onh.center.y) },
        radiusPx: disc.radiusPx,
      }
    : null;
  const scale =
    plan.scale!.source === 'estimated' && opticDisc
      ? { umPerPixel: Math.round(estimatedScale(faz.center, opticDisc).umPerPixel * 1000) / 1000, source: 'estimated' as const }
      : plan.scale!;
  const zones = {
    faz: zoneOf('FAZ', faz, scale, previous.faz.marginUm),
    onh: zoneOf('ONH', onh, scale, previous.onh.marginUm ?? ONH_MARGIN_UM),
  };
  const problems = clinicalProblems(
    session,
    {
      scale,
      fovea: faz.center,
      opticDisc,
      eye: session.eye,
      exclusionZones: zones,
      gridSettings: null,
      spots: [],
      brightness: null,
      laserDose: null,
      laser: laserOf(session),
    },
    field,
  );
  return { scale, opticDisc, zones, problems };
}

// ---------------------------------------------------------------------------------------------------
// Step 2: the macula grid

export interface GridSafety {
  problems: ClinicalProblem[];
  /** Treated spots whose edge comes closer to the fovea than the foveal minimum: all of them, to mark. */
  nearFovea: ReadonlySet<number>;
}

/**
 * The grid of step 2 as laid out in the browser (the spots of `settings`, with the user's removed ones), checked
 * as the server checks the save (saveMaculaGrid): the foveal minimum on the treated spots, the spacing for the
 * session's laser mode and device, the ring's outer edge. The check is given only the treated spots within
 * reach of the foveal minimum: the clinical limits depend on no other spot, and the rest of the check (each
 * spot clear of the zones, on its lattice, in the field: the layout's own code) would cost some 50 ms per
 * change on a grid of 10,000 spots instead of a few.
 */
export function checkGrid(session: CheckedSession, settings: GridSettings, spots: readonly GridSpot[], field: ImagedField): GridSafety {
  const { plan } = session;
  const minimum = fovealMinimumUm(safetyOf(plan).limits);
  const radius = settings.spotSizeUm / 2;
  const near = spots.filter((spot) => spot.enabled && Math.hypot(spot.xUm, spot.yUm) - radius < minimum);
  const problems = clinicalProblems(
    session,
    {
      scale: plan.scale!,
      fovea: plan.fovea!,
      opticDisc: plan.opticDisc,
      eye: session.eye,
      exclusionZones: plan.exclusionZones!,
      gridSettings: settings,
      spots: near,
      brightness: null,
      laserDose: null,
      laser: laserOf(session),
    },
    field,
  );
  return { problems, nearFovea: new Set(near.map((spot) => spot.id)) };
}

// ---------------------------------------------------------------------------------------------------
// Step 3: brightness and power

export interface BrightnessOutliers {
  /** Treated spots darker than ordinary fundus: likely vessels or haemorrhages. */
  dark: ReadonlySet<number>;
  /** Treated spots brighter than ordinary fundus: likely hard exudates, scars or reflexes. */
  bright: ReadonlySet<number>;
}

/** The treated spots the model leaves out of the median, by side (the model's ordinary range, as on the server). */
export function brightnessOutliers(spots: readonly { id: number; enabled: boolean; brightness?: number | null }[], model: BrightnessModel | null): BrightnessOutliers {
  const dark = new Set<number>();
  const bright = new Set<number>();
  if (!model) return { dark, bright };
  for (const spot of spots) {
    if (!spot.enabled || spot.brightness == null) continue;
    const side = brightnessOutlier(spot.brightness, model);
    if (side === 'dark') dark.add(spot.id);
    else if (side === 'bright') bright.add(spot.id);
  }
  return { dark, bright };
}

export interface UpperBound {
  /** The user may change the upper bound (a physician; a nurse sees it fixed). */
  editable: boolean;
  /** The save sets powers above the titrated power: the physician must tick that they choose it. */
  needsConfirmation: boolean;
  /** `maxFactor` to send: undefined keeps the plan's (and, above the titration, who chose it and when). */
  send: number | undefined;
}

/**
 * The upper power bound of step 3 (docs/clinical-limits.md): at most the titrated power unless a physician
 * chooses more, explicitly, for this plan. A bound above it that a physician chose before and that is left
 * as it was is kept with their name; a new one is the user's choice and needs their confirmation.
 */
export function upperBound(role: Role, plan: Pick<Plan, 'brightness' | 'safety'>, draftMaxFactor: number): UpperBound {
  const titrated = (plan.safety?.limits ?? DEFAULT_CLINICAL_LIMITS).maxPowerFactor;
  if (role !== 'clinic_physicians') return { editable: false, needsConfirmation: false, send: undefined };
  const kept = plan.brightness?.aboveTitration != null && draftMaxFactor === plan.brightness.maxFactor;
  if (kept) return { editable: true, needsConfirmation: false, send: undefined };
  return { editable: true, needsConfirmation: draftMaxFactor > titrated, send: draftMaxFactor };
}
