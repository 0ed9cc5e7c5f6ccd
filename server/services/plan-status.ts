// The plan status of a treatment (session), derived from its processing state, plan step and lock.
// One ordered rule list serves both the pure function (mapping rows) and the SQL expression (filtering
// and sorting lists in the database, repositories/plans.ts planStatusSql), so the two can never disagree.
import type { PlanStatus } from '../../generated/model/planStatus';

/** The columns of a treatment row the plan status depends on. */
export interface PlanState {
  step: string;
  processing_state: string;
  locked: boolean;
}

export type PlanStatusRule = { column: keyof PlanState; equals: string | boolean; status: PlanStatus };

// First match wins.
export const PLAN_STATUS_RULES: readonly PlanStatusRule[] = [
  { column: 'locked', equals: true, status: 'issue_reported' },
  { column: 'processing_state', equals: 'file_uploaded', status: 'file_uploaded' },
  { column: 'processing_state', equals: 'processing', status: 'processing' },
  { column: 'processing_state', equals: 'failed', status: 'no_plan_available' },
  { column: 'step', equals: 'available', status: 'plan_available' },
  { column: 'step', equals: 'npt_packing', status: 'processing' },
];
export const PLAN_STATUS_OTHERWISE: PlanStatus = 'planning';

/** Without any treatment there is no plan. */
export const NO_PLAN: PlanStatus = 'no_plan_available';

export function planStatusOf(treatment: PlanState): PlanStatus {
  for (const rule of PLAN_STATUS_RULES) if (treatment[rule.column] === rule.equals) return rule.status;
  return PLAN_STATUS_OTHERWISE;
}

/** `in_planning` is another spelling of `planning` (filters accept both; answers use `planning`). */
export const canonicalPlanStatus = (status: PlanStatus): PlanStatus => (status === 'in_planning' ? 'planning' : status);

