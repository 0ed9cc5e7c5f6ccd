// The clinic's security policy as it applies to one user: password strength, renewal and idle logout.
import type { Queryable, SecuritySettingsRow } from '../db/tables';
import { findSecuritySettings, settingsNameUser } from '../repositories/clinic';
import { periodMs } from '../../src/domain/security/setting-bounds';

export type PasswordStrength = 'simplified' | 'standard' | 'advanced';

export interface UserPolicy {
  strength: PasswordStrength;
  /** Password lifetime in ms, or null when renewal is off for this user. */
  renewalMs: number | null;
  /** Idle time before sign-out in ms, or null when idle logout is off. */
  idleMs: number | null;
  /** A password the renewal rules made overdue when they last changed may be used until then (null: no grace). */
  graceUntil: Date | null;
  /** Roles that must sign in with a second factor (the whole clinic's, whatever the password rules' scope). */
  twoFactorRoles: readonly string[];
  /** Days a browser may skip the second step; 0 allows none. */
  rememberDeviceDays: number;
}

export const DEFAULT_POLICY: UserPolicy = {
  strength: 'standard',
  renewalMs: null,
  idleMs: null,
  graceUntil: null,
  twoFactorRoles: [],
  rememberDeviceDays: 0,
};

/** Must a user of this role sign in with a second factor? */
export const twoFactorRequired = (policy: UserPolicy, role: string): boolean => policy.twoFactorRoles.includes(role);

/**
 * How long a password that a change of the renewal rules made overdue still works: a week, so that a clinic
 * tightening its rules does not expire everyone's password (the IT admin's too) at once (issue 27, defect 9).
 */
export const RENEWAL_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** The columns of a clinic's security settings the policy is made of. */
export type PolicySettings = Pick<
  SecuritySettingsRow,
  | 'user_scope'
  | 'password_strength'
  | 'password_renewal_interval'
  | 'password_renewal_period'
  | 'logout_time_interval'
  | 'logout_time_period'
  | 'renewal_changed_at'
  | 'two_factor_roles'
  | 'remember_device_days'
>;

/**
 * The policy for a user from the clinic's settings (none: the defaults); `listed` tells whether the user is
 * among the users the settings name (scope `selected`).
 */
export function policyOf(settings: PolicySettings | null, listed: boolean): UserPolicy {
  if (!settings) return DEFAULT_POLICY;
  const clinicWide = {
    idleMs: periodMs(settings.logout_time_interval, settings.logout_time_period),
    twoFactorRoles: settings.two_factor_roles,
    rememberDeviceDays: settings.remember_device_days,
  };
  if (settings.user_scope !== 'all' && !listed) return { ...DEFAULT_POLICY, ...clinicWide };
  const changedAt = settings.renewal_changed_at;
  return {
    ...clinicWide,
    strength: settings.password_strength as PasswordStrength,
    renewalMs: periodMs(settings.password_renewal_interval, settings.password_renewal_period),
    graceUntil: changedAt ? new Date(changedAt.getTime() + RENEWAL_GRACE_MS) : null,
  };
}

export async function policyFor(db: Queryable, clinicId: string, userId: string | null): Promise<UserPolicy> {
  const settings = await findSecuritySettings(db, clinicId);
  if (!settings || settings.user_scope === 'all' || !userId) return policyOf(settings ?? null, false);
  return policyOf(settings, await settingsNameUser(db, clinicId, userId));
}

/** When the password must be renewed next, or null: its age under the rules, but not before their grace period ends. */
export function nextPasswordChange(changedAt: Date | null, policy: UserPolicy): Date | null {
  if (policy.renewalMs === null || !changedAt) return null;
  const due = changedAt.getTime() + policy.renewalMs;
  return new Date(policy.graceUntil ? Math.max(due, policy.graceUntil.getTime()) : due);
}

/** Why the user must set a new password before anything else, or null: an IT admin's forced reset, or its age. */
export function passwordChangeReason(mustChange: boolean, changedAt: Date | null, policy: UserPolicy, now: Date): 'forced' | 'expired' | null {
  if (mustChange) return 'forced';
  const renewBy = nextPasswordChange(changedAt, policy);
  return renewBy && renewBy <= now ? 'expired' : null;
}
