// The queries of a plan's audit trail (plan_changes): an entry written in the transaction of the change it
// records, the trail of a session, and who changed the plan last. The sentences are services/plan-audit.ts.
import type { PlanAuditAction } from '../../generated/model/planAuditAction';
import type { Queryable } from '../db/tables';

export interface NewPlanChange {
  treatmentId: string;
  at: Date;
  by: { id: string; name: string } | null;
  action: PlanAuditAction;
  step: string;
  revision: number;
  details: Record<string, unknown>;
}

/** One entry of a plan's trail, written in the transaction of the change it records. */
export async function insertPlanChange(db: Queryable, change: NewPlanChange): Promise<void> {
  await db
    .insertInto('plan_changes')
    .values({
      treatment_id: change.treatmentId,
      at: change.at,
      user_id: change.by?.id ?? null,
      user_name: change.by?.name ?? null,
      action: change.action,
      step: change.step,
      revision: change.revision,
      details: JSON.stringify(change.details),
    })
    .execute();
}

/** The trail of one session, oldest first. */
export function planChangeRows(db: Queryable, treatmentId: string) {
  return db.selectFrom('plan_changes').selectAll().where('treatment_id', '=', treatmentId).orderBy('revision').orderBy('at').orderBy('seq').execute();
}

/** The last person to change the plan (the system's changes name nobody); undefined when no one has. */
export async function lastPlanEditor(db: Queryable, treatmentId: string): Promise<string | null | undefined> {
  const last = await db
    .selectFrom('plan_changes')
    .select('user_id')
    .where('treatment_id', '=', treatmentId)
    .where('user_id', 'is not', null)
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.user_id;
}
