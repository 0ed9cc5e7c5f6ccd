// Notifications for events that concern a user. Stored as event + parameters and rendered in the
// reader's language when read; sent by e-mail too when the user asked for it. A category the user
// switched off is not stored at all. Each new notification is announced on its user's realtime channel.
import type { AppContext } from '../context';
import { isMessageKey, type Lang, type MessageKey, translate } from '../i18n';
import { announce, event } from '../realtime/announce';

export type NotificationCategory = 'system' | 'team_members' | 'patients' | 'news_and_updates';
export type NotificationEvent =
  | 'invite_accepted'
  | 'deletion_requested'
  | 'patient_restored'
  | 'patient_erased'
  | 'password_expiring'
  | 'treatment_processed'
  | 'parameter_set_failed'
  | 'issue_reported';

export const CATEGORY_OF: Record<NotificationEvent, NotificationCategory> = {
  invite_accepted: 'team_members',
  deletion_requested: 'patients',
  patient_restored: 'patients',
  patient_erased: 'patients',
  password_expiring: 'system',
  treatment_processed: 'patients',
  parameter_set_failed: 'patients',
  issue_reported: 'patients',
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
}

/**
 * Title and message in the reader's language. A parameter named `…Key` holds a message key (a reason the server
 * words, say): it is worded in the reader's language too and fills the placeholder without `Key`.
 */
export function renderNotification(lang: Lang, event: string, params: Record<string, string | number>) {
  const title = `notification.${event}.title` as MessageKey;
  const message = `notification.${event}.message` as MessageKey;
  const worded = Object.fromEntries(
    Object.entries(params).map(([name, value]) =>
      name.endsWith('Key') && typeof value === 'string' && isMessageKey(value) ? [name.slice(0, -'Key'.length), translate(lang, value)] : [name, value],
    ),
  );
  return { title: translate(lang, title, worded), message: translate(lang, message, worded) };
}

export async function notify(ctx: AppContext, notification: NewNotification): Promise<void> {
  const category = CATEGORY_OF[notification.event];
  const setting = SETTING_OF[category];
  let recipients = ctx.db
    .selectFrom('users as u')
    .leftJoin('notification_settings as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.lang', `s.${setting} as enabled`, 's.notify_via_email'])
    .where('u.clinic_id', '=', notification.clinicId)
    .where('u.status', '=', 'active');
  recipients =
    'role' in notification.to
      ? recipients.where('u.role', '=', notification.to.role)
      : recipients.where('u.id', 'in', notification.to.userIds.length ? notification.to.userIds : ['00000000-0000-0000-0000-000000000000']);
  const params = notification.params ?? {};
  for (const user of await recipients.execute()) {
    // Without a settings row every category is on and e-mail is off (the defaults of the table).
    if (user.enabled === false) continue;
    const { id } = await ctx.db
      .insertInto('notifications')
      .values({
        clinic_id: notification.clinicId,
        user_id: user.id,
        category,
        event: notification.event,
        params: JSON.stringify(params),
        link: notification.link ?? null,
        created_at: ctx.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
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
