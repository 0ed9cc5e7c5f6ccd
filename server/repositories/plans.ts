// The queries of planning: the image a plan lies on, the plan and its step as stored, the devices a plan is held
// to, and the plan status as SQL. Each takes the database or the transaction its service opened; the rules are
// in the services (plan-steps, parameter-set, clinical-safety, plan-status). The session row a plan change holds
// FOR UPDATE is repositories/treatments.ts; the plan's audit trail repositories/plan-changes.ts.
import { sql, type RawBuilder, type Updateable } from 'kysely';
import type { PlanStatus } from '../../generated/model/planStatus';
import type { LaserProfile } from '../../src/domain/planning/clinical-limits';
import type { Queryable, StoredPlan, TreatmentsTable } from '../db/tables';
import { NO_PLAN, PLAN_STATUS_OTHERWISE, PLAN_STATUS_RULES } from '../services/plan-status';

// ---- The session of a plan ------------------------------------------------------------------------------

/** Where a session's plan stands, locked for the rest of the transaction. */
export function lockPlanProgress(tx: Queryable, treatmentId: string) {
  return tx.selectFrom('treatments').select(['step_index', 'plan_revision']).where('id', '=', treatmentId).forUpdate().executeTakeFirst();
}

/** A change of the stored plan with the session's columns that go with it (step, revision, laser settings, …). */
export type PlanUpdate = Omit<Updateable<TreatmentsTable>, 'plan'> & { plan: StoredPlan };

export async function updatePlan(db: Queryable, treatmentId: string, change: PlanUpdate): Promise<void> {
  await db
    .updateTable('treatments')
    .set({ ...change, plan: JSON.stringify(change.plan) })
    .where('id', '=', treatmentId)
    .execute();
}

// ---- The image a plan lies on ---------------------------------------------------------------------------

/**
 * The image a plan lies on: the session's first image (by role, then entry), its display file (whose brightness
 * sets the powers) and size (where spots may lie for a plan proposed before its imaged field was kept).
 */
export function planImage(db: Queryable, clinicId: string, treatmentId: string) {
  return db
    .selectFrom('treatment_images')
    .select(['display_path', 'width', 'height'])
    .where('clinic_id', '=', clinicId)
    .where('treatment_id', '=', treatmentId)
    .orderBy('role')
    .orderBy('entry')
    .executeTakeFirst();
}

// ---- The devices a plan is held to ----------------------------------------------------------------------

export interface TreatmentDeviceRow {
  id: string;
  device_id: string;
  description: string | null;
  laser_profile: LaserProfile | null;
  /** Its sync app holds a credential (issue 29): a parameter set can be sent to it. */
  enrolled: boolean;
}

const enrolledSql = sql<boolean>`credential_hash is not null`.as('enrolled');

/** One of the clinic's devices, by its id or by the id the device itself reports (the oldest of that id). */
export function treatmentDeviceRow(db: Queryable, clinicId: string, by: { id: string } | { deviceId: string }): Promise<TreatmentDeviceRow | undefined> {
  let query = db.selectFrom('devices').select(['id', 'device_id', 'description', 'laser_profile', enrolledSql]).where('clinic_id', '=', clinicId);
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('device_id', '=', by.deviceId);
  return query.orderBy('created_at').limit(1).executeTakeFirst();
}

/** The clinic's devices with a laser profile, by device id. */
export function laserDeviceRows(db: Queryable, clinicId: string): Promise<TreatmentDeviceRow[]> {
  return db
    .selectFrom('devices')
    .select(['id', 'device_id', 'description', 'laser_profile', enrolledSql])
    .where('clinic_id', '=', clinicId)
    .where('laser_profile', 'is not', null)
    .orderBy('device_id')
    .orderBy('id')
    .execute();
}

// ---- The plan status ------------------------------------------------------------------------------------

/**
 * The plan status (services/plan-status.ts) as SQL over a joined treatment row `alias` (its `id` null when the
 * patient has no treatment: no_plan_available), from the same rule list as planStatusOf.
 */
export function planStatusSql(alias: string): RawBuilder<PlanStatus> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const whens = PLAN_STATUS_RULES.map((rule) => sql`when ${column(rule.column)} = ${sql.lit(rule.equals)} then ${sql.lit(rule.status)}`);
  return sql<PlanStatus>`(case when ${column('id')} is null then ${sql.lit(NO_PLAN)} ${sql.join(whens, sql` `)} else ${sql.lit(PLAN_STATUS_OTHERWISE)} end)`;
}
