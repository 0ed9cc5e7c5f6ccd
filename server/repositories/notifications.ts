// The queries of notifications: a user's own (list, count, mark read, delete), their notification settings,
// and the recipients and rows of new ones. Each takes the database or a transaction.
import { type Insertable, type Selectable, sql } from 'kysely';
import type { NotificationRow, Queryable, Tables } from '../db/tables';

type NotificationSettingsRow = Selectable<Tables['notification_settings']>;

/** Whose notifications: a user of a clinic. */
export interface Owner {
  userId: string;
  clinicId: string;
}

const own = (db: Queryable, owner: Owner) =>
  db.selectFrom('notifications').where('user_id', '=', owner.userId).where('clinic_id', '=', owner.clinicId);

export interface NotificationFilter {
  /** true: unread only; false: read only. */
  unread?: boolean;
  category?: string;
}

/** The ids of the user's notifications that match, unread first (the badge's), each group newest first. */
export async function ownIds(db: Queryable, owner: Owner, filter: NotificationFilter): Promise<string[]> {
  let query = own(db, owner).select('id');
  if (filter.unread === true) query = query.where('read_at', 'is', null);
  if (filter.unread === false) query = query.where('read_at', 'is not', null);
  if (filter.category) query = query.where('category', '=', filter.category);
  const rows = await query
    .orderBy(sql`read_at is null`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => row.id);
}

/** How many of the user's notifications are unread (the badge). */
export async function countUnread(db: Queryable, owner: Owner): Promise<number> {
  const { unread } = await own(db, owner)
    .where('read_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('unread'))
    .executeTakeFirstOrThrow();
  return Number(unread);
}

/** The user's notifications of `ids`, in no particular order. */
export function ownByIds(db: Queryable, owner: Owner, ids: string[]): Promise<NotificationRow[]> {
  return ids.length ? own(db, owner).selectAll().where('id', 'in', ids).execute() : Promise.resolve([]);
}

/** How many of `ids` are the user's own notifications. */
export async function countOwn(db: Queryable, owner: Owner, ids: string[]): Promise<number> {
  const { count } = await own(db, owner)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The user's unread notifications (all, or those of `ids`) are read from `now`. */
export async function markOwnRead(db: Queryable, owner: Owner, ids: string[] | undefined, now: Date): Promise<void> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', owner.userId)
    .where('clinic_id', '=', owner.clinicId)
    .where('read_at', 'is', null);
  if (ids) query = query.where('id', 'in', ids);
  await query.execute();
}

/** Deletes the user's notifications (all, or those of `ids`). */
export async function deleteOwn(db: Queryable, owner: Owner, ids: string[] | undefined): Promise<void> {
  let query = db.deleteFrom('notifications').where('user_id', '=', owner.userId).where('clinic_id', '=', owner.clinicId);
  if (ids) query = query.where('id', 'in', ids);
  await query.execute();
}

export function findSettings(db: Queryable, userId: string): Promise<NotificationSettingsRow | undefined> {
  return db.selectFrom('notification_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export type SettingsValues = Omit<NotificationSettingsRow, 'user_id'>;

export async function saveSettings(db: Queryable, userId: string, values: SettingsValues): Promise<void> {
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

export type SettingColumn = 'system' | 'team_members' | 'patients' | 'news_and_updates';

/**
 * The clinic's active users among `to` (ids, or everyone with a role), with whether the setting `setting` is
 * on (null: they have no settings row) and whether they want notifications by e-mail.
 */
export function recipients(db: Queryable, clinicId: string, to: { userIds: string[] } | { role: string }, setting: SettingColumn) {
  const query = db
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.lang', `s.${setting} as enabled`, 's.notify_via_email'])
    .where('u.clinic_id', '=', clinicId)
    .where('u.status', '=', 'active');
  return ('role' in to
    ? query.where('u.role', '=', to.role)
    : query.where('u.id', 'in', to.userIds.length ? to.userIds : ['00000000-0000-0000-0000-000000000000'])
  ).execute();
}

export async function insertNotification(db: Queryable, values: Insertable<Tables['notifications']>): Promise<string> {
  return (await db.insertInto('notifications').values(values).returning('id').executeTakeFirstOrThrow()).id;
}
