// What a plan is held to beyond what was drawn (docs/clinical-limits.md): the clinic's clinical limits and the
// laser profile of the device that will treat the session. The device is the one chosen in the final
// adjustments, else the clinic's device the exam came from; without a profile the plan cannot be signed off.
import type { PlanSafety } from '../../generated/model/planSafety';
import { DEFAULT_CLINICAL_LIMITS, type ClinicalLimits, type LaserProfile } from '../../src/domain/planning/clinical-limits';
import type { PlanCheckContext, PlanLaser } from '../../src/domain/planning/plan-invariants';
import type { ImagedField } from '../../src/domain/planning/macula-grid';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { Queryable, StoredPlan, TreatmentRow } from '../db/tables';
import { laserDeviceRows, treatmentDeviceRow, type TreatmentDeviceRow } from '../repositories/plans';
import { findTreatmentRow, laserSettingsOf } from './treatments';

export interface TreatmentDevice {
  id: string;
  deviceId: string;
  description: string | null;
  laserProfile: LaserProfile | null;
  enrolled: boolean;
}

/** The clinic's limits. Clinics keep the protocols' figures until a setting for stricter ones exists. */
export function clinicalLimitsOf(): ClinicalLimits {
  return DEFAULT_CLINICAL_LIMITS;
}

const toTreatmentDevice = (row: TreatmentDeviceRow): TreatmentDevice => ({ id: row.id, deviceId: row.device_id, description: row.description, laserProfile: row.laser_profile, enrolled: row.enrolled });

/** The device that will treat the session: the one chosen, else the clinic's device the exam came from. */
export async function treatmentDeviceOf(db: Queryable, row: Pick<TreatmentRow, 'clinic_id' | 'device_id' | 'treatment_device_id'>): Promise<TreatmentDevice | null> {
  // Stryker disable next-line ConditionalExpression: a shortcut; without either device `device_id = null` finds no row.
  if (!row.treatment_device_id && !row.device_id) return null;
  const device = await treatmentDeviceRow(db, row.clinic_id, row.treatment_device_id ? { id: row.treatment_device_id } : { deviceId: row.device_id! });
  return device ? toTreatmentDevice(device) : null;
}

/** The clinic's devices that can treat (those with a laser profile), by device id. */
export async function treatmentDevicesOf(db: Queryable, clinicId: string): Promise<TreatmentDevice[]> {
  return (await laserDeviceRows(db, clinicId)).map(toTreatmentDevice);
}

/** The contract's PlanSafety of a session. */
export async function planSafetyOf(db: Queryable, row: TreatmentRow): Promise<PlanSafety> {
  return { limits: clinicalLimitsOf(), treatmentDevice: await treatmentDeviceOf(db, row) };
}

/** The session's laser settings as the invariants read them. */
export function planLaserOf(row: TreatmentRow): PlanLaser {
  const laser = laserSettingsOf(row);
  return {
    laserMode: laser.laserMode,
    pulseDurationMs: laser.pulseDurationMs,
    dutyCyclePercent: laser.laserMode === 'micropulse' ? laser.dutyCyclePercent : null,
    spotSizeUm: laser.spotSizeUm,
    spotSpacing: laser.spotSpacing,
  };
}

/** The plan as the invariant check reads it, with the session's eye, dose and laser settings. */
export function checkedPlanOf(plan: StoredPlan, row: TreatmentRow) {
  return {
    ...plan,
    scale: plan.scale!,
    fovea: plan.fovea!,
    exclusionZones: plan.exclusionZones!,
    opticDisc: plan.opticDisc,
    eye: row.eye,
    laserDose: laserSettingsOf(row).laserDose,
    laser: planLaserOf(row),
  };
}

/** The check's context for a session: its clinic's limits and its treating device's profile. */
export async function checkContextOf(db: Queryable, row: TreatmentRow, field: ImagedField): Promise<Pick<PlanCheckContext, 'field' | 'clinical' | 'profile'>> {
  const device = await treatmentDeviceOf(db, row);
  return { field, clinical: clinicalLimitsOf(), profile: device?.laserProfile ?? null };
}

/** The devices that can treat a session: 404 for a session out of the actor's reach, as every read of a session. */
export async function treatmentDevicesForSession(ctx: AppContext, actor: Actor, treatmentId: string): Promise<TreatmentDevice[]> {
  const row = await findTreatmentRow(ctx.db, actor.clinicId, treatmentId);
  return treatmentDevicesOf(ctx.db, row.clinic_id);
}
