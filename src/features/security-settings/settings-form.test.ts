import { describe, expect, it } from 'vitest';
import type { SecuritySettings } from '@generated/model/securitySettings';
import { settingsFormOf, settingsFormSchema, settingsOf } from './settings-form';

const demo: SecuritySettings = {
  password_strength: 'standard',
  password_renewal_interval: null,
  password_renewal_period: 'months',
  user: 'all',
  logout_time_interval: 30,
  logout_time_period: 'minutes',
  two_factor_roles: [],
  remember_device_days: 0,
};

describe('security settings form', () => {
  it('gives back the settings it was made of', () => {
    expect(settingsOf(settingsFormOf(demo))).toEqual(demo);
    const several: SecuritySettings = { ...demo, password_strength: 'advanced', password_renewal_interval: 3, user: 'several', users: ['a', 'b'], logout_time_interval: null };
    expect(settingsOf(settingsFormOf(several))).toEqual(several);
    const twoFactor: SecuritySettings = { ...demo, two_factor_roles: ['clinic_physicians', 'clinic_it_admins'], remember_device_days: 30 };
    expect(settingsOf(settingsFormOf(twoFactor))).toEqual(twoFactor);
  });

  it('remembers a device for 0 to 30 whole days', () => {
    const form = settingsFormOf(demo);
    for (const bad of ['31', '-1', '1.5', '', 'x']) {
      expect(settingsFormSchema.safeParse({ ...form, rememberDeviceDays: bad }).error?.issues.map((issue) => issue.path[0])).toEqual(['rememberDeviceDays']);
    }
    expect(settingsOf({ ...form, rememberDeviceDays: ' 7 ' }).remember_device_days).toBe(7);
  });

  it('checks an interval only while it is switched on: whole numbers from 1 to 1000', () => {
    const form = settingsFormOf(demo);
    for (const bad of ['0', '1001', '2.5', '-1', '', 'ten']) {
      const result = settingsFormSchema.safeParse({ ...form, logoutInterval: bad });
      expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([['logoutInterval', 'invalidNumber']]);
      expect(settingsFormSchema.safeParse({ ...form, logoutOn: false, logoutInterval: bad }).success).toBe(true);
    }
    expect(settingsOf({ ...form, renewalOn: true, renewalInterval: ' 12 ' }).password_renewal_interval).toBe(12);
  });

  it('asks for at least one user when the rules apply to several', () => {
    const result = settingsFormSchema.safeParse({ ...settingsFormOf(demo), scope: 'several', users: [] });
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([['users', 'required']]);
    expect(settingsOf({ ...settingsFormOf(demo), scope: 'all', users: ['a'] })).not.toHaveProperty('users');
  });
});
