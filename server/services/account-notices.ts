// E-mails that tell the owner of an account what was done to it (issue 27, defect 10): after every password
// change or reset, and when IT admin rights are granted (to the clinic's other IT admins too), so that a change
// nobody asked for is noticed and reported. In each reader's language.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { translate, type Lang } from '../i18n';
import type { MailMessage } from '../mail/mailer';

const WHEN: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
};

/** A point in time as the notices write it, in the reader's language: "27 November 2026 at 10:00 UTC". */
export const noticeTime = (lang: Lang, at: Date) => `${WHEN[lang].format(at)} UTC`;

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
    when: noticeTime(lang, ctx.clock.now()),
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

interface Reader {
  email: string;
  first_name: string;
  last_name: string;
  lang: string;
}

const nameOf = (user: Pick<Reader, 'first_name' | 'last_name'>) => `${user.first_name} ${user.last_name}`.trim();

/** The e-mails of an IT admin grant: to the user, and to every other active IT admin of the clinic. */
async function itAdminGrantNotices(ctx: AppContext, { userId, grantedBy, clinicId }: ItAdminGrant): Promise<MailMessage[]> {
  const people = await ctx.db
    .selectFrom('users')
    .select(['id', 'email', 'first_name', 'last_name', 'lang', 'role', 'status'])
    .where('clinic_id', '=', clinicId)
    .where((eb) => eb.or([eb('id', 'in', [userId, grantedBy]), eb.and([eb('role', '=', 'clinic_it_admins'), eb('status', '=', 'active')])]))
    .execute();
  const clinic = await ctx.db.selectFrom('clinics').select('name').where('id', '=', clinicId).executeTakeFirst();
  const user = people.find((person) => person.id === userId);
  const actor = people.find((person) => person.id === grantedBy);
  if (!user || !actor || !clinic) return [];
  const now = ctx.clock.now();
  const message = (reader: Reader, key: 'it_admin_granted' | 'it_admin_granted_other') => {
    const lang: Lang = reader.lang === 'de' ? 'de' : 'en';
    const params = { name: nameOf(reader), user: `${nameOf(user)} (${user.email})`, by: nameOf(actor), clinic: clinic.name, when: noticeTime(lang, now) };
    return { to: reader.email, subject: translate(lang, `mail.${key}.subject`, params), text: translate(lang, `mail.${key}.body`, params) };
  };
  const others = people.filter((person) => person.role === 'clinic_it_admins' && person.status === 'active' && person.id !== userId && person.id !== grantedBy);
  return [message(user, 'it_admin_granted'), ...others.map((admin) => message(admin, 'it_admin_granted_other'))];
}

export interface ItAdminGrant {
  userId: string;
  grantedBy: string;
  clinicId: string;
}

/** Writes them now and sends them after the answer; a failure to send is logged (the grant stands, and is audited). */
export async function notifyItAdminGranted(ctx: AppContext, request: FastifyRequest, grant: ItAdminGrant): Promise<void> {
  for (const message of await itAdminGrantNotices(ctx, grant)) {
    void ctx.mailer.sendLater(async () => message).catch((error: unknown) => request.log.error({ err: error }, 'IT admin grant notice failed'));
  }
}
