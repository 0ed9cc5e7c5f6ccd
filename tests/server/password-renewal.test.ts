// Tightening the password renewal (issue 27, defect 9): before saving, the IT admin learns how many passwords the
// new rules make overdue, their own included; after saving, those passwords keep working for a week.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser, signIn } from './fixtures';
import { startServer, testClock, type TestServer } from './helper';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let clinicId: string;
let admin: { id: string; email: string };
let nurse: { id: string; email: string };
let fresh: { id: string; email: string };

beforeAll(async () => {
  server = await startServer({ clock: testClock() });
  clinicId = await createClinic(server.db, 'Klinik mit Erneuerung');
  admin = await createUser(server.db, { clinicId, role: 'clinic_it_admins' });
  nurse = await createUser(server.db, { clinicId, role: 'clinic_nurses' });
  fresh = await createUser(server.db, { clinicId, role: 'clinic_physicians' });
  const longAgo = new Date(server.clock.now().getTime() - 100 * DAY);
  await server.db.updateTable('users').set({ password_changed_at: longAgo }).where('id', 'in', [admin.id, nurse.id]).execute();
  await server.db.updateTable('users').set({ password_changed_at: server.clock.now() }).where('id', '=', fresh.id).execute();
});
afterAll(() => server.close());

const rules = (interval: number, period = 'months') => ({
  password_strength: 'standard',
  password_renewal_interval: interval,
  password_renewal_period: period,
  user: 'all',
  logout_time_interval: 30,
  logout_time_period: 'minutes',
});

interface Preview {
  data: { overdue: number; includesYou: boolean; graceUntil: string | null };
  errors?: Record<string, string[]>;
}

describe('a tighter password renewal', () => {
  it('is previewed without saving: how many passwords it makes overdue, whether the admin’s is one, and until when they still work', async () => {
    const token = await signIn(server, admin.email);
    const preview = (body: object) => server.call<Preview>('POST', '/clinic/settings/preview', { token, json: body });
    const now = server.clock.now().getTime();
    expect((await preview(rules(3))).body.data).toEqual({ overdue: 2, includesYou: true, graceUntil: new Date(now + 7 * DAY).toISOString() });
    expect((await preview(rules(6))).body.data).toEqual({ overdue: 0, includesYou: false, graceUntil: null });
    expect((await preview({ ...rules(3), user: 'several', users: [nurse.id, fresh.id] })).body.data).toMatchObject({ overdue: 1, includesYou: false });
    const outOfBounds = await preview(rules(1, 'hours'));
    expect(outOfBounds.status).toBe(422);
    expect(outOfBounds.body.errors).toEqual({ password_renewal_interval: ['The password renewal must lie between 30 days and 3 years.'] });
    // Nothing was saved.
    const settings = await server.call<{ data: { password_renewal_interval: number | null } }>('GET', '/clinic/settings', { token });
    expect(settings.body.data.password_renewal_interval).toBeNull();
  });

  it('once saved, leaves overdue passwords working for 7 days, the admin’s included, then asks for a new one', async () => {
    const token = await signIn(server, admin.email);
    expect((await server.call('POST', '/clinic/settings', { token, json: rules(3) })).status).toBe(200);
    const graceUntil = new Date(server.clock.now().getTime() + 7 * DAY).toISOString();
    const nurseRow = await server.call<{ data: { nextPasswordChange: string } }>('GET', `/users/${nurse.id}`, { token });
    expect(nurseRow.body.data.nextPasswordChange).toBe(graceUntil);
    const freshRow = await server.call<{ data: { nextPasswordChange: string } }>('GET', `/users/${fresh.id}`, { token });
    expect(freshRow.body.data.nextPasswordChange).toBe(new Date(server.clock.now().getTime() + 90 * DAY).toISOString());
    // The admin works on: the settings page still answers.
    const profile = await server.call<{ data: { passwordChangeRequired: string | null; nextPasswordChange: string } }>('GET', '/user/profile', { token });
    expect(profile.body.data).toMatchObject({ passwordChangeRequired: null, nextPasswordChange: graceUntil });
    expect((await server.call('GET', '/clinic/settings', { token })).status).toBe(200);

    server.clock.advance(7 * DAY + 60_000);
    const later = await signIn(server, nurse.email);
    const nurseProfile = await server.call<{ data: { passwordChangeRequired: string | null } }>('GET', '/user/profile', { token: later });
    expect(nurseProfile.body.data.passwordChangeRequired).toBe('expired');
    expect((await server.call('GET', '/patients', { token: later })).status).toBe(403);
  });
});
