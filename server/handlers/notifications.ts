// The caller's own notifications (rendered in the caller's language when read) and notification
// settings. Ids of other users' notifications are ignored, never revealed.
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ListNotificationsParams } from '../../generated/model/listNotificationsParams';
import type { Notification } from '../../generated/model/notification';
import type { NotificationCategory } from '../../generated/model/notificationCategory';
import type { NotificationDelete } from '../../generated/model/notificationDelete';
import type { NotificationRead } from '../../generated/model/notificationRead';
import type { NotificationSettings } from '../../generated/model/notificationSettings';
import type { AppContext } from '../context';
import type { NotificationRow } from '../db/tables';
import { notFound, unauthorized } from '../http/errors';
import type { Handler, Handlers } from '../http/handler';
import { done, success } from '../http/handler';
import { type Lang, translate } from '../i18n';
import { renderNotification } from '../services/notifications';
import { pageMeta } from '../db/listing';

function caller(request: FastifyRequest) {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

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

function toNotification(row: NotificationRow, lang: Lang): Notification {
  const { title, message } = renderNotification(lang, row.event, paramsOf(row.params));
  return {
    id: row.id,
    category: row.category as NotificationCategory,
    event: row.event,
    title,
    message,
    read: row.read_at !== null,
    link: row.link,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

const DEFAULT_SETTINGS: NotificationSettings = {
  system: true,
  teamMembers: true,
  patients: true,
  newsAndUpdates: true,
  notifyViaEmail: false,
};

export function notificationsHandlers(ctx: AppContext): Handlers {
  const { db } = ctx;

  const own = (request: FastifyRequest) => {
    const auth = caller(request);
    return db.selectFrom('notifications').where('user_id', '=', auth.userId).where('clinic_id', '=', auth.clinicId);
  };

  const listNotifications: Handler<{ Querystring: ListNotificationsParams }> = async (request) => {
    const page = request.query.page ?? 1;
    const perPage = request.query.perPage ?? 20;
    let query = own(request);
    if (request.query.unread === true) query = query.where('read_at', 'is', null);
    if (request.query.unread === false) query = query.where('read_at', 'is not', null);
    if (request.query.category) query = query.where('category', '=', request.query.category);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    // The badge: unread notifications of the user, whatever the filters.
    const { unread } = await own(request)
      .where('read_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('unread'))
      .executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      // Unread first (the badge's), each group newest first.
      .orderBy(sql`read_at is null`, 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return {
      status: 'Success',
      data: rows.map((row) => toNotification(row, request.lang)),
      meta: { ...pageMeta({ page, perPage }, Number(total)), unread: Number(unread) },
    };
  };

  // Listed ids must all be the caller's own notifications: any other (another user's, another clinic's, a
  // deleted one) names nothing of theirs, so the call answers 404 and changes nothing.
  const checkOwn = async (trx: typeof db, auth: ReturnType<typeof caller>, ids: string[]) => {
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    const own = await trx
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', auth.userId)
      .where('clinic_id', '=', auth.clinicId)
      .where('id', 'in', unique)
      .executeTakeFirstOrThrow();
    if (Number(own.count) !== unique.length) throw notFound();
  };

  const markNotificationsRead: Handler<{ Body: NotificationRead | undefined }> = async (request) => {
    const auth = caller(request);
    const ids = request.body?.ids;
    await db.transaction().execute(async (trx) => {
      if (ids) await checkOwn(trx, auth, ids);
      let query = trx
        .updateTable('notifications')
        .set({ read_at: ctx.clock.now() })
        .where('user_id', '=', auth.userId)
        .where('clinic_id', '=', auth.clinicId)
        .where('read_at', 'is', null);
      if (ids) query = query.where('id', 'in', ids);
      await query.execute();
    });
    return done(translate(request.lang, 'notifications.read'));
  };

  const deleteNotifications: Handler<{ Body: NotificationDelete | undefined }> = async (request) => {
    const auth = caller(request);
    const ids = request.body?.ids;
    await db.transaction().execute(async (trx) => {
      if (ids) await checkOwn(trx, auth, ids);
      let query = trx.deleteFrom('notifications').where('user_id', '=', auth.userId).where('clinic_id', '=', auth.clinicId);
      if (ids) query = query.where('id', 'in', ids);
      await query.execute();
    });
    return done(translate(request.lang, 'notifications.deleted'));
  };

  const settingsOf = async (userId: string): Promise<NotificationSettings> => {
    const row = await db.selectFrom('notification_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return DEFAULT_SETTINGS;
    return {
      system: row.system,
      teamMembers: row.team_members,
      patients: row.patients,
      newsAndUpdates: row.news_and_updates,
      notifyViaEmail: row.notify_via_email,
    };
  };

  const getNotificationSettings: Handler = async (request) => success(await settingsOf(caller(request).userId));

  const updateNotificationSettings: Handler<{ Body: NotificationSettings }> = async (request) => {
    const auth = caller(request);
    const body = request.body;
    const values = {
      system: body.system,
      team_members: body.teamMembers,
      patients: body.patients,
      news_and_updates: body.newsAndUpdates,
      notify_via_email: body.notifyViaEmail,
    };
    await db
      .insertInto('notification_settings')
      .values({ user_id: auth.userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    return success(await settingsOf(auth.userId), translate(request.lang, 'notifications.settings_saved'));
  };

  return {
    listNotifications,
    markNotificationsRead,
    deleteNotifications,
    getNotificationSettings,
    updateNotificationSettings,
  };
}
