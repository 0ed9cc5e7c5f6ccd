// The rules of the clinic's security settings, called as services without HTTP: bounds that keep one setting
// from locking out the clinic, the users a `several` scope may name, the grace new renewal rules give, the
// preview of whom they make overdue, and forced resets that never reach the acting IT admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecuritySettings } from '../../generated/model/securitySettings';
import { createClinic, createUser, sessionFor } from '../../tests/server/fixtures';
import { startServer, testClock, type TestServer } from '../../tests/server/helper';
import { actorFor, auditEntries, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import { RENEWAL_GRACE_MS } from '../security/policy';
import { forcePasswordReset, getSecuritySettings, previewSecuritySettings, stopPasswordRenewal, updateSecuritySettings } from './security-settings';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let clinicId: string;
let admin: Actor;

const DEFAULTS: SecuritySettings = {
  password_strength: 'standard',
  password_renewal_interval: null,
  password_renewal_period: 'days',
  user: 'all',
  logout_time_interval: null,
  logout_time_period: 'minutes',
};

beforeAll(async () => {
  server = await startServer({ clock: testClock(), jobs: false });
  clinicId = await createClinic(server.db);
  admin = actorFor(await createUser(server.db, { clinicId, role: 'clinic_it_admins' }), clinicId, 'clinic_it_admins');
});
afterAll(() => server.close());

/** A clinic of its own with an IT admin, for tests that count its users. */
async function ownClinic(): Promise<Actor> {
  const id = await createClinic(server.db, 'Eigene Klinik');
  return actorFor(await createUser(server.db, { clinicId: id, role: 'clinic_it_admins' }), id, 'clinic_it_admins');
}

describe('bounds', () => {
  it('takes a renewal from 30 days to 3 years and an idle logout from 5 minutes to 12 hours, in their units only', async () => {
    const refused = async (change: Partial<SecuritySettings>) =>
      (await refusal(updateSecuritySettings(server.ctx, admin, { ...DEFAULTS, ...change }))).fields;
    expect(await refused({ password_renewal_interval: 29, password_renewal_period: 'days' })).toEqual({ password_renewal_interval: ['clinic.renewal_out_of_bounds'] });
    expect(await refused({ password_renewal_interval: 4, password_renewal_period: 'years' })).toEqual({ password_renewal_interval: ['clinic.renewal_out_of_bounds'] });
    expect(await refused({ password_renewal_interval: 2000, password_renewal_period: 'hours' })).toEqual({ password_renewal_interval: ['clinic.renewal_out_of_bounds'] });
    expect(await refused({ logout_time_interval: 4, logout_time_period: 'minutes' })).toEqual({ logout_time_interval: ['clinic.idle_logout_out_of_bounds'] });
    expect(await refused({ logout_time_interval: 13, logout_time_period: 'hours' })).toEqual({ logout_time_interval: ['clinic.idle_logout_out_of_bounds'] });
    // Refused settings are not saved.
    expect(await getSecuritySettings(server.ctx, admin)).toMatchObject({ password_renewal_interval: null, logout_time_interval: null });

    const edges = await updateSecuritySettings(server.ctx, admin, {
      ...DEFAULTS,
      password_renewal_interval: 30,
      password_renewal_period: 'days',
      logout_time_interval: 12,
      logout_time_period: 'hours',
    });
    expect(edges).toMatchObject({ password_renewal_interval: 30, logout_time_interval: 12, logout_time_period: 'hours' });
    await updateSecuritySettings(server.ctx, admin, { ...DEFAULTS, password_renewal_interval: 3, password_renewal_period: 'years', logout_time_interval: 5 });
  });
});

describe('whom the settings name', () => {
  it('several needs a list of the clinic’s own users, and gives them back by name', async () => {
    const otherClinic = await createClinic(server.db, 'Andere Klinik');
    const stranger = await createUser(server.db, { clinicId: otherClinic, role: 'clinic_nurses' });
    const zeh = await createUser(server.db, { clinicId, role: 'clinic_nurses', lastName: 'Zeh' });
    const abel = await createUser(server.db, { clinicId, role: 'clinic_nurses', lastName: 'Abel' });
    expect((await refusal(updateSecuritySettings(server.ctx, admin, { ...DEFAULTS, user: 'several', users: [] }))).fields).toEqual({ users: ['validation.required'] });
    expect((await refusal(updateSecuritySettings(server.ctx, admin, { ...DEFAULTS, user: 'several', users: [zeh.id, stranger.id] }))).fields).toEqual({
      users: ['clinic.unknown_users'],
    });
    const saved = await updateSecuritySettings(server.ctx, admin, { ...DEFAULTS, user: 'several', users: [zeh.id, abel.id, zeh.id] });
    expect(saved.users).toEqual([abel.id, zeh.id]);
    const audited = await auditEntries(server.db, 'clinic.settings_update', clinicId);
    expect(audited.at(-1)!.detail).toMatchObject({ user: 'several', users: [zeh.id, abel.id] });
    await updateSecuritySettings(server.ctx, admin, DEFAULTS);
  });
});

describe('password renewal', () => {
  it('the preview counts the active users whose password the rules make overdue, the actor among them, and their grace', async () => {
    const own = await ownClinic();
    const old = new Date(server.clock.now().getTime() - 100 * DAY);
    await server.db.updateTable('users').set({ password_changed_at: old }).where('id', '=', own.userId).execute();
    const oldNurse = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses' });
    await server.db.updateTable('users').set({ password_changed_at: old }).where('id', '=', oldNurse.id).execute();
    const deactivated = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses', status: 'deactivated' });
    await server.db.updateTable('users').set({ password_changed_at: old }).where('id', '=', deactivated.id).execute();
    await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses' });

    const ninetyDays = { ...DEFAULTS, password_renewal_interval: 90, password_renewal_period: 'days' } as const;
    expect(await previewSecuritySettings(server.ctx, own, ninetyDays)).toEqual({
      overdue: 2,
      includesYou: true,
      graceUntil: new Date(server.clock.now().getTime() + RENEWAL_GRACE_MS).toISOString(),
    });
    expect(await previewSecuritySettings(server.ctx, own, { ...ninetyDays, user: 'several', users: [oldNurse.id] })).toMatchObject({ overdue: 1, includesYou: false });
    expect(await previewSecuritySettings(server.ctx, own, { ...ninetyDays, password_renewal_interval: 120 })).toEqual({ overdue: 0, includesYou: false, graceUntil: null });
  });

  it('new renewal rules start a grace period; stopping renewal turns it off and is audited', async () => {
    const own = await ownClinic();
    const changedAt = async () =>
      (await server.db.selectFrom('security_settings').select('renewal_changed_at').where('clinic_id', '=', own.clinicId).executeTakeFirstOrThrow()).renewal_changed_at;
    await updateSecuritySettings(server.ctx, own, { ...DEFAULTS, password_strength: 'advanced' });
    expect(await changedAt()).toBeNull();
    await updateSecuritySettings(server.ctx, own, { ...DEFAULTS, password_renewal_interval: 90, password_renewal_period: 'days' });
    expect((await changedAt())?.getTime()).toBe(server.clock.now().getTime());

    expect((await stopPasswordRenewal(server.ctx, own)).password_renewal_interval).toBeNull();
    expect((await auditEntries(server.db, 'clinic.stop_password_renewal', own.clinicId)).map((e) => [e.outcome, e.actor_id])).toEqual([['success', own.userId]]);
  });
});

describe('forced password resets', () => {
  it('clear the passwords of everyone who had one but the acting admin, end their sessions and mail the active ones', async () => {
    const own = await ownClinic();
    const active = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses' });
    const deactivated = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses', status: 'deactivated' });
    const invited = await createUser(server.db, { clinicId: own.clinicId, role: 'clinic_nurses', status: 'pending' });
    await sessionFor(server.db, active.id, { clock: server.clock });
    const mailsBefore = server.outbox().length;

    await forcePasswordReset(server.ctx, own, { user: 'all' });
    const rows = await server.db.selectFrom('users').select(['id', 'password_hash', 'must_change_password']).where('clinic_id', '=', own.clinicId).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(active.id)).toMatchObject({ password_hash: null, must_change_password: true });
    expect(byId.get(deactivated.id)).toMatchObject({ password_hash: null, must_change_password: true });
    expect(byId.get(invited.id)!.password_hash).not.toBeNull();
    expect(byId.get(own.userId)!.password_hash).not.toBeNull();
    const sessions = await server.db.selectFrom('auth_sessions').select(['ended_at', 'ended_reason']).where('user_id', '=', active.id).execute();
    expect(sessions).toEqual([{ ended_at: server.clock.now(), ended_reason: 'forced_reset' }]);
    const mails = server.outbox().slice(mailsBefore);
    expect(mails.map((m) => m.text.includes(`To: ${active.email}`))).toEqual([true]);
    expect((await auditEntries(server.db, 'clinic.force_password_reset', own.clinicId))[0]!.detail).toEqual({
      scope: 'all',
      users: expect.arrayContaining([active.id, deactivated.id]) as unknown,
    });
  });
});
