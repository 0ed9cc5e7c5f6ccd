// The clinic's security policy as it applies to one user: password strength, renewal and idle logout.
import type { Database, SecuritySettingsRow } from '../db/tables';
import { periodMs } from '../../src/domain/security/setting-bounds';

export type PasswordStrength = 'simplified' | 'standard' | 'advanced';

export interface UserPolicy {
  strength: PasswordStrength;
  /** Password lifetime in ms, or null when renewal is off for this user. */
  renewalMs: number | null;
  /** Idle time before sign-out in ms, or null when idle logout is off. */
  idleMs: number | null;
}

export const DEFAULT_POLICY: UserPolicy = { strength: 'standard', renewalMs: null, idleMs: null };

/** The columns of a clinic's security settings the policy is made of. */
export type PolicySettings = Pick<
  SecuritySettingsRow,
  | 'user_scope'
  | 'password_strength'
  | 'password_renewal_interval'
  | 'password_renewal_period'
  | 'logout_time_interval'
  | 'logout_time_period'
>;

/**
 * The policy for a user from the clinic's settings (none: the defaults); `listed` tells whether the user is
 * among the users the settings name (scope `selected`).
 */
export function policyOf(settings: PolicySettings | null, listed: boolean): UserPolicy {
  if (!settings) return DEFAULT_POLICY;
  const idleMs = periodMs(settings.logout_time_interval, settings.logout_time_period);
  if (settings.user_scope !== 'all' && !listed) return { ...DEFAULT_POLICY, idleMs };
  return {
    strength: settings.password_strength as PasswordStrength,
    renewalMs: periodMs(settings.password_renewal_interval, settings.password_renewal_period),
    idleMs,
  };
}

export async function policyFor(db: Database, clinicId: string, userId: string | null): Promise<UserPolicy> {
  const settings = await db
    .selectFrom('security_settings')
    .selectAll()
    .where('clinic_id', '=', clinicId)
    .executeTakeFirst();
  if (!settings || settings.user_scope === 'all' || !userId) return policyOf(settings ?? null, false);
  const listed = await db
    .selectFrom('security_settings_users')
    .select('user_id')
    .where('clinic_id', '=', clinicId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return policyOf(settings, Boolean(listed));
}

/** When the password must be renewed next, or null. */
export function nextPasswordChange(changedAt: Date | null, policy: UserPolicy): Date | null {
  if (policy.renewalMs === null || !changedAt) return null;
  return new Date(changedAt.getTime() + policy.renewalMs);
}
