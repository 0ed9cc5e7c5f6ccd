// E-mails that tell the owner of an account what was done to it (issue 27, defect 10): after every password
// change or reset, so that a change nobody asked for is noticed and reported. In the owner's language.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { translate, type Lang } from '../i18n';
import type { MailMessage } from '../mail/mailer';

const WHEN: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
};

/** The e-mail telling the user that their password was changed (by them, or through a reset link), and what to do if not. */
async function passwordChangedNotice(ctx: AppContext, userId: string): Promise<MailMessage | null> {
  const user = await ctx.db
    .selectFrom('users as u')
    .innerJoin('clinics as c', 'c.id', 'u.clinic_id')
    .select(['u.email', 'u.first_name', 'u.last_name', 'u.lang', 'c.name as clinic'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user) return null;
  const lang: Lang = user.lang === 'de' ? 'de' : 'en';
  const params = {
    name: `${user.first_name} ${user.last_name}`.trim(),
    email: user.email,
    clinic: user.clinic,
    when: `${WHEN[lang].format(ctx.clock.now())} UTC`,
    reset: `${ctx.config.publicUrl}/reset-password`,
  };
  return { to: user.email, subject: translate(lang, 'mail.password_changed.subject', params), text: translate(lang, 'mail.password_changed.body', params) };
}

/** Sends it after the answer; a failure is logged (the change itself stands). */
export function notifyPasswordChanged(ctx: AppContext, request: FastifyRequest, userId: string): void {
  void ctx.mailer
    .sendLater(() => passwordChangedNotice(ctx, userId))
    .catch((error: unknown) => request.log.error({ err: error }, 'password change notice failed'));
}
