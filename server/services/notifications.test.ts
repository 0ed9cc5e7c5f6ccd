// The rules of notifications, called as services without HTTP: who gets one (active users, categories switched
// on), how it reads (the reader's language, reasons worded too), the list's order and badge, and that a user
// marks and deletes only their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClinic, createUser } from '../../tests/server/fixtures';
import { startServer, testClock, type TestServer } from '../../tests/server/helper';
import { actorFor, refusal } from '../../tests/server/service-calls';
import type { Actor } from '../actor';
import {
  deleteNotifications,
  getNotificationSettings,
  listNotifications,
  markNotificationsRead,
  notify,
  renderNotification,
  updateNotificationSettings,
} from './notifications';

let server: TestServer;
let clinicId: string;

beforeAll(async () => {
  server = await startServer({ clock: testClock(), jobs: false });
  clinicId = await createClinic(server.db);
});
afterAll(() => server.close());

async function someone(role = 'clinic_physicians', status = 'active'): Promise<Actor> {
  return actorFor(await createUser(server.db, { clinicId, role, status }), clinicId, role);
}

const accepted = (userIds: string[], name = 'Stefan Krüger') => notify(server.ctx, { clinicId, to: { userIds }, event: 'invite_accepted', params: { name } });

describe('rendering', () => {
  it('words the notification in the reader’s language, a reason given as a message key too', () => {
    expect(renderNotification('de', 'invite_accepted', { name: 'Eva Roth' })).toEqual({
      title: 'Einladung angenommen',
      message: 'Eva Roth hat die Einladung angenommen und kann sich jetzt anmelden.',
    });
    const failed = (lang: 'en' | 'de') => renderNotification(lang, 'parameter_set_failed', { number: 3, patient: 'Erika Schmitt', reasonKey: 'treatment.file_damaged' }).message;
    expect(failed('en')).not.toContain('treatment.file_damaged');
    expect(failed('de')).not.toContain('treatment.file_damaged');
    expect(failed('en')).not.toBe(failed('de'));
    // A parameter that only looks like a key is left as it is.
    expect(renderNotification('en', 'invite_accepted', { nameKey: 'not.a.key', name: 'Eva' }).message).toContain('Eva');
  });
});

describe('recipients', () => {
  it('reach active users of the clinic with the category switched on, and a role reaches all its active users', async () => {
    const on = await someone();
    const off = await someone();
    const gone = await someone('clinic_physicians', 'deactivated');
    await updateNotificationSettings(server.ctx, off, { system: true, teamMembers: false, patients: true, newsAndUpdates: true, notifyViaEmail: false });
    await accepted([on.userId, off.userId, gone.userId]);
    const count = async (actor: Actor) => (await listNotifications(server.ctx, actor, {})).meta.total;
    expect([await count(on), await count(off), await count(gone)]).toEqual([1, 0, 0]);

    const admins = [await someone('clinic_it_admins'), await someone('clinic_it_admins')];
    await notify(server.ctx, { clinicId, to: { role: 'clinic_it_admins' }, event: 'invite_accepted', params: { name: 'Eva' } });
    expect(await Promise.all(admins.map(count))).toEqual([1, 1]);
  });

  it('keeps the settings of each user, with every category on and no e-mail before any are saved', async () => {
    const user = await someone();
    expect(await getNotificationSettings(server.ctx, user)).toEqual({ system: true, teamMembers: true, patients: true, newsAndUpdates: true, notifyViaEmail: false });
    const saved = { system: false, teamMembers: true, patients: false, newsAndUpdates: true, notifyViaEmail: true };
    expect(await updateNotificationSettings(server.ctx, user, saved)).toEqual(saved);
    expect(await getNotificationSettings(server.ctx, await someone())).toMatchObject({ system: true, notifyViaEmail: false });
  });
});

describe('the list and what a user may change', () => {
  it('lists unread first, each newest first, with the unread badge whatever the filter', async () => {
    const reader = await someone();
    for (const name of ['A', 'B', 'C']) {
      await accepted([reader.userId], name);
      server.clock.advance(1000);
    }
    const first = (await listNotifications(server.ctx, reader, {})).data;
    expect(first.map((n) => n.message.split(' ')[0])).toEqual(['C', 'B', 'A']);
    await markNotificationsRead(server.ctx, reader, [first[0]!.id]);

    const after = await listNotifications(server.ctx, reader, {});
    expect(after.data.map((n) => [n.message.split(' ')[0], n.read])).toEqual([
      ['B', false],
      ['A', false],
      ['C', true],
    ]);
    expect(after.meta).toMatchObject({ total: 3, unread: 2 });
    expect((await listNotifications(server.ctx, reader, { unread: false })).meta).toMatchObject({ total: 1, unread: 2 });
    expect((await listNotifications(server.ctx, { ...reader, lang: 'de' }, { perPage: 1 })).data[0]!.title).toBe('Einladung angenommen');
  });

  it('refuses ids that are not the user’s own (404) and changes nothing then; without ids it takes all of them', async () => {
    const owner = await someone();
    const other = await someone();
    await accepted([owner.userId]);
    await accepted([other.userId]);
    const [mine] = (await listNotifications(server.ctx, owner, {})).data;
    const [theirs] = (await listNotifications(server.ctx, other, {})).data;

    expect(await refusal(markNotificationsRead(server.ctx, owner, [mine!.id, theirs!.id]))).toMatchObject({ status: 404 });
    expect(await refusal(deleteNotifications(server.ctx, owner, [theirs!.id]))).toMatchObject({ status: 404 });
    expect((await listNotifications(server.ctx, owner, {})).meta.unread).toBe(1);
    expect((await listNotifications(server.ctx, other, {})).meta).toMatchObject({ total: 1, unread: 1 });

    // The ids are compared whatever their case.
    await markNotificationsRead(server.ctx, owner, [mine!.id.toUpperCase(), mine!.id]);
    expect((await listNotifications(server.ctx, owner, {})).meta.unread).toBe(0);
    await accepted([owner.userId]);
    await markNotificationsRead(server.ctx, owner, undefined);
    expect((await listNotifications(server.ctx, owner, {})).meta).toMatchObject({ total: 2, unread: 0 });
    await deleteNotifications(server.ctx, owner, undefined);
    expect((await listNotifications(server.ctx, owner, {})).meta.total).toBe(0);
    expect((await listNotifications(server.ctx, other, {})).meta.total).toBe(1);
  });
});
