// Clinic security settings, forced password resets, stopping renewal and the devices list, through HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, PASSWORD, sessionFor } from './fixtures';
import { linkFromMail, startServer, type TestServer } from './helper';

const DAY = 24 * 60 * 60 * 1000;

interface Settings {
  password_strength: string;
  password_renewal_interval: number | null;
  password_renewal_period: string;
  user: string;
  users?: string[];
  logout_time_interval: number | null;
  logout_time_period: string;
}

let server: TestServer;
let clinicA: string;
let clinicB: string;
let admin: { id: string; email: string };
let adminToken: string;
let adminBToken: string;

const tokenFor = (userId: string) => sessionFor(server.db, userId, { clock: server.clock, days: 365 });

const settings = (token = adminToken) => server.call<{ data: Settings; message?: string }>('GET', '/clinic/settings', { token });
const save = (json: unknown, token = adminToken, lang: 'en' | 'de' = 'en') =>
  server.call<{ data: Settings; message?: string; errors?: Record<string, string[]> }>('POST', '/clinic/settings', { token, json, lang });
// A call every staff role may make: 401 once the session has ended.
const probe = (token: string) => server.call('GET', '/notifications/settings', { token });

beforeAll(async () => {
  server = await startServer();
  clinicA = await createClinic(server.db, 'Augenklinik A');
  clinicB = await createClinic(server.db, 'Augenklinik B');
  admin = await createUser(server.db, { clinicId: clinicA, role: 'clinic_it_admins' });
  adminToken = await tokenFor(admin.id);
  const adminB = await createUser(server.db, { clinicId: clinicB, role: 'clinic_it_admins' });
  adminBToken = await tokenFor(adminB.id);
});
afterAll(() => server.close());

describe('security settings', () => {
  it('creates the settings with the defaults when the clinic has none', async () => {
    await server.db.deleteFrom('security_settings').where('clinic_id', '=', clinicA).execute();
    const answer = await settings();
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      password_strength: 'standard',
      password_renewal_interval: null,
      password_renewal_period: 'months',
      user: 'all',
      logout_time_interval: null,
      logout_time_period: 'minutes',
      two_factor_roles: [],
      remember_device_days: 0,
    });
    expect(await server.db.selectFrom('security_settings').select('clinic_id').where('clinic_id', '=', clinicA).execute()).toHaveLength(1);
  });

  it('saves all fields and reads them back; other clinics keep theirs', async () => {
    const body = {
      password_strength: 'advanced',
      password_renewal_interval: 6,
      password_renewal_period: 'months',
      user: 'all',
      logout_time_interval: 30,
      logout_time_period: 'minutes',
      two_factor_roles: ['clinic_nurses'],
      remember_device_days: 14,
    };
    const answer = await save(body);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'Success', message: 'Security settings updated', data: body });
    expect((await settings()).body.data).toEqual(body);
    expect((await save(body, adminToken, 'de')).body.message).toBe('Sicherheitseinstellungen aktualisiert');
    expect((await settings(adminBToken)).body.data.password_strength).toBe('standard');
    expect((await save({ ...body, two_factor_roles: [], remember_device_days: 0 })).status).toBe(200);
  });

  it('renewal moves nextPasswordChange and the strength shows as the users’ password type', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    // Changed yesterday: the renewal's own due dates lie beyond the grace period a change of the rules gives.
    const changedAt = new Date(server.clock.now().getTime() - DAY);
    await server.db.updateTable('users').set({ password_changed_at: changedAt }).where('id', '=', nurse.id).execute();
    const read = async () =>
      (await server.call<{ data: { nextPasswordChange: string | null; passwordType: string } }>('GET', `/users/${nurse.id}`, { token: adminToken })).body.data;
    expect(await read()).toMatchObject({ nextPasswordChange: new Date(changedAt.getTime() + 6 * 30 * DAY).toISOString(), passwordType: 'advanced' });
    await save({ password_strength: 'simplified', password_renewal_interval: 40, password_renewal_period: 'days', user: 'all', logout_time_interval: null, logout_time_period: 'hours' });
    expect(await read()).toMatchObject({ nextPasswordChange: new Date(changedAt.getTime() + 40 * DAY).toISOString(), passwordType: 'simplified' });
  });

  it('with several users, requires a non-empty list of the clinic’s users', async () => {
    const base = { password_strength: 'advanced', password_renewal_interval: 3, password_renewal_period: 'months', logout_time_interval: 15, logout_time_period: 'minutes' };
    const before = (await settings()).body.data;
    const missing = await save({ ...base, user: 'several' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ users: ['This field is required'] });
    expect((await save({ ...base, user: 'several', users: [] })).status).toBe(422);
    const foreign = await createUser(server.db, { clinicId: clinicB, role: 'clinic_nurses' });
    const wrong = await save({ ...base, user: 'several', users: [admin.id, foreign.id] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ users: ['Please choose staff users of this clinic.'] });
    expect((await settings()).body.data).toEqual(before);

    const other = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians' });
    const ok = await save({ ...base, user: 'several', users: [admin.id] });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ ...base, user: 'several', users: [admin.id], two_factor_roles: expect.any(Array), remember_device_days: expect.any(Number) });
    const typeOf = async (id: string) =>
      (await server.call<{ data: { passwordType: string; nextPasswordChange: string | null } }>('GET', `/users/${id}`, { token: adminToken })).body.data;
    expect((await typeOf(admin.id)).passwordType).toBe('advanced');
    expect(await typeOf(other.id)).toMatchObject({ passwordType: 'standard', nextPasswordChange: null });

    // Back to all: the list is dropped.
    const all = await save({ ...base, user: 'all', users: [admin.id] });
    expect(all.body.data.users).toBeUndefined();
    expect(await server.db.selectFrom('security_settings_users').selectAll().where('clinic_id', '=', clinicA).execute()).toEqual([]);
  });

  it('validates the fields', async () => {
    const base = { password_strength: 'standard', password_renewal_interval: 6, password_renewal_period: 'months', user: 'all', logout_time_interval: 30, logout_time_period: 'minutes' };
    const badNumber = await save({ ...base, logout_time_interval: 'abc' });
    expect(badNumber.status).toBe(422);
    // The contract's example says 'Please enter a valid number'; the shared validation mapping gives the
    // generic type message for nullable integers (reported to the lead).
    expect(Object.keys(badNumber.body.errors ?? {})).toEqual(['logout_time_interval']);
    expect((await save({ ...base, password_renewal_interval: 0 })).status).toBe(422);
    expect((await save({ ...base, password_strength: 'weak' })).status).toBe(422);
    expect((await save({ ...base, logout_time_period: 'weeks' })).status).toBe(422);
    const withoutUser = Object.fromEntries(Object.entries(base).filter(([key]) => key !== 'user'));
    expect((await save(withoutUser)).status).toBe(422);
    expect((await save({ ...base, extra: 1 })).status).toBe(422);
  });

  it('keeps renewal between 30 days and 3 years and idle logout between 5 minutes and 12 hours, in the caller’s language', async () => {
    const base = { password_strength: 'standard', password_renewal_interval: 6, password_renewal_period: 'months', user: 'all', logout_time_interval: 30, logout_time_period: 'minutes' };
    const before = (await settings()).body.data;
    // The defect: "every 1 minute, all users" expired every password at once, the admin's too.
    const everyMinute = await save({ ...base, password_renewal_interval: 1, password_renewal_period: 'minutes' });
    expect(everyMinute.status).toBe(422);
    expect(everyMinute.body.errors).toEqual({ password_renewal_interval: ['The password renewal must lie between 30 days and 3 years.'] });
    for (const [interval, period] of [[29, 'days'], [1000, 'hours'], [4, 'years']] as const) {
      expect((await save({ ...base, password_renewal_interval: interval, password_renewal_period: period })).status).toBe(422);
    }
    const fiveYears = await save({ ...base, logout_time_interval: 5, logout_time_period: 'years' }, adminToken, 'de');
    expect(fiveYears.status).toBe(422);
    expect(fiveYears.body.errors).toEqual({ logout_time_interval: ['Die automatische Abmeldung muss zwischen 5 Minuten und 12 Stunden liegen.'] });
    expect((await save({ ...base, logout_time_interval: 4, logout_time_period: 'minutes' })).status).toBe(422);
    expect((await settings()).body.data).toEqual(before);
    for (const [interval, period] of [[30, 'days'], [3, 'years']] as const) {
      expect((await save({ ...base, password_renewal_interval: interval, password_renewal_period: period })).status).toBe(200);
    }
    for (const [interval, period] of [[5, 'minutes'], [12, 'hours']] as const) {
      expect((await save({ ...base, logout_time_interval: interval, logout_time_period: period })).status).toBe(200);
    }
  });

  it('is for IT admins only', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    expect((await settings(await tokenFor(nurse.id))).status).toBe(403);
  });
});

describe('forceResetPassword', () => {
  it('ends the chosen users’ sessions and passwords, and e-mails each a link to choose a new one', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses', firstName: 'Miriam' });
    const physician = await createUser(server.db, { clinicId: clinicA, role: 'clinic_physicians' });
    const nurseToken = await tokenFor(nurse.id);
    const physicianToken = await tokenFor(physician.id);
    const answer = await server.call<{ message: string }>('POST', '/clinic/forceResetPassword', {
      token: adminToken,
      json: { user: 'several', users: [nurse.id, admin.id] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe("The selected users' passwords no longer work; each has been sent a link to choose a new one.");
    expect((await probe(nurseToken)).status).toBe(401);
    expect((await probe(physicianToken)).status).toBe(200);
    expect((await probe(adminToken)).status).toBe(200);
    const mail = server.outbox().find((m) => m.text.includes(`To: ${nurse.email}`));
    expect(mail?.text).toContain('Hello Miriam');
    expect(mail?.text).toContain('The link is valid for 24 hours');
    expect(server.outbox().some((m) => m.text.includes(`To: ${admin.email}`))).toBe(false);

    // Whoever knows the old password cannot sign in with it to "change" it.
    const signIn = (password: string) => server.call<{ data: { token: string } }>('POST', '/sign-in', { json: { email: nurse.email, password } });
    expect((await signIn(PASSWORD)).status).toBe(401);
    // The link in the e-mail sets a new one, and only then can the nurse sign in.
    const link = linkFromMail(server, nurse.email);
    expect(link.pathname).toBe('/new-password');
    const chosen = 'Neue-Macula-Linse-77';
    const reset = await server.call('POST', '/reset-confirmation', {
      json: { token: link.searchParams.get('token'), password: chosen, passwordConfirmation: chosen },
    });
    expect(reset.status).toBe(200);
    expect((await signIn(PASSWORD)).status).toBe(401);
    expect((await signIn(chosen)).status).toBe(200);
    const rows = await server.db.selectFrom('users').select(['id', 'must_change_password']).where('id', 'in', [nurse.id, physician.id, admin.id]).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.must_change_password]))).toEqual({ [nurse.id]: false, [physician.id]: false, [admin.id]: false });
  });

  it('revokes a reset link the user asked for before, and a second forced reset revokes the first one\'s', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    await server.call('POST', '/reset-password', { json: { email: nurse.email } });
    const asked = linkFromMail(server, nurse.email).searchParams.get('token');
    await server.call('POST', '/clinic/forceResetPassword', { token: adminToken, json: { user: 'several', users: [nurse.id] } });
    const first = linkFromMail(server, nurse.email).searchParams.get('token');
    expect(first).not.toBe(asked);
    expect((await server.call('GET', `/reset-confirmation?token=${asked}`)).status).toBe(404);
    await server.call('POST', '/clinic/forceResetPassword', { token: adminToken, json: { user: 'several', users: [nurse.id] } });
    const second = linkFromMail(server, nurse.email).searchParams.get('token');
    expect((await server.call('GET', `/reset-confirmation?token=${first}`)).status).toBe(404);
    expect((await server.call('GET', `/reset-confirmation?token=${second}`)).status).toBe(200);
  });

  it('with all, reaches everyone but the calling admin, in their language', async () => {
    const clinic = await createClinic(server.db, 'Klinik Alle');
    const me = await createUser(server.db, { clinicId: clinic, role: 'clinic_it_admins' });
    const myToken = await tokenFor(me.id);
    const other = await createUser(server.db, { clinicId: clinic, role: 'clinic_it_admins', firstName: 'Greta', lastName: 'Lang' });
    await server.db.updateTable('users').set({ lang: 'de' }).where('id', '=', other.id).execute();
    const otherToken = await tokenFor(other.id);
    const outside = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    const answer = await server.call('POST', '/clinic/forceResetPassword', { token: myToken, json: { user: 'all' } });
    expect(answer.status).toBe(200);
    expect((await probe(otherToken)).status).toBe(401);
    expect((await probe(myToken)).status).toBe(200);
    expect(server.outbox().find((m) => m.text.includes(`To: ${other.email}`))?.text).toContain('Guten Tag Greta Lang,');
    const flags = await server.db.selectFrom('users').select(['id', 'must_change_password']).where('id', 'in', [me.id, other.id, outside.id]).execute();
    expect(Object.fromEntries(flags.map((r) => [r.id, r.must_change_password]))).toEqual({ [me.id]: false, [other.id]: true, [outside.id]: false });
  });

  it('validates the users', async () => {
    const missing = await server.call('POST', '/clinic/forceResetPassword', { token: adminToken, json: { user: 'several' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: { users: ['This field is required'] } });
    const foreign = await createUser(server.db, { clinicId: clinicB, role: 'clinic_nurses' });
    const wrong = await server.call('POST', '/clinic/forceResetPassword', { token: adminToken, json: { user: 'several', users: [foreign.id] } });
    expect(wrong.status).toBe(422);
    const row = await server.db.selectFrom('users').select('must_change_password').where('id', '=', foreign.id).executeTakeFirstOrThrow();
    expect(row.must_change_password).toBe(false);
  });
});

describe('stopRenewPassword', () => {
  it('turns renewal off and clears nextPasswordChange', async () => {
    await save({ password_strength: 'standard', password_renewal_interval: 30, password_renewal_period: 'days', user: 'all', logout_time_interval: 30, logout_time_period: 'minutes' });
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    await server.db.updateTable('users').set({ password_changed_at: new Date(server.clock.now().getTime() - 35 * DAY) }).where('id', '=', nurse.id).execute();
    // Rules set long ago: their grace period is over.
    await server.db.updateTable('security_settings').set({ renewal_changed_at: null }).where('clinic_id', '=', clinicA).execute();
    // Renewal overdue: the nurse may do nothing but change the password.
    const nurseToken = await tokenFor(nurse.id);
    expect((await probe(nurseToken)).status).toBe(403);
    const answer = await server.call<{ data: Settings; message: string }>('POST', '/clinic/stopRenewPassword', { token: adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Security settings updated');
    expect(answer.body.data).toMatchObject({ password_renewal_interval: null, password_strength: 'standard', logout_time_interval: 30 });
    expect((await settings()).body.data.password_renewal_interval).toBeNull();
    expect((await probe(nurseToken)).status).toBe(200);
    const user = await server.call<{ data: { nextPasswordChange: string | null } }>('GET', `/users/${nurse.id}`, { token: adminToken });
    expect(user.body.data.nextPasswordChange).toBeNull();
  });
});

describe('listDevices', () => {
  let seen: Date;
  beforeAll(async () => {
    // Only the devices of this test (createClinic enrols the sample exams' laser).
    await server.db.deleteFrom('devices').where('clinic_id', 'in', [clinicA, clinicB]).execute();
    // Heard from just now: the server's sweep marks Offline, every few seconds, a device silent for longer.
    seen = server.clock.now();
    await server.db
      .insertInto('devices')
      .values([
        { clinic_id: clinicA, device_id: 'NAV-533-00412', optical_head_id: 'OH-2291', camera: 'Fundus CCD 5MP', description: 'Laser room 1, ground floor', sync_app_status: 'RUNNING', last_seen_at: seen },
        { clinic_id: clinicA, device_id: 'NAV-533-00587', optical_head_id: 'OH-2304', camera: 'Fundus CCD 5MP', description: 'Laser room 2, first floor', sync_app_status: 'CONNECTION_FAILED', last_seen_at: null },
        { clinic_id: clinicA, device_id: 'NAV-533-00600', optical_head_id: 'OH-3000', camera: 'Wide field 12MP', description: null, sync_app_status: 'RUNNING', last_seen_at: seen },
        { clinic_id: clinicB, device_id: 'NAV-999-00001', optical_head_id: 'OH-9999', camera: 'Fundus CCD 5MP', description: 'Other clinic', sync_app_status: 'RUNNING', last_seen_at: seen },
      ])
      .execute();
  });

  interface DeviceList {
    data: { deviceId: string; online: boolean; syncAppStatus: string; lastSeenAt?: string | null }[];
    meta: { page: number; perPage: number; total: number; lastPage: number };
  }
  const list = (query = '', token = adminToken) => server.call<DeviceList>('GET', `/clinic/devices${query}`, { token });
  const ids = (body: DeviceList) => body.data.map((d) => d.deviceId);

  it('lists the clinic’s devices with their sync status', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual(['NAV-533-00412', 'NAV-533-00587', 'NAV-533-00600']);
    expect(answer.body.data[0]).toMatchObject({ online: true, syncAppStatus: 'RUNNING', lastSeenAt: seen.toISOString() });
    expect(answer.body.data[1]).toMatchObject({ online: false, syncAppStatus: 'CONNECTION_FAILED', lastSeenAt: null });
    expect(answer.body.meta).toEqual({ page: 1, perPage: 20, total: 3, lastPage: 1 });
    expect(ids((await list('', adminBToken)).body)).toEqual(['NAV-999-00001']);
  });

  it('filters online and offline', async () => {
    expect(ids((await list('?status=online')).body)).toEqual(['NAV-533-00412', 'NAV-533-00600']);
    expect(ids((await list('?status=offline')).body)).toEqual(['NAV-533-00587']);
    expect((await list('?status=broken')).status).toBe(422);
  });

  it('searches device id, optical head, camera and description', async () => {
    expect(ids((await list('?search=00587')).body)).toEqual(['NAV-533-00587']);
    expect(ids((await list('?search=oh-3000')).body)).toEqual(['NAV-533-00600']);
    expect(ids((await list('?search=wide%20field')).body)).toEqual(['NAV-533-00600']);
    expect(ids((await list('?search=first%20floor')).body)).toEqual(['NAV-533-00587']);
    expect(ids((await list('?search=other%20clinic')).body)).toEqual([]);
  });

  it('pages', async () => {
    const answer = await list('?perPage=2&page=2');
    expect(ids(answer.body)).toEqual(['NAV-533-00600']);
    expect(answer.body.meta).toEqual({ page: 2, perPage: 2, total: 3, lastPage: 2 });
  });
});

describe('getBillingUsage', () => {
  interface Usage {
    data: {
      from: string;
      to: string;
      rows: { month: string; deviceId: string | null; examsUploaded: number; plansSignedOff: number; parameterSetsProduced: number }[];
      totals: { examsUploaded: number; plansSignedOff: number; parameterSetsProduced: number };
    };
    errors?: Record<string, string[]>;
  }
  const usage = (query: string, token = adminToken, lang: 'en' | 'de' = 'en') =>
    server.call<Usage>('GET', `/clinic/billing${query}`, { token, lang });

  beforeAll(async () => {
    // Clinic A: exams on two devices and one without a device in Oct and Nov 2026 (one at the last instant
    // of October in UTC), sign-offs and packings; clinic B: one exam that must never show in A's figures.
    const patient = async (clinicId: string) =>
      (
        await server.db
          .insertInto('patients')
          .values({ clinic_id: clinicId, name: 'Billing', second_name: 'Patient', birthday: '1950-01-01', gender: 'female' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const a = await patient(clinicA);
    const b = await patient(clinicB);
    const exam = async (clinicId: string, patientId: string, number: number, createdAt: string, deviceId: string | null) =>
      (
        await server.db
          .insertInto('treatments')
          .values({ clinic_id: clinicId, patient_id: patientId, number, date: createdAt, eye: 'OD', created_at: new Date(createdAt), device_id: deviceId })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const change = (treatmentId: string, at: string, action: string) =>
      server.db
        .insertInto('plan_changes')
        .values({ treatment_id: treatmentId, at: new Date(at), action, step: 'npt_packing', revision: 1, details: '{}' })
        .execute();
    const t1 = await exam(clinicA, a, 1, '2026-10-31T23:59:59Z', 'NAV-533-00412');
    const t2 = await exam(clinicA, a, 2, '2026-11-01T00:00:00Z', 'NAV-533-00412');
    await exam(clinicA, a, 3, '2026-11-10T10:00:00Z', 'NAV-533-00587');
    await exam(clinicA, a, 4, '2026-11-11T10:00:00Z', null);
    await change(t1, '2026-11-02T09:00:00Z', 'signed_off');
    await change(t1, '2026-11-02T09:00:05Z', 'packing_failed');
    await change(t1, '2026-11-02T09:10:00Z', 'signed_off');
    await change(t1, '2026-11-02T09:10:03Z', 'parameter_set_packed');
    await change(t2, '2026-12-01T08:00:00Z', 'signed_off');
    const other = await exam(clinicB, b, 1, '2026-11-05T10:00:00Z', 'NAV-533-00412');
    await change(other, '2026-11-05T11:00:00Z', 'signed_off');
  });

  it('counts exams, sign-offs and parameter sets per month and device, UTC months, own clinic only', async () => {
    const answer = await usage('?from=2026-10&to=2026-11');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      from: '2026-10',
      to: '2026-11',
      rows: [
        { month: '2026-10', deviceId: 'NAV-533-00412', examsUploaded: 1, plansSignedOff: 0, parameterSetsProduced: 0 },
        { month: '2026-11', deviceId: 'NAV-533-00412', examsUploaded: 1, plansSignedOff: 2, parameterSetsProduced: 1 },
        { month: '2026-11', deviceId: 'NAV-533-00587', examsUploaded: 1, plansSignedOff: 0, parameterSetsProduced: 0 },
        { month: '2026-11', deviceId: null, examsUploaded: 1, plansSignedOff: 0, parameterSetsProduced: 0 },
      ],
      totals: { examsUploaded: 4, plansSignedOff: 2, parameterSetsProduced: 1 },
    });
    expect((await usage('?from=2026-12&to=2026-12')).body.data.totals).toEqual({ examsUploaded: 0, plansSignedOff: 1, parameterSetsProduced: 0 });
    expect((await usage('?from=2025-01&to=2025-03')).body.data).toEqual({
      from: '2025-01',
      to: '2025-03',
      rows: [],
      totals: { examsUploaded: 0, plansSignedOff: 0, parameterSetsProduced: 0 },
    });
    expect((await usage('?from=2026-11&to=2026-11', adminBToken)).body.data.totals).toEqual({ examsUploaded: 1, plansSignedOff: 1, parameterSetsProduced: 0 });
  });

  it('refuses a reversed, too long or malformed range with a localised message', async () => {
    const reversed = await usage('?from=2026-11&to=2026-10', adminToken, 'de');
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ to: ['Der letzte Monat darf nicht vor dem ersten liegen.'] });
    const long = await usage('?from=2023-01&to=2026-01');
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ to: ['Please choose at most 36 months.'] });
    expect((await usage('?from=2023-02&to=2026-01')).status).toBe(200);
    for (const query of ['?from=2026-13&to=2026-12', '?from=2026-1&to=2026-02', '?to=2026-02', '?from=2026-01']) {
      expect((await usage(query)).status).toBe(422);
    }
  });

  it('is for IT admins only', async () => {
    const nurse = await createUser(server.db, { clinicId: clinicA, role: 'clinic_nurses' });
    expect((await usage('?from=2026-10&to=2026-11', await tokenFor(nurse.id))).status).toBe(403);
    expect((await usage('?from=2026-10&to=2026-11', '')).status).toBe(401);
  });
});
