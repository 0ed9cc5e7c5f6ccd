// What a plan is held to beyond what was drawn (docs/clinical-limits.md): the clinic's clinical limits and the
// laser profile of the device that will treat the session. The device is the one chosen in the final
// adjustments, else the clinic's device the exam came from; without a profile the plan cannot be signed off.
import type { PlanSafety } from '../../generated/model/planSafety';
import { DEFAULT_CLINICAL_LIMITS, type ClinicalLimits, type LaserProfile } from '../../src/domain/planning/clinical-limits';
import type { PlanCheckContext, PlanLaser } from '../../src/domain/planning/plan-invariants';
import type { ImagedField } from '../../src/domain/planning/macula-grid';
import type { Database, StoredPlan, Tables, TreatmentRow } from '../db/tables';
import type { Transaction } from 'kysely';
import { laserSettingsOf } from './treatments';

type Db = Database | Transaction<Tables>;

export interface TreatmentDevice {
  id: string;
  deviceId: string;
  description: string | null;
  laserProfile: LaserProfile | null;
}

/** The clinic's limits. Clinics keep the protocols' figures until a setting for stricter ones exists. */
export function clinicalLimitsOf(): ClinicalLimits {
  return DEFAULT_CLINICAL_LIMITS;
}

/** The device that will treat the session: the one chosen, else the clinic's device the exam came from. */
export async function treatmentDeviceOf(db: Db, row: Pick<TreatmentRow, 'clinic_id' | 'device_id' | 'treatment_device_id'>): Promise<TreatmentDevice | null> {
  let query = db.selectFrom('devices').select(['id', 'device_id', 'description', 'laser_profile']).where('clinic_id', '=', row.clinic_id);
  // Stryker disable next-line ConditionalExpression: a shortcut; without either device `device_id = null` finds no row.
  if (!row.treatment_device_id && !row.device_id) return null;
  query = row.treatment_device_id ? query.where('id', '=', row.treatment_device_id) : query.where('device_id', '=', row.device_id);
  const device = await query.orderBy('created_at').limit(1).executeTakeFirst();
  return device ? { id: device.id, deviceId: device.device_id, description: device.description, laserProfile: device.laser_profile } : null;
}

/** The clinic's devices that can treat (those with a laser profile), by device id. */
export async function treatmentDevicesOf(db: Db, clinicId: string): Promise<TreatmentDevice[]> {
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'device_id', 'description', 'laser_profile'])
    .where('clinic_id', '=', clinicId)
    .where('laser_profile', 'is not', null)
    .orderBy('device_id')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, deviceId: row.device_id, description: row.description, laserProfile: row.laser_profile }));
}

/** The contract's PlanSafety of a session. */
export async function planSafetyOf(db: Db, row: TreatmentRow): Promise<PlanSafety> {
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
export async function checkContextOf(db: Db, row: TreatmentRow, field: ImagedField): Promise<Pick<PlanCheckContext, 'field' | 'clinical' | 'profile'>> {
  const device = await treatmentDeviceOf(db, row);
  return { field, clinical: clinicalLimitsOf(), profile: device?.laserProfile ?? null };
}
