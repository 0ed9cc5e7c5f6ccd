// The caller's own notifications (rendered in the caller's language when read) and notification settings.
// The rules are server/services/notifications.ts.
import type { ListNotificationsParams } from '../../generated/model/listNotificationsParams';
import type { NotificationDelete } from '../../generated/model/notificationDelete';
import type { NotificationRead } from '../../generated/model/notificationRead';
import type { NotificationSettings } from '../../generated/model/notificationSettings';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import type { Handler, Handlers } from '../http/handler';
import { done, success } from '../http/handler';
import { translate } from '../i18n';
import * as notifications from '../services/notifications';

export function notificationsHandlers(ctx: AppContext) {
  const listNotifications: Handler<{ Querystring: ListNotificationsParams }> = async (request) => {
    const { data, meta } = await notifications.listNotifications(ctx, actorOf(request), request.query);
    return { status: 'Success', data, meta };
  };

  const markNotificationsRead: Handler<{ Body: NotificationRead | undefined }> = async (request) => {
    await notifications.markNotificationsRead(ctx, actorOf(request), request.body?.ids);
    return done(translate(request.lang, 'notifications.read'));
  };

  const deleteNotifications: Handler<{ Body: NotificationDelete | undefined }> = async (request) => {
    await notifications.deleteNotifications(ctx, actorOf(request), request.body?.ids);
    return done(translate(request.lang, 'notifications.deleted'));
  };

  const getNotificationSettings: Handler = async (request) => success(await notifications.getNotificationSettings(ctx, actorOf(request)));

  const updateNotificationSettings: Handler<{ Body: NotificationSettings }> = async (request) => {
    const settings = await notifications.updateNotificationSettings(ctx, actorOf(request), request.body);
    return success(settings, translate(request.lang, 'notifications.settings_saved'));
  };

  return {
    listNotifications,
    markNotificationsRead,
    deleteNotifications,
    getNotificationSettings,
    updateNotificationSettings,
  } satisfies Handlers;
}
