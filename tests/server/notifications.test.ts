// The caller's notifications and notification settings, through HTTP; notifications are raised with
// notify() as the other areas do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../server/services/notifications';
import { createClinic, createUser, sessionFor, signIn } from './fixtures';
import { startServer, type TestServer } from './helper';

interface Item {
  id: string;
  category: string;
  event?: string;
  title: string;
  message: string;
  read: boolean;
  link?: string | null;
}
interface ListBody {
  data: Item[];
  meta: { page: number; perPage: number; total: number; lastPage: number; unread: number };
}

let server: TestServer;
let clinicA: string;
let clinicB: string;

async function staff(role: string, clinicId = clinicA) {
  const user = await createUser(server.db, { clinicId, role });
  return { ...user, token: await sessionFor(server.db, user.id, { clock: server.clock }) };
}

/** Raises the three kinds of notification the tests use for one user, oldest first. */
async function raiseSome(userId: string, clinicId = clinicA) {
  await notify(server.ctx, { clinicId, to: { userIds: [userId] }, event: 'invite_accepted', params: { name: 'Stefan Krüger' }, link: '/admin/it-clinic-admin' });
  await notify(server.ctx, {
    clinicId,
    to: { userIds: [userId] },
    event: 'deletion_requested',
    params: { requester: 'Dr. Anna Keller', patient: 'Erika Schmitt', reason: 'duplicate record' },
    link: '/admin/patient-list/deleting',
  });
  await notify(server.ctx, { clinicId, to: { userIds: [userId] }, event: 'password_expiring', params: { date: '2026-12-01' }, link: '/profile-settings' });
}

const list = (token: string, query = '', lang: 'en' | 'de' = 'en') => server.call<ListBody>('GET', `/notifications${query}`, { token, lang });

beforeAll(async () => {
  server = await startServer();
  clinicA = await createClinic(server.db, 'Augenklinik A');
  clinicB = await createClinic(server.db, 'Augenklinik B');
});
afterAll(() => server.close());

describe('listNotifications', () => {
  it('lists the own notifications, newest first, rendered in the caller’s language', async () => {
    const admin = await staff('clinic_it_admins');
    const other = await staff('clinic_it_admins');
    await raiseSome(admin.id);
    await raiseSome(other.id);
    // Distinct times so that "newest first" is visible.
    const rows = await server.db.selectFrom('notifications').select(['id', 'event']).where('user_id', '=', admin.id).execute();
    const minutes: Record<string, number> = { invite_accepted: 1, deletion_requested: 2, password_expiring: 3 };
    for (const row of rows) {
      await server.db.updateTable('notifications').set({ created_at: new Date(Date.UTC(2026, 10, 21, 9, minutes[row.event])) } as never).where('id', '=', row.id).execute();
    }

    const en = await list(admin.token);
    expect(en.status).toBe(200);
    expect(en.body.data.map((n) => n.event)).toEqual(['password_expiring', 'deletion_requested', 'invite_accepted']);
    expect(en.body.meta).toEqual({ page: 1, perPage: 20, total: 3, lastPage: 1, unread: 3 });
    const request = en.body.data[1];
    expect(request).toMatchObject({ category: 'patients', read: false, link: '/admin/patient-list/deleting', title: 'Patient deletion requested' });
    expect(request.message).toContain('Erika Schmitt');
    expect(request.message).toContain('duplicate record');
    expect(en.body.data[2]).toMatchObject({ category: 'team_members', message: 'Stefan Krüger accepted the invitation and can now sign in.' });

    const de = await list(admin.token, '', 'de');
    expect(de.body.data.map((n) => n.id)).toEqual(en.body.data.map((n) => n.id));
    for (const [index, item] of de.body.data.entries()) {
      expect(item.title).not.toBe(en.body.data[index].title);
      expect(item.message).not.toBe(en.body.data[index].message);
    }
    expect(de.body.data[1].message).toContain('Erika Schmitt');
  });

  it('filters by category and read state, pages, and counts unread over all pages', async () => {
    const nurse = await staff('clinic_nurses');
    await raiseSome(nurse.id);
    await raiseSome(nurse.id);
    const all = await list(nurse.token);
    expect(all.body.meta).toMatchObject({ total: 6, unread: 6 });
    const patients = await list(nurse.token, '?category=patients');
    expect(patients.body.data.map((n) => n.category)).toEqual(['patients', 'patients']);
    expect(patients.body.meta).toMatchObject({ total: 2, unread: 6 });
    const page = await list(nurse.token, '?perPage=4&page=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta).toEqual({ page: 2, perPage: 4, total: 6, lastPage: 2, unread: 6 });

    await server.call('POST', '/notifications/read', { token: nurse.token, json: { ids: [all.body.data[0].id] } });
    expect((await list(nurse.token, '?unread=true')).body.meta).toMatchObject({ total: 5, unread: 5 });
    const read = await list(nurse.token, '?unread=false');
    expect(read.body.data.map((n) => n.id)).toEqual([all.body.data[0].id]);
    expect(read.body.data[0].read).toBe(true);
    expect((await list(nurse.token, '?category=billing')).status).toBe(422);
  });

  it('is for the three staff roles', async () => {
    for (const role of ['clinic_physicians', 'clinic_nurses', 'clinic_it_admins']) {
      expect((await list((await staff(role)).token)).status).toBe(200);
    }
    expect((await list((await staff('service_engineers')).token)).status).toBe(403);
    expect((await server.call('GET', '/notifications')).status).toBe(401);
  });
});

describe('markNotificationsRead', () => {
  it('marks the listed own notifications; another user’s or clinic’s ids answer 404 and change nothing', async () => {
    const me = await staff('clinic_physicians');
    const other = await staff('clinic_physicians');
    const foreign = await staff('clinic_physicians', clinicB);
    await raiseSome(me.id);
    await raiseSome(other.id);
    await raiseSome(foreign.id, clinicB);
    const mine = (await list(me.token)).body.data;
    const theirs = (await list(other.token)).body.data;
    const foreigners = (await list(foreign.token)).body.data;
    for (const ids of [[mine[0].id, theirs[0].id], [mine[0].id, foreigners[0].id]]) {
      const refused = await server.call('POST', '/notifications/read', { token: me.token, json: { ids } });
      expect(refused.status).toBe(404);
    }
    expect((await list(me.token)).body.meta.unread).toBe(3);
    const answer = await server.call<{ message: string }>('POST', '/notifications/read', {
      token: me.token,
      json: { ids: [mine[0].id] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Notifications marked as read');
    const after = (await list(me.token)).body;
    expect(after.meta.unread).toBe(2);
    // Unread first: the one just read goes to the end.
    expect(after.data.map((n) => [n.id, n.read])).toEqual([...mine.slice(1).map((n) => [n.id, false]), [mine[0].id, true]]);
    expect((await list(other.token)).body.meta.unread).toBe(3);
    expect((await list(foreign.token)).body.meta.unread).toBe(3);
  });

  it('marks all without ids or without a body', async () => {
    const me = await staff('clinic_nurses');
    await raiseSome(me.id);
    const withEmpty = await server.call('POST', '/notifications/read', { token: me.token, json: {}, lang: 'de' });
    expect(withEmpty.status).toBe(200);
    expect(withEmpty.body).toMatchObject({ message: 'Benachrichtigungen als gelesen markiert' });
    expect((await list(me.token)).body.meta.unread).toBe(0);
    await raiseSome(me.id);
    expect((await server.call('POST', '/notifications/read', { token: me.token })).status).toBe(200);
    expect((await list(me.token)).body.meta).toMatchObject({ total: 6, unread: 0 });
    expect((await server.call('POST', '/notifications/read', { token: me.token, json: { ids: [] } })).status).toBe(422);
    expect((await server.call('POST', '/notifications/read', { token: me.token, json: { ids: ['nope'] } })).status).toBe(422);
  });
});

describe('deleteNotifications', () => {
  it('deletes the listed own notifications, or all of them', async () => {
    const me = await staff('clinic_it_admins');
    const other = await staff('clinic_it_admins');
    await raiseSome(me.id);
    await raiseSome(other.id);
    const mine = (await list(me.token)).body.data;
    const theirs = (await list(other.token)).body.data;
    const refused = await server.call('DELETE', '/notifications', { token: me.token, json: { ids: [mine[0].id, theirs[0].id] } });
    expect(refused.status).toBe(404);
    expect((await list(me.token)).body.meta.total).toBe(3);
    const answer = await server.call<{ message: string }>('DELETE', '/notifications', { token: me.token, json: { ids: [mine[0].id] } });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Notifications deleted');
    expect((await list(me.token)).body.data.map((n) => n.id)).toEqual([mine[1].id, mine[2].id]);
    expect((await list(other.token)).body.meta.total).toBe(3);
    // An empty list is refused so that it is never taken for "all".
    expect((await server.call('DELETE', '/notifications', { token: me.token, json: { ids: [] } })).status).toBe(422);
    expect((await list(me.token)).body.meta.total).toBe(2);
    expect((await server.call('DELETE', '/notifications', { token: me.token })).status).toBe(200);
    expect((await list(me.token)).body.meta).toMatchObject({ total: 0, unread: 0 });
    expect((await list(other.token)).body.meta.total).toBe(3);
  });
});

describe('notification settings', () => {
  it('defaults to everything on screen, nothing by e-mail', async () => {
    const me = await staff('clinic_nurses');
    const answer = await server.call('GET', '/notifications/settings', { token: me.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'Success',
      data: { system: true, teamMembers: true, patients: true, newsAndUpdates: true, notifyViaEmail: false },
    });
  });

  it('a category switched off raises nothing; e-mail goes out when asked for', async () => {
    const me = await staff('clinic_it_admins');
    const settings = { system: true, teamMembers: true, patients: false, newsAndUpdates: false, notifyViaEmail: true };
    const saved = await server.call('POST', '/notifications/settings', { token: me.token, json: settings });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ status: 'Success', message: 'Changes added successfully', data: settings });
    expect((await server.call('GET', '/notifications/settings', { token: me.token })).body).toMatchObject({ data: settings });

    await raiseSome(me.id);
    const items = (await list(me.token)).body.data;
    expect(items.map((n) => n.event).sort()).toEqual(['invite_accepted', 'password_expiring']);
    const mails = server.outbox().filter((m) => m.text.includes(`To: ${me.email}`));
    expect(mails).toHaveLength(2);

    const again = { ...settings, patients: true, teamMembers: false, notifyViaEmail: false };
    expect((await server.call('POST', '/notifications/settings', { token: me.token, json: again, lang: 'de' })).body).toMatchObject({
      message: 'Änderungen erfolgreich gespeichert',
      data: again,
    });
    await notify(server.ctx, { clinicId: clinicA, to: { userIds: [me.id] }, event: 'invite_accepted', params: { name: 'X' } });
    expect((await list(me.token)).body.meta.total).toBe(2);
  });

  it('validates the switches', async () => {
    const me = await staff('clinic_physicians');
    const bad = await server.call('POST', '/notifications/settings', { token: me.token, json: { system: 'yes' } });
    expect(bad.status).toBe(422);
    const rows = await server.db.selectFrom('notification_settings').selectAll().where('user_id', '=', me.id).execute();
    expect(rows).toEqual([]);
  });
});

describe('password about to expire', () => {
  it('is announced once at sign-in during the last 7 days', async () => {
    const expiring = await startServer();
    try {
      const clinic = await createClinic(expiring.db);
      await expiring.db
        .updateTable('security_settings')
        .set({ password_renewal_interval: 30, password_renewal_period: 'days' })
        .where('clinic_id', '=', clinic)
        .execute();
      const user = await createUser(expiring.db, { clinicId: clinic, role: 'clinic_nurses' });
      await signIn(expiring, user.email);
      expect(await unreadEvents(expiring, user.id)).toEqual([]);

      expiring.clock.advance(25 * 24 * 60 * 60 * 1000);
      await signIn(expiring, user.email);
      await signIn(expiring, user.email);
      expect(await unreadEvents(expiring, user.id)).toEqual(['password_expiring']);

      const token = await signIn(expiring, user.email);
      const list = await expiring.call<{ data: { title: string }[] }>('GET', '/notifications', { token, lang: 'de' });
      expect(list.body.data[0].title).toBe('Passwort läuft bald ab');
    } finally {
      await expiring.close();
    }
  });
});

async function unreadEvents(server: TestServer, userId: string): Promise<string[]> {
  const rows = await server.db.selectFrom('notifications').select('event').where('user_id', '=', userId).execute();
  return rows.map((row) => row.event);
}
