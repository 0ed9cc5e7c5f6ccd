// The clinic's usage per month (UTC) and laser system, for billing: exams uploaded, plans signed off and
// parameter sets produced.
import type { BillingUsage } from '../../generated/model/billingUsage';
import type { BillingUsageRow } from '../../generated/model/billingUsageRow';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { invalid } from '../http/errors';
import * as clinic from '../repositories/clinic';

/** The longest billing range one request may ask for. */
export const BILLING_MAX_MONTHS = 36;

/** `YYYY-MM` → the month's index since year 0 (the contract's pattern has checked the form). */
const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthStart = (index: number) => new Date(Date.UTC(Math.floor(index / 12), index % 12, 1));

/**
 * Usage per month and laser system from `from` to `to` (months, both included; 422 when reversed or longer than
 * BILLING_MAX_MONTHS): exams uploaded are the clinic's sessions by their creation, plans signed off and
 * parameter sets produced are the plan changes `signed_off` and `parameter_set_packed` (a plan signed off again
 * after a failed packing counts twice: the physician did sign it twice).
 */
export async function billingUsage(ctx: AppContext, actor: Actor, from: string, to: string): Promise<BillingUsage> {
  const span = monthIndex(to) - monthIndex(from) + 1;
  if (span < 1) throw invalid({ to: ['billing.range_reversed'] });
  if (span > BILLING_MAX_MONTHS) throw invalid({ to: ['billing.range_too_long'] });
  const start = monthStart(monthIndex(from));
  const end = monthStart(monthIndex(to) + 1);
  const exams = await clinic.examsPerMonth(ctx.db, actor.clinicId, start, end);
  const changes = await clinic.planChangesPerMonth(ctx.db, actor.clinicId, ['signed_off', 'parameter_set_packed'], start, end);

  const rows = new Map<string, BillingUsageRow>();
  const rowOf = (m: string, deviceId: string | null) => {
    const key = `${m}\u0000${deviceId ?? ''}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { month: m, deviceId, examsUploaded: 0, plansSignedOff: 0, parameterSetsProduced: 0 }));
    return row;
  };
  for (const e of exams) rowOf(e.month, e.device_id).examsUploaded += Number(e.n);
  for (const c of changes) {
    const row = rowOf(c.month, c.device_id);
    if (c.action === 'signed_off') row.plansSignedOff += Number(c.n);
    else row.parameterSetsProduced += Number(c.n);
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      a.month.localeCompare(b.month) ||
      (a.deviceId === b.deviceId ? 0 : a.deviceId === null ? 1 : b.deviceId === null ? -1 : a.deviceId.localeCompare(b.deviceId)),
  );
  const totals = { examsUploaded: 0, plansSignedOff: 0, parameterSetsProduced: 0 };
  for (const row of sorted) {
    totals.examsUploaded += row.examsUploaded;
    totals.plansSignedOff += row.plansSignedOff;
    totals.parameterSetsProduced += row.parameterSetsProduced;
  }
  return { from, to, rows: sorted, totals };
}
