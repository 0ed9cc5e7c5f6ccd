// Notifications for events that concern a user. Stored as event + parameters and rendered in the
// reader's language when read; sent by e-mail too when the user asked for it. A category the user
// switched off is not stored at all. Each new notification is announced on its user's realtime channel.
// A user reads, marks and deletes only their own: ids of other users' notifications are never revealed.
import type { ListNotificationsParams } from '../../generated/model/listNotificationsParams';
import type { Notification } from '../../generated/model/notification';
import type { NotificationCategory as ContractCategory } from '../../generated/model/notificationCategory';
import type { NotificationSettings } from '../../generated/model/notificationSettings';
import type { Actor } from '../actor';
import type { AppContext } from '../context';
import { cachePerDatabase, versionStamp } from '../db/freshness';
import { pageMeta } from '../db/listing';
import type { NotificationRow, Queryable } from '../db/tables';
import { notFound } from '../http/errors';
import { isMessageKey, type Lang, type MessageKey, translate } from '../i18n';
import { announce, event } from '../realtime/announce';
import * as notifications from '../repositories/notifications';
import { auditRead } from './audit-reads';

export type NotificationCategory = 'system' | 'team_members' | 'patients' | 'news_and_updates';
export type NotificationEvent =
  | 'invite_accepted'
  | 'deletion_requested'
  | 'patient_restored'
  | 'patient_erased'
  | 'password_expiring'
  | 'treatment_processed'
  | 'parameter_set_failed'
  | 'issue_reported'
  | 'issue_report_withdrawn';

export const CATEGORY_OF: Record<NotificationEvent, NotificationCategory> = {
  invite_accepted: 'team_members',
  deletion_requested: 'patients',
  patient_restored: 'patients',
  patient_erased: 'patients',
  password_expiring: 'system',
  treatment_processed: 'patients',
  parameter_set_failed: 'patients',
  issue_reported: 'patients',
  issue_report_withdrawn: 'patients',
};

const SETTING_OF: Record<NotificationCategory, 'system' | 'team_members' | 'patients' | 'news_and_updates'> = {
  system: 'system',
  team_members: 'team_members',
  patients: 'patients',
  news_and_updates: 'news_and_updates',
};

export interface NewNotification {
  clinicId: string;
  /** Recipients by id, or every active user of the clinic with this role. */
  to: { userIds: string[] } | { role: string };
  event: NotificationEvent;
  params?: Record<string, string | number>;
  /** SPA path the notification leads to. */
  link?: string | null;
  /** A recipient left out (the one who did what the notification tells of). */
  except?: string;
}

/**
 * Title and message in the reader's language. A parameter named `…Key` holds a message key (a reason the server
 * words, say): it is worded in the reader's language too and fills the placeholder without `Key`.
 */
export function renderNotification(lang: Lang, event: string, params: Record<string, string | number>) {
  const title = `notification.${event}.title` as MessageKey;
  // Once its patient is erased, a notification keeps neither the name nor the reason (the erasure marks it
  // `erased`): its message says so instead of leaving gaps.
  const erasedMessage = `notification.${event}.erased`;
  // A notification worded for IT admins (no clinical details: `audience: 'it_admin'`) has a message of its own.
  const audienceMessage = `notification.${event}.${String(params.audience)}`;
  const message = (
    params.erased
      ? isMessageKey(erasedMessage)
        ? erasedMessage
        : 'notification.erased_patient'
      : params.audience && isMessageKey(audienceMessage)
        ? audienceMessage
        : `notification.${event}.message`
  ) as MessageKey;
  const worded = Object.fromEntries(
    Object.entries(params).map(([name, value]) =>
      name.endsWith('Key') && typeof value === 'string' && isMessageKey(value) ? [name.slice(0, -'Key'.length), translate(lang, value)] : [name, value],
    ),
  );
  return { title: translate(lang, title, worded), message: translate(lang, message, worded) };
}

export async function notify(ctx: AppContext, notification: NewNotification): Promise<void> {
  const category = CATEGORY_OF[notification.event];
  const params = notification.params ?? {};
  for (const user of await notifications.recipients(ctx.db, notification.clinicId, notification.to, SETTING_OF[category])) {
    // Without a settings row every category is on and e-mail is off (the defaults of the table).
    if (user.enabled === false || user.id === notification.except) continue;
    const id = await notifications.insertNotification(ctx.db, {
      clinic_id: notification.clinicId,
      user_id: user.id,
      category,
      event: notification.event,
      params: JSON.stringify(params),
      link: notification.link ?? null,
      created_at: ctx.clock.now(),
    });
    // Inside a transaction, the caller's context holds this back until the commit (heldAnnouncements).
    announce(ctx, [event('notification.created', user.id, { notificationId: id })]);
    if (user.notify_via_email) {
      const lang = user.lang === 'de' ? 'de' : 'en';
      const { title, message } = renderNotification(lang, notification.event, params);
      const link = notification.link ? `\n\n${ctx.config.publicUrl}${notification.link}` : '';
      await ctx.mailer.send({ to: user.email, subject: title, text: `${message}${link}\n` });
    }
  }
}

// ---- The user's own notifications ----------------------------------------------------------------------

/** Stored parameters as an object (a JSON string from some drivers; anything else is no parameters). */
function paramsOf(value: unknown): Record<string, string | number> {
  if (typeof value === 'string') {
    try {
      return paramsOf(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' ? (value as Record<string, string | number>) : {};
}

export function toNotification(row: NotificationRow, lang: Lang): Notification {
  const { title, message } = renderNotification(lang, row.event, paramsOf(row.params));
  return {
    id: row.id,
    category: row.category as ContractCategory,
    event: row.event,
    title,
    message,
    read: row.read_at !== null,
    link: row.link,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

// The list is served from the ids of each filter in the list's order, kept while the user's notifications are
// unchanged (the version 'notifications:<user>', migration 0016) with the unread count: a page, deep or not,
// reads only its own rows by id, and a page read again (the first, mostly) is kept too and costs no query.
interface OwnList {
  ids: string[];
  unread: number;
}

/** The ordered ids of this many lists (a user's, under one filter), and this many pages, per database. */
const lists = cachePerDatabase<OwnList>(128);
const pages = cachePerDatabase<NotificationRow[]>(1024);

/** A page of the actor's notifications in the actor's language, with the unread count for the badge. */
export async function listNotifications(ctx: AppContext, actor: Actor, q: ListNotificationsParams) {
  const page = q.page ?? 1;
  const perPage = q.perPage ?? 20;
  const filter = { unread: q.unread, category: q.category };
  const key = JSON.stringify([actor.userId, actor.clinicId, filter]);
  const stamp = await versionStamp(ctx.db, [`notifications:${actor.userId}`]);
  const list = await lists(ctx.db).get(key, stamp, async () => ({
    ids: await notifications.ownIds(ctx.db, actor, filter),
    unread: await notifications.countUnread(ctx.db, actor),
  }));
  const rows = await pages(ctx.db).get(`${key} ${page} ${perPage}`, stamp, async () => {
    const pageIds = list.ids.slice((page - 1) * perPage, page * perPage);
    const byId = new Map((await notifications.ownByIds(ctx.db, actor, pageIds)).map((row) => [row.id, row]));
    // A notification deleted since the ids were read is left out (the next request reads them again).
    return pageIds.flatMap((id) => byId.get(id) ?? []);
  });
  // Notifications that name patients are a read of patient data: the access log names them.
  const patientIds = rows.map((row) => paramsOf(row.params).patientId).filter((id): id is string => typeof id === 'string');
  if (patientIds.length) {
    await auditRead(ctx.db, actor, { action: 'notification.list', outcome: 'success', targetType: 'notification', patientIds, detail: { count: rows.length } });
  }
  return { data: rows.map((row) => toNotification(row, actor.lang)), meta: { ...pageMeta({ page, perPage }, list.ids.length), unread: list.unread } };
}

/**
 * Listed ids must all be the actor's own notifications: any other (another user's, another clinic's, a deleted
 * one) names nothing of theirs, so the call answers 404 and changes nothing.
 */
async function assertOwn(db: Queryable, actor: Actor, ids: string[]): Promise<void> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if ((await notifications.countOwn(db, actor, unique)) !== unique.length) throw notFound();
}

/** Marks the actor's notifications read: those of `ids`, or all. */
export async function markNotificationsRead(ctx: AppContext, actor: Actor, ids: string[] | undefined): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    if (ids) await assertOwn(tx, actor, ids);
    await notifications.markOwnRead(tx, actor, ids, ctx.clock.now());
  });
}

/** Deletes the actor's notifications: those of `ids`, or all. */
export async function deleteNotifications(ctx: AppContext, actor: Actor, ids: string[] | undefined): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    if (ids) await assertOwn(tx, actor, ids);
    await notifications.deleteOwn(tx, actor, ids);
  });
}

const DEFAULT_SETTINGS: NotificationSettings = {
  system: true,
  teamMembers: true,
  patients: true,
  newsAndUpdates: true,
  notifyViaEmail: false,
};

export async function getNotificationSettings(ctx: AppContext, actor: Actor): Promise<NotificationSettings> {
  const row = await notifications.findSettings(ctx.db, actor.userId);
  if (!row) return DEFAULT_SETTINGS;
  return {
    system: row.system,
    teamMembers: row.team_members,
    patients: row.patients,
    newsAndUpdates: row.news_and_updates,
    notifyViaEmail: row.notify_via_email,
  };
}

export async function updateNotificationSettings(ctx: AppContext, actor: Actor, body: NotificationSettings): Promise<NotificationSettings> {
  await notifications.saveSettings(ctx.db, actor.userId, {
    system: body.system,
    team_members: body.teamMembers,
    patients: body.patients,
    news_and_updates: body.newsAndUpdates,
    notify_via_email: body.notifyViaEmail,
  });
  return getNotificationSettings(ctx, actor);
}
