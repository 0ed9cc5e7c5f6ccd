// The plan steps of the wizard through the contract: exclusion zones (1), macula grid (2), brightness (3) and
// final adjustments (4). The server is where a plan becomes true:
// - every step recomputes what follows from it with the shared domain code (src/domain/planning) and
//   proposes the next step, and saving an earlier step again resets what depended on it;
// - every result passes the invariant check (checkPlan) before it is stored, and a broken one is refused
//   with the code of what is broken;
// - every save names the revision it started from: the session row is read FOR UPDATE and a stale revision
//   gets 409 with the current plan, so two users never overwrite each other unseen;
// - every save goes into the plan's audit trail (plan_changes), and a physician's change to a plan someone
//   else prepared marks the session Modified.
import type { BrightnessInput } from '../../generated/model/brightnessInput';
import type { ExclusionZonesInput } from '../../generated/model/exclusionZonesInput';
import type { FinalAdjustmentsInput } from '../../generated/model/finalAdjustmentsInput';
import type { MaculaGridInput } from '../../generated/model/maculaGridInput';
import type { Plan } from '../../generated/model/plan';
import type { PlanAuditAction } from '../../generated/model/planAuditAction';
import type { PlanStepName } from '../../generated/model/planStepName';
import { DEFAULT_POWER_BOUNDS, type BrightnessModel, type LumaMap } from '../../src/domain/planning/brightness';
import { fovealMinimumUm, minimumSpacing, type ClinicalLimits, type LaserModeName } from '../../src/domain/planning/clinical-limits';
import { estimatedScale, ONH_MARGIN_UM, zoneInRetina, zoneOf, zonesOverlap, type ExclusionZone } from '../../src/domain/planning/exclusion-zones';
import { retinaFrame } from '../../src/domain/planning/frames';
import { gridSurroundings, layOutGrid, TooManySpotsError, unknownSpotIds, type GridSettings, type ImagedField } from '../../src/domain/planning/macula-grid';
import { adaptPowers, withDose } from '../../src/domain/planning/plan';
import { checkPlan, type PlanProblem, type PlanProblemCode, type PlanSpot } from '../../src/domain/planning/plan-invariants';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { Queryable, StoredPlan, TreatmentRow, Tx } from '../db/tables';
import { conflict, HttpError, notFound } from '../http/errors';
import type { MessageKey, MessageParams } from '../i18n';
import { lastPlanEditor } from '../repositories/plan-changes';
import { planImage, updatePlan } from '../repositories/plans';
import { activeTreatmentRow } from '../repositories/treatments';
import { userDisplayName } from '../repositories/people';
import { audit } from './audit';
import type { AuditAction } from './audit-actions';
import { checkContextOf, checkedPlanOf, clinicalLimitsOf, planSafetyOf, treatmentDeviceOf } from './clinical-safety';
import { sessionLocked } from './treatment-changes';
import { findTreatmentRow, laserSettingsOf, planOf } from './treatments';
import { insertPlanChange } from '../repositories/plan-changes';
import { announce, event } from '../realtime/announce';
import { runTask } from '../workers/pool';
import { Handover } from '../workers/transfer';

export const STEP_INDEX: Record<PlanStepName, number> = {
  initial_exclusion_boundaries: 0,
  exclusion_boundaries: 1,
  pre_macula_grid_pattern: 2,
  macula_grid_pattern: 3,
  pre_brightness: 4,
  brightness: 5,
  confirm_sign_off: 6,
  npt_packing: 7,
  available: 8,
};

/** The grid proposed when the exam names no spot size or spacing: ETDRS-style ring, 100 µm spots two diameters apart. */
export const DEFAULT_GRID: GridSettings = { pattern: 'hexagonal', spotSizeUm: 100, spacing: 2, innerRadiusUm: 500, outerRadiusUm: 3000 };

/** What a step leaves behind: the plan, where it stands, what the session's columns become, and the audit entry. */
interface StepResult {
  plan: StoredPlan;
  step: PlanStepName;
  action: PlanAuditAction;
  details: Record<string, unknown>;
  columns?: Partial<
    Pick<TreatmentRow, 'spot_size_um' | 'spot_spacing' | 'pulse_duration_ms' | 'laser_mode' | 'laser_dose' | 'duty_cycle_percent' | 'treatment_device_id' | 'total_spots' | 'brightness'>
  >;
}

// ---------------------------------------------------------------------------------------------------
// Refusals

const geometryInvalid = (key: MessageKey, fieldErrors: Record<string, MessageKey[]>, params: MessageParams = {}) =>
  new HttpError(422, 'plan.geometry_invalid', key, params, fieldErrors);

/** The input a clinical refusal points at, where one does (else the spots). */
const PROBLEM_FIELDS: Partial<Record<PlanProblemCode, string>> = {
  'plan.laterality_mismatch': 'faz.center',
  'plan.disc_fovea_implausible': 'onh.center',
  'plan.disc_not_covered': 'onh',
  'plan.spot_near_fovea': 'settings.innerRadiusUm',
  'plan.spacing_too_small': 'settings.spacing',
  'plan.ring_too_wide': 'settings.outerRadiusUm',
  'plan.device_profile_missing': 'treatmentDeviceId',
  'plan.mode_not_offered': 'laserMode',
  'plan.spot_size_not_offered': 'settings.spotSizeUm',
  'plan.pulse_out_of_range': 'pulseDurationMs',
  'plan.duty_cycle_missing': 'dutyCyclePercent',
  'plan.duty_cycle_out_of_range': 'dutyCyclePercent',
  'plan.irradiance_too_high': 'laserDose',
  'plan.power_above_titration': 'maxFactor',
};

/**
 * The most serious problem of a plan as the answer: powers outside the device → 409 (the plan cannot take
 * them), anything else → 422 with the problem's own code. `powerField` names the input that set the powers.
 */
function refusal(problem: PlanProblem, powerField: string, powerKey: MessageKey, powerParams: MessageParams = {}): HttpError {
  const params = { ...problem.params, ...powerParams, spots: problem.spotIds.join(', ') };
  if (problem.code === 'plan.power_out_of_limits') return new HttpError(409, problem.code, powerKey, params, { [powerField]: [powerKey] });
  return new HttpError(422, problem.code, problem.code, params, { [PROBLEM_FIELDS[problem.code] ?? 'spots']: [problem.code] });
}

// ---------------------------------------------------------------------------------------------------
// The display image's brightness, kept for the plans being worked on (decoding takes tens of ms).

const LUMA_KEPT = 8;
const EMPTY_LUMA: LumaMap = { width: 0, height: 0, rowSums: new Uint32Array(0) };
const lumaMaps = new Map<string, Promise<LumaMap>>();

async function displayLuma(ctx: AppContext, actor: Actor, treatmentId: string): Promise<LumaMap> {
  const image = await planImage(ctx.db, actor.clinicId, treatmentId);
  // No image: not this clinic's session, or not processed yet; the save answers which (404, 423 or 409).
  if (!image) return EMPTY_LUMA;
  const key = image.display_path;
  let luma = lumaMaps.get(key);
  if (!luma) {
    luma = (async () => {
      const bytes = await ctx.files.get(key);
      if (!bytes) throw new HttpError(409, 'treatment.file_missing', 'treatment.file_missing');
      // Decoded in a worker thread.
      const handover = new Handover();
      return runTask('displayLuma', { jpeg: handover.move(bytes) }, handover);
    })();
    luma.catch(() => lumaMaps.delete(key));
    lumaMaps.set(key, luma);
    if (lumaMaps.size > LUMA_KEPT) lumaMaps.delete(lumaMaps.keys().next().value!);
  }
  return luma;
}

// ---------------------------------------------------------------------------------------------------
// The frame of a save

interface Loaded {
  row: TreatmentRow;
  plan: StoredPlan;
  /** Where spots may lie: the plan's imaged field, or for a plan proposed before it was kept, the display image. */
  field: ImagedField;
  /** What the plan is held to: the clinic's limits and the treating device's laser profile. */
  context: Awaited<ReturnType<typeof checkContextOf>>;
  /** The acting user's name as plans show it. */
  actorName: string;
  tx: Tx;
}

/** A session whose plan may still change, read FOR UPDATE for the rest of the transaction. */
export type PlanRow = TreatmentRow & { plan: StoredPlan };

/**
 * The session read FOR UPDATE for a change to its plan: 404 outside the actor's reach (other clinic, patient
 * not active), 423 when locked, 409 before processing has finished or once signed off.
 */
export async function lockedPlan(tx: Tx, actor: Actor, treatmentId: string): Promise<PlanRow> {
  const row = await activeTreatmentRow(tx, actor.clinicId, treatmentId, { lock: true });
  if (!row) throw notFound();
  if (row.locked) throw sessionLocked();
  if (!row.plan || row.processing_state !== 'processed') throw conflict('plan.step_out_of_order', 'plan.still_processing');
  if (row.step_index >= STEP_INDEX.npt_packing) throw conflict('plan.signed_off', 'plan.signed_off');
  return row as PlanRow;
}

/** 409 `plan.revision_stale` with the current plan when a change started from another revision. */
export async function assertRevision(db: Queryable, row: TreatmentRow, revision: number): Promise<void> {
  if (revision !== row.plan_revision) throw new HttpError(409, 'plan.revision_stale', 'plan.revision_stale', {}, {}, { plan: planOf(row, await planSafetyOf(db, row)) });
}

/** Where spots may lie: the plan's imaged field, or for a plan proposed before it was kept, the display image. */
export async function imagedFieldOf(db: Queryable, row: PlanRow): Promise<ImagedField> {
  if (row.plan.imagedField) return row.plan.imagedField;
  const image = await planImage(db, row.clinic_id, row.id);
  if (!image) throw conflict('plan.step_out_of_order', 'plan.still_processing');
  return { width: image.width, height: image.height, aperture: null };
}

/** A session's plan as it stands, with what it is held to; the read is audited with its patient. */
export async function readPlan(ctx: AppContext, actor: Actor, treatmentId: string): Promise<Plan> {
  const row = await findTreatmentRow(ctx.db, actor.clinicId, treatmentId);
  await audit(ctx.db, actor, { action: 'plan.read', outcome: 'success', targetType: 'treatment', targetId: row.id, patientIds: [row.patient_id] });
  return planOf(row, await planSafetyOf(ctx.db, row));
}

/**
 * Runs one save: the session read FOR UPDATE (lockedPlan; 409 also before `earliest` or from a stale
 * revision), then `step`, then the stored plan, the session's columns, Modified and the plan's audit trail
 * entry, all in one transaction; once committed, announced and audited as `audited`. Answers the plan as it
 * then stands.
 */
async function saveStep(
  ctx: AppContext,
  actor: Actor,
  treatmentId: string,
  audited: AuditAction,
  revision: number,
  earliest: { index: number; key: MessageKey; exactly?: boolean },
  step: (loaded: Loaded) => StepResult | Promise<StepResult>,
): Promise<Plan> {
  const saved = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockedPlan(tx, actor, treatmentId);
    if (row.step_index < earliest.index || (earliest.exactly && row.step_index !== earliest.index)) {
      throw conflict('plan.step_out_of_order', earliest.key);
    }
    await assertRevision(tx, row, revision);
    const field = await imagedFieldOf(tx, row);
    const name = await userDisplayName(tx, actor.userId);
    // The actor's own account, there as long as their sign-in is.
    if (name === null) throw notFound();
    const result = await step({ row, plan: row.plan, field, context: await checkContextOf(tx, row, field), actorName: name, tx });
    const now = ctx.clock.now();
    const modified = actor.role === 'clinic_physicians' && (await preparedBySomeoneElse(tx, row.id, actor.userId));
    const nextRevision = row.plan_revision + 1;
    await updatePlan(tx, row.id, {
      ...result.columns,
      plan: result.plan,
      step: result.step,
      step_index: STEP_INDEX[result.step],
      plan_revision: nextRevision,
      ...(modified ? { modified_by: actor.userId, modified_by_name: name, modified_at: now } : {}),
      updated_at: now,
    });
    await insertPlanChange(tx, { treatmentId: row.id, at: now, by: { id: actor.userId, name }, action: result.action, step: result.step, revision: nextRevision, details: result.details });
    return { patientId: row.patient_id, step: STEP_INDEX[result.step] };
  });
  announce(ctx, [
    event('plan.step-saved', actor.clinicId, { patientId: saved.patientId, treatmentId, step: saved.step }),
    event('patients.changed', actor.clinicId, { patientIds: [saved.patientId] }),
  ]);
  await audit(ctx.db, actor, { action: audited, outcome: 'success', targetType: 'treatment', targetId: treatmentId });
  const row = await findTreatmentRow(ctx.db, actor.clinicId, treatmentId);
  return planOf(row, await planSafetyOf(ctx.db, row));
}

/** True when the last person to change the plan was someone else (the system's proposal prepares nothing). */
async function preparedBySomeoneElse(tx: Tx, treatmentId: string, userId: string): Promise<boolean> {
  const last = await lastPlanEditor(tx, treatmentId);
  return last !== undefined && last !== userId;
}

// ---------------------------------------------------------------------------------------------------
// Shared pieces of the steps

const zonesOf = (plan: StoredPlan): { faz: ExclusionZone; onh: ExclusionZone } => plan.exclusionZones!;

function frameOf(plan: StoredPlan) {
  return retinaFrame(plan.fovea!, plan.scale!.umPerPixel);
}

/** The grid of `settings` around the plan's fovea, refused when it is empty or holds too many spots. */
function gridOf(plan: StoredPlan, field: ImagedField, settings: GridSettings, disabled: Iterable<number> = []): PlanSpot[] {
  const zones = zonesOf(plan);
  try {
    const spots = layOutGrid(settings, gridSurroundings(frameOf(plan), [zones.faz, zones.onh], field), disabled);
    if (!spots.length) throw geometryInvalid('plan.grid_invalid', { settings: ['plan.grid_empty'] });
    return spots;
  } catch (error) {
    if (!(error instanceof TooManySpotsError)) throw error;
    throw new HttpError(422, 'plan.too_many_spots', 'plan.too_many_spots', { max: error.limit }, { 'settings.spacing': ['plan.too_many_spots'] });
  }
}

/** What the final adjustments may leave open: it is required only at sign-off. */
const REQUIRED_AT_SIGN_OFF: ReadonlySet<PlanProblemCode> = new Set(['plan.laser_settings_missing', 'plan.device_profile_missing', 'plan.duty_cycle_missing']);

/**
 * Refuses the plan when it breaks an invariant, consistency and clinical limits alike; `powers` once the
 * brightness step has given them; `laser` for the final adjustments (settings within the device's profile).
 */
function assertValid(
  loaded: Pick<Loaded, 'row' | 'field' | 'context'>,
  plan: StoredPlan,
  laserDose: number | null,
  powers: { field: string; key: MessageKey; params?: MessageParams } | null,
  laser: Partial<TreatmentRow> | null = null,
) {
  const row = laser ? { ...loaded.row, ...laser } : loaded.row;
  const problems = checkPlan(
    { ...checkedPlanOf(plan, row), laserDose },
    { ...loaded.context, powers: powers !== null && laserDose !== null, laser: laser !== null },
  ).filter((problem) => !REQUIRED_AT_SIGN_OFF.has(problem.code));
  if (problems.length) throw refusal(problems[0], powers?.field ?? 'spots', powers?.key ?? 'plan.power_out_of_limits', powers?.params);
}

/**
 * The grid proposed for a session: the settings kept (or the exam's, or the default), made to keep the
 * clinical limits (a proposal is always safe; what the user then asks for is checked as asked).
 */
function settingsFromSession(row: TreatmentRow, previous: GridSettings | null, limits: ClinicalLimits, context: Loaded['context']): GridSettings {
  const settings = previous ?? {
    ...DEFAULT_GRID,
    spotSizeUm: row.spot_size_um === null ? DEFAULT_GRID.spotSizeUm : Number(row.spot_size_um),
    spacing: row.spot_spacing === null ? DEFAULT_GRID.spacing : Number(row.spot_spacing),
  };
  const spacing = minimumSpacing(limits, row.laser_mode as LaserModeName | null, context.profile ?? null);
  const outerRadiusUm = Math.min(settings.outerRadiusUm, limits.outerRadiusUm);
  const innerRadiusUm = Math.min(Math.max(settings.innerRadiusUm, fovealMinimumUm(limits)), outerRadiusUm - settings.spotSizeUm);
  return { ...settings, spacing: Math.max(settings.spacing, spacing), innerRadiusUm, outerRadiusUm };
}

/** Bounds carried into a new proposal: above the titrated power only when a physician chose it. */
function keptBounds(model: BrightnessModel | null): BrightnessModel | typeof DEFAULT_POWER_BOUNDS {
  if (!model) return DEFAULT_POWER_BOUNDS;
  return model.maxFactor > DEFAULT_POWER_BOUNDS.maxFactor && !model.aboveTitration ? { ...model, maxFactor: DEFAULT_POWER_BOUNDS.maxFactor } : model;
}

/** The steps a save at `from` throws away, for the audit sentence and the answer. */
function resetBy(row: TreatmentRow, from: number): string[] {
  const reset: string[] = [];
  if (row.step_index >= STEP_INDEX.macula_grid_pattern && from < STEP_INDEX.macula_grid_pattern) reset.push('grid');
  if (row.step_index >= STEP_INDEX.brightness && from < STEP_INDEX.brightness) reset.push('brightness');
  // The final adjustments' laser dose, pulse and mode are the session's and stay; their removed spots go
  // with the grid.
  return reset;
}

/** Powers of `spots` from the display image's brightness, with `bounds` (and who chose a bound above the titration). */
function powered(
  plan: StoredPlan,
  spots: readonly PlanSpot[],
  luma: LumaMap,
  bounds: Pick<BrightnessModel, 'minFactor' | 'maxFactor' | 'gamma' | 'aboveTitration'>,
  laserDose: number | null,
  limits: ClinicalLimits,
) {
  // The image was not there when the save began (processing finished meanwhile): as if still processing.
  if (!luma.width) throw conflict('plan.step_out_of_order', 'plan.still_processing');
  const settings = plan.gridSettings!;
  const adapted = adaptPowers(spots, luma, settings.spotSizeUm / 2 / plan.scale!.umPerPixel, bounds, laserDose ?? 0, limits.brightnessOutlierMad);
  const model: BrightnessModel = { ...adapted.model, aboveTitration: bounds.maxFactor > limits.maxPowerFactor ? (bounds.aboveTitration ?? null) : null };
  // Without a laser dose there are factors but no powers yet (the final adjustments set the dose).
  return { model, spots: laserDose === null ? adapted.spots.map((spot) => ({ ...spot, powerMw: null })) : adapted.spots };
}

const doseOf = (row: TreatmentRow) => laserSettingsOf(row).laserDose;
const enabledCount = (spots: readonly PlanSpot[]) => spots.filter((spot) => spot.enabled).length;

// ---------------------------------------------------------------------------------------------------
// The steps

/** Wizard step 1: the zones as confirmed or drawn; the fovea is the FAZ's centre. Proposes the grid. */
export async function saveExclusionZones(ctx: AppContext, actor: Actor, treatmentId: string, input: ExclusionZonesInput): Promise<Plan> {
  return saveStep(ctx, actor, treatmentId, 'plan.exclusion_zones_saved', input.revision, { index: 0, key: 'plan.still_processing' }, (loaded) => {
    const { plan, row } = loaded;
    const { field } = loaded;
    const limits = clinicalLimitsOf();
    const previous = zonesOf(plan);
    // The disc moves with the ONH zone unless the physician places it; an estimated scale follows the landmarks.
    const opticDisc = input.opticDisc ?? movedDisc(plan, previous.onh, input.onh);
    const scale = plan.scale!.source === 'estimated' && opticDisc ? roundedScale(estimatedScale(input.faz.center, opticDisc)) : plan.scale!;
    const faz = zoneOf('FAZ', input.faz, scale, previous.faz.marginUm);
    const onh = zoneOf('ONH', input.onh, scale, previous.onh.marginUm ?? ONH_MARGIN_UM);
    const errors: Record<string, MessageKey[]> = {};
    for (const [name, zone] of [
      ['faz', faz],
      ['onh', onh],
    ] as const) {
      const { x, y } = zone.center;
      if (x < 0 || y < 0 || x > field.width || y > field.height) errors[`${name}.center`] = ['plan.zone_outside_image'];
    }
    const frame = retinaFrame(faz.center, scale.umPerPixel);
    if (!errors['onh.center'] && zonesOverlap(zoneInRetina(faz, frame), zoneInRetina(onh, frame))) errors.onh = ['plan.zones_overlap'];
    if (Object.keys(errors).length) throw geometryInvalid('plan.zones_invalid', errors);

    const moved: StoredPlan = { ...plan, scale, opticDisc, fovea: { ...faz.center }, exclusionZones: { faz, onh }, spots: [], brightness: null };
    // The landmarks first, so that a disc on the wrong side is named as such rather than as an empty grid.
    assertValid(loaded, { ...moved, gridSettings: null }, null, null);
    const settings = settingsFromSession(row, plan.gridSettings, limits, loaded.context);
    const spots = gridOf(moved, field, settings);
    const proposal: StoredPlan = { ...moved, gridSettings: settings, spots };
    assertValid(loaded, proposal, null, null);
    return {
      plan: proposal,
      step: 'pre_macula_grid_pattern',
      action: 'exclusion_zones_saved',
      details: { faz: radii(faz), onh: radii(onh), fovea: faz.center, opticDisc, scale, reset: resetBy(row, STEP_INDEX.exclusion_boundaries) },
      columns: { total_spots: enabledCount(spots), brightness: null, spot_size_um: settings.spotSizeUm, spot_spacing: settings.spacing },
    };
  });
}

const radii = (zone: ExclusionZone) => ({ xUm: zone.radiusXUm, yUm: zone.radiusYUm, rotationDeg: zone.rotationDeg });

const round2 = (value: number) => Math.round(value * 100) / 100;
const roundedScale = (scale: { umPerPixel: number; source: 'manifest' | 'estimated' }) => ({ umPerPixel: Math.round(scale.umPerPixel * 1000) / 1000, source: scale.source });

/** The disc moved by the ONH zone's move (a zone moved onto the disc says where the disc is). */
function movedDisc(plan: StoredPlan, before: ExclusionZone, after: ExclusionZonesInput['onh']): StoredPlan['opticDisc'] {
  const disc = plan.opticDisc;
  if (!disc) return null;
  const dx = after.center.x - before.center.x;
  const dy = after.center.y - before.center.y;
  return { center: { x: round2(disc.center.x + dx), y: round2(disc.center.y + dy) }, radiusPx: disc.radiusPx };
}

/** The spots of `disabled` that the layout lacks, as 422 naming the first. */
function assertKnownSpots(spots: readonly PlanSpot[], disabled: readonly number[] | undefined) {
  const unknown = unknownSpotIds(spots, disabled ?? []);
  if (unknown.length) throw new HttpError(422, 'request.invalid', 'request.invalid', { spot: unknown[0] }, { disabledSpotIds: ['plan.unknown_spot'] });
}

/** Wizard step 2: the grid laid out from the settings, with the removed spots. Proposes the powers. */
export async function saveMaculaGrid(ctx: AppContext, actor: Actor, treatmentId: string, input: MaculaGridInput): Promise<Plan> {
  const { settings } = input;
  if (settings.outerRadiusUm <= settings.innerRadiusUm) {
    throw geometryInvalid('plan.grid_invalid', { 'settings.outerRadiusUm': ['plan.outer_radius_too_small'] });
  }
  const luma = await displayLuma(ctx, actor, treatmentId);
  return saveStep(ctx, actor, treatmentId, 'plan.macula_grid_saved', input.revision, { index: STEP_INDEX.pre_macula_grid_pattern, key: 'plan.zones_first' }, (loaded) => {
    const { plan, row } = loaded;
    const { field } = loaded;
    const laidOut = gridOf(plan, field, settings);
    assertKnownSpots(laidOut, input.disabledSpotIds);
    const disabled = new Set(input.disabledSpotIds ?? []);
    const spots = laidOut.map((spot) => ({ ...spot, enabled: !disabled.has(spot.id) }));
    if (!enabledCount(spots)) throw geometryInvalid('plan.grid_invalid', { disabledSpotIds: ['plan.no_spots'] });
    const proposal = powered({ ...plan, gridSettings: settings }, spots, luma, keptBounds(plan.brightness), doseOf(row), clinicalLimitsOf());
    const next: StoredPlan = { ...plan, gridSettings: settings, spots: proposal.spots, brightness: proposal.model };
    // The proposal's powers are checked when the brightness step confirms them.
    assertValid(loaded, next, null, null);
    return {
      plan: next,
      step: 'pre_brightness',
      action: 'macula_grid_saved',
      details: { settings, spots: spots.length, removed: disabled.size, reset: resetBy(row, STEP_INDEX.macula_grid_pattern) },
      columns: { total_spots: enabledCount(spots), brightness: proposal.model.medianBrightness, spot_size_um: settings.spotSizeUm, spot_spacing: settings.spacing },
    };
  });
}

/** Wizard step 3: the powers from the brightness, with the bounds given or kept; moves on to sign-off. */
export async function saveBrightness(ctx: AppContext, actor: Actor, treatmentId: string, input: BrightnessInput): Promise<Plan> {
  const luma = await displayLuma(ctx, actor, treatmentId);
  return saveStep(ctx, actor, treatmentId, 'plan.brightness_saved', input.revision, { index: STEP_INDEX.pre_brightness, key: 'plan.grid_first' }, (loaded) => {
    const { plan, row } = loaded;
    const limits = clinicalLimitsOf();
    const kept = keptBounds(plan.brightness);
    const maxFactor = input.maxFactor ?? kept.maxFactor;
    // Above the titrated power only by a physician's explicit choice, kept with who made it and when.
    const raised = input.maxFactor !== undefined && input.maxFactor > limits.maxPowerFactor;
    if (raised && actor.role !== 'clinic_physicians') {
      throw new HttpError(403, 'plan.above_titration_physician_only', 'plan.above_titration_physician_only', {}, { maxFactor: ['plan.above_titration_physician_only'] });
    }
    const aboveTitration = !(maxFactor > limits.maxPowerFactor) ? null : raised ? { by: { id: actor.userId, name: loaded.actorName }, at: ctx.clock.now().toISOString() } : (plan.brightness?.aboveTitration ?? null);
    const bounds = { minFactor: input.minFactor ?? kept.minFactor, maxFactor, gamma: kept.gamma, aboveTitration };
    const { model, spots } = powered(plan, plan.spots, luma, bounds, doseOf(row), limits);
    const next: StoredPlan = { ...plan, spots, brightness: model };
    assertValid(loaded, next, doseOf(row), { field: input.maxFactor === undefined ? 'minFactor' : 'maxFactor', key: 'plan.power_out_of_limits_bounds' });
    return {
      plan: next,
      step: 'confirm_sign_off',
      action: 'brightness_saved',
      details: {
        median: model.medianBrightness,
        minFactor: model.minFactor,
        maxFactor: model.maxFactor,
        excludedSpots: model.excludedSpots ?? 0,
        aboveTitration: model.aboveTitration?.by.name ?? null,
        reset: resetBy(row, STEP_INDEX.brightness),
      },
      columns: { brightness: model.medianBrightness, total_spots: enabledCount(spots) },
    };
  });
}

/** Wizard step 4: laser dose, pulse, mode and removed spots; powers from the confirmed factors. */
export async function saveFinalAdjustments(ctx: AppContext, actor: Actor, treatmentId: string, input: FinalAdjustmentsInput): Promise<Plan> {
  return saveStep(ctx, actor, treatmentId, 'plan.final_adjustments_saved', input.revision, { index: STEP_INDEX.confirm_sign_off, key: 'plan.brightness_first', exactly: true }, async (loaded) => {
    const { plan, row } = loaded;
    const dose = input.laserDose ?? doseOf(row);
    let spots = plan.spots;
    if (input.disabledSpotIds) {
      assertKnownSpots(spots, input.disabledSpotIds);
      const disabled = new Set(input.disabledSpotIds);
      spots = spots.map((spot) => ({ ...spot, enabled: !disabled.has(spot.id) }));
      if (!enabledCount(spots)) throw geometryInvalid('plan.grid_invalid', { disabledSpotIds: ['plan.no_spots'] });
    }
    if (dose !== null) spots = withDose(spots, dose);
    const next: StoredPlan = { ...plan, spots };
    const { laserDose, pulseDurationMs, laserMode, dutyCyclePercent } = laserSettingsOf(row);
    const before = { laserDose, pulseDurationMs, laserMode, dutyCyclePercent, treatmentDeviceId: row.treatment_device_id };
    const mode = input.laserMode ?? before.laserMode;
    const after = {
      laserDose: dose,
      pulseDurationMs: input.pulseDurationMs ?? before.pulseDurationMs,
      laserMode: mode,
      // A duty cycle belongs to micropulse; continuous mode has none.
      dutyCyclePercent: mode === 'micropulse' ? (input.dutyCyclePercent !== undefined ? input.dutyCyclePercent : before.dutyCyclePercent) : null,
      treatmentDeviceId: input.treatmentDeviceId ?? before.treatmentDeviceId,
    };
    const columns = {
      laser_dose: after.laserDose,
      pulse_duration_ms: after.pulseDurationMs,
      laser_mode: after.laserMode,
      duty_cycle_percent: after.dutyCyclePercent,
      treatment_device_id: after.treatmentDeviceId,
    };
    let context = loaded.context;
    if (input.treatmentDeviceId) {
      const device = await treatmentDeviceOf(loaded.tx, { clinic_id: row.clinic_id, device_id: null, treatment_device_id: input.treatmentDeviceId });
      if (!device?.laserProfile) throw new HttpError(422, 'plan.device_unknown', 'plan.device_unknown', {}, { treatmentDeviceId: ['plan.device_unknown'] });
      context = { ...context, profile: device.laserProfile };
    }
    assertValid({ ...loaded, context }, next, dose, { field: 'laserDose', key: 'plan.power_out_of_limits_dose', params: { dose: dose ?? 0 } }, columns);
    return {
      plan: next,
      step: 'confirm_sign_off',
      action: 'final_adjustments_saved',
      details: {
        before,
        after,
        removedBefore: plan.spots.filter((spot) => !spot.enabled).length,
        removedAfter: spots.filter((spot) => !spot.enabled).length,
        reset: [],
      },
      columns: { ...columns, total_spots: enabledCount(spots) },
    };
  });
}
