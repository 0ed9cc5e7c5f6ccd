// The clinic's security policy as it applies to one user: password strength, renewal and idle logout.
import type { Database } from '../db/tables';
import { periodMs } from './periods';

export type PasswordStrength = 'simplified' | 'standard' | 'advanced';

export interface UserPolicy {
  strength: PasswordStrength;
  /** Password lifetime in ms, or null when renewal is off for this user. */
  renewalMs: number | null;
  /** Idle time before sign-out in ms, or null when idle logout is off. */
  idleMs: number | null;
}

export const DEFAULT_POLICY: UserPolicy = { strength: 'standard', renewalMs: null, idleMs: null };

export async function policyFor(db: Database, clinicId: string, userId: string | null): Promise<UserPolicy> {
  const settings = await db
    .selectFrom('security_settings')
    .selectAll()
    .where('clinic_id', '=', clinicId)
    .executeTakeFirst();
  if (!settings) return DEFAULT_POLICY;
  const idleMs = periodMs(settings.logout_time_interval, settings.logout_time_period);
  let applies = settings.user_scope === 'all';
  if (!applies && userId) {
    applies = !!(await db
      .selectFrom('security_settings_users')
      .select('user_id')
      .where('clinic_id', '=', clinicId)
      .where('user_id', '=', userId)
      .executeTakeFirst());
  }
  if (!applies) return { ...DEFAULT_POLICY, idleMs };
  return {
    strength: settings.password_strength as PasswordStrength,
    renewalMs: periodMs(settings.password_renewal_interval, settings.password_renewal_period),
    idleMs,
  };
}

/** When the password must be renewed next, or null. */
export function nextPasswordChange(changedAt: Date | null, policy: UserPolicy): Date | null {
  if (policy.renewalMs === null || !changedAt) return null;
  return new Date(changedAt.getTime() + policy.renewalMs);
}
