// The plan status of a treatment (session), derived from its processing state, plan step and lock.
// One ordered rule list serves both the pure function (mapping rows) and the SQL expression (filtering
// and sorting lists in the database), so the two can never disagree.
import { sql, type RawBuilder } from 'kysely';
import type { PlanStatus } from '../../generated/model/planStatus';

/** The columns of a treatment row the plan status depends on. */
export interface PlanState {
  step: string;
  processing_state: string;
  locked: boolean;
}

type Rule = { column: keyof PlanState; equals: string | boolean; status: PlanStatus };

// First match wins.
const RULES: readonly Rule[] = [
  { column: 'locked', equals: true, status: 'issue_reported' },
  { column: 'processing_state', equals: 'file_uploaded', status: 'file_uploaded' },
  { column: 'processing_state', equals: 'processing', status: 'processing' },
  { column: 'processing_state', equals: 'failed', status: 'no_plan_available' },
  { column: 'step', equals: 'available', status: 'plan_available' },
  { column: 'step', equals: 'npt_packing', status: 'processing' },
];
const OTHERWISE: PlanStatus = 'planning';

/** Without any treatment there is no plan. */
export const NO_PLAN: PlanStatus = 'no_plan_available';

export function planStatusOf(treatment: PlanState): PlanStatus {
  for (const rule of RULES) if (treatment[rule.column] === rule.equals) return rule.status;
  return OTHERWISE;
}

/** `in_planning` is another spelling of `planning` (filters accept both; answers use `planning`). */
export const canonicalPlanStatus = (status: PlanStatus): PlanStatus => (status === 'in_planning' ? 'planning' : status);

/**
 * The same derivation as SQL over a joined treatment row `alias` (its `id` null when the patient has no
 * treatment: no_plan_available).
 */
export function planStatusSql(alias: string): RawBuilder<PlanStatus> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const whens = RULES.map((rule) => sql`when ${column(rule.column)} = ${sql.lit(rule.equals)} then ${sql.lit(rule.status)}`);
  return sql<PlanStatus>`(case when ${column('id')} is null then ${sql.lit(NO_PLAN)} ${sql.join(whens, sql` `)} else ${sql.lit(OTHERWISE)} end)`;
}
