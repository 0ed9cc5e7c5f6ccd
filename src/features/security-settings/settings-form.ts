import { z } from 'zod';
import { PasswordStrength } from '@generated/model/passwordStrength';
import { Period } from '@generated/model/period';
import type { SecuritySettings } from '@generated/model/securitySettings';
import { SecuritySettingsTwoFactorRolesItem } from '@generated/model/securitySettingsTwoFactorRolesItem';
import { SettingsScope } from '@generated/model/settingsScope';
import { updateClinicSettingsBodyLogoutTimeIntervalMax, updateClinicSettingsBodyUsersMax } from '@generated/zod/clinic/clinic.zod';
import { IDLE_LOGOUT_BOUNDS, RENEWAL_BOUNDS, withinBounds } from '@/domain/security/setting-bounds';

/** The contract's limit for remembering a device (days). */
export const REMEMBER_DEVICE_DAYS_MAX = 30;

/** An interval as typed: a whole number from 1 to the contract's maximum (1000), else "Please enter a valid number". */
const interval = z
  .string()
  .trim()
  .regex(/^\d{1,4}$/, 'invalidNumber')
  .refine((text) => Number(text) >= 1 && Number(text) <= updateClinicSettingsBodyLogoutTimeIntervalMax, 'invalidNumber');

/**
 * /admin/security-settings as a form: each interval with a switch (off = null in the contract) and its text as
 * typed, the users the password rules apply to with `several`. An interval that is switched off is not checked.
 */
export const settingsFormSchema = z
  .object({
    strength: z.enum(PasswordStrength),
    renewalOn: z.boolean(),
    renewalInterval: z.string(),
    renewalPeriod: z.enum(Period),
    scope: z.enum(SettingsScope),
    users: z.array(z.string()).max(updateClinicSettingsBodyUsersMax),
    logoutOn: z.boolean(),
    logoutInterval: z.string(),
    logoutPeriod: z.enum(Period),
    twoFactorRoles: z.array(z.enum(SecuritySettingsTwoFactorRolesItem)),
    rememberDeviceDays: z
      .string()
      .trim()
      .refine((text) => /^\d{1,2}$/.test(text) && Number(text) <= REMEMBER_DEVICE_DAYS_MAX, 'invalidNumber'),
  })
  .superRefine((values, context) => {
    for (const [on, name, period, bounds, outOfBounds] of [
      [values.renewalOn, 'renewalInterval', values.renewalPeriod, RENEWAL_BOUNDS, 'renewalOutOfBounds'],
      [values.logoutOn, 'logoutInterval', values.logoutPeriod, IDLE_LOGOUT_BOUNDS, 'idleLogoutOutOfBounds'],
    ] as const) {
      if (!on) continue;
      if (!interval.safeParse(values[name]).success) context.addIssue({ code: 'custom', path: [name], message: 'invalidNumber' });
      // The bounds the server keeps (issue 27): no renewal in minutes, no idle logout of years.
      else if (!withinBounds(Number(values[name].trim()), period, bounds)) context.addIssue({ code: 'custom', path: [name], message: outOfBounds });
    }
    if (values.scope === SettingsScope.several && values.users.length === 0) {
      context.addIssue({ code: 'custom', path: ['users'], message: 'required' });
    }
  });
export type SettingsFormValues = z.infer<typeof settingsFormSchema>;

/** Server field names → the form's (a 422 names the contract's fields). */
export const SERVER_FIELDS = {
  password_renewal_interval: 'renewalInterval',
  logout_time_interval: 'logoutInterval',
  users: 'users',
  remember_device_days: 'rememberDeviceDays',
} as const;

/**
 * The settings a clinic starts with (the server's table defaults and DEFAULT_POLICY): standard strength, no
 * renewal, all users, no idle sign-out, no two-factor requirement, no remembered computers.
 */
export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  password_strength: PasswordStrength.standard,
  password_renewal_interval: null,
  password_renewal_period: Period.months,
  user: SettingsScope.all,
  logout_time_interval: null,
  logout_time_period: Period.minutes,
  two_factor_roles: [],
  remember_device_days: 0,
};

export function settingsFormOf(settings: SecuritySettings): SettingsFormValues {
  return {
    strength: settings.password_strength,
    renewalOn: settings.password_renewal_interval !== null,
    renewalInterval: String(settings.password_renewal_interval ?? 6),
    renewalPeriod: settings.password_renewal_period,
    scope: settings.user,
    users: settings.users ?? [],
    logoutOn: settings.logout_time_interval !== null,
    logoutInterval: String(settings.logout_time_interval ?? 30),
    logoutPeriod: settings.logout_time_period,
    twoFactorRoles: settings.two_factor_roles ?? [],
    rememberDeviceDays: String(settings.remember_device_days ?? 0),
  };
}

export function settingsOf(values: SettingsFormValues): SecuritySettings {
  return {
    password_strength: values.strength,
    password_renewal_interval: values.renewalOn ? Number(values.renewalInterval.trim()) : null,
    password_renewal_period: values.renewalPeriod,
    user: values.scope,
    ...(values.scope === SettingsScope.several && { users: values.users }),
    logout_time_interval: values.logoutOn ? Number(values.logoutInterval.trim()) : null,
    logout_time_period: values.logoutPeriod,
    two_factor_roles: values.twoFactorRoles,
    remember_device_days: Number(values.rememberDeviceDays.trim()),
  };
}
