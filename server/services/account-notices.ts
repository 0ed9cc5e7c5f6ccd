// E-mails that tell the owner of an account what was done to it (issue 27, defect 10): after every password
// change or reset, every change to the second factor, and when IT admin rights are granted (to the clinic's other
// IT admins too), so that a change nobody asked for is noticed and reported. In each reader's language.
import { type AppContext, logOf } from '../context';
import { translate, type Lang } from '../i18n';
import type { MailMessage } from '../mail/mailer';
import { accountOwner, usersAndActiveItAdmins } from '../repositories/accounts';
import { clinicName } from '../repositories/clinic';

const WHEN: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }),
};

/** A point in time as the notices write it, in the reader's language: "27 November 2026 at 10:00 UTC". */
export const noticeTime = (lang: Lang, at: Date) => `${WHEN[lang].format(at)} UTC`;

/** What an account notice tells its owner: a password change or reset, or a change to the second factor. */
export type AccountChange = 'password_changed' | 'two_factor_enabled' | 'two_factor_disabled' | 'two_factor_reset' | 'recovery_codes_renewed';

/** The e-mail telling the user what was done to their account (by them, or by an IT admin), and what to do if not. */
async function accountNotice(ctx: AppContext, userId: string, change: AccountChange): Promise<MailMessage | null> {
  const user = await accountOwner(ctx.db, userId);
  if (!user) return null;
  const lang: Lang = user.lang === 'de' ? 'de' : 'en';
  const params = {
    name: `${user.first_name} ${user.last_name}`.trim(),
    email: user.email,
    clinic: user.clinic,
    when: noticeTime(lang, ctx.clock.now()),
    reset: `${ctx.config.publicUrl}/reset-password`,
  };
  return { to: user.email, subject: translate(lang, `mail.${change}.subject`, params), text: translate(lang, `mail.${change}.body`, params) };
}

/** Sends it after the answer; a failure is logged (the change itself stands). */
export function notifyAccountChange(ctx: AppContext, userId: string, change: AccountChange): void {
  void ctx.mailer
    .sendLater(() => accountNotice(ctx, userId, change))
    .catch((error: unknown) => logOf(ctx).error({ err: error, change }, 'account notice failed'));
}

export const notifyPasswordChanged = (ctx: AppContext, userId: string): void => notifyAccountChange(ctx, userId, 'password_changed');

interface Reader {
  email: string;
  first_name: string;
  last_name: string;
  lang: string;
}

const nameOf = (user: Pick<Reader, 'first_name' | 'last_name'>) => `${user.first_name} ${user.last_name}`.trim();

/** The e-mails of an IT admin grant: to the user, and to every other active IT admin of the clinic. */
async function itAdminGrantNotices(ctx: AppContext, { userId, grantedBy, clinicId, invited }: ItAdminGrant): Promise<MailMessage[]> {
  const people = await usersAndActiveItAdmins(ctx.db, clinicId, [userId, grantedBy]);
  const user = people.find((person) => person.id === userId);
  const actor = people.find((person) => person.id === grantedBy);
  if (!user || !actor) return [];
  const clinic = await clinicName(ctx.db, clinicId);
  const now = ctx.clock.now();
  const message = (reader: Reader, key: 'it_admin_granted' | 'it_admin_granted_other') => {
    const lang: Lang = reader.lang === 'de' ? 'de' : 'en';
    const params = { name: nameOf(reader), user: `${nameOf(user)} (${user.email})`, by: nameOf(actor), clinic, when: noticeTime(lang, now) };
    return { to: reader.email, subject: translate(lang, `mail.${key}.subject`, params), text: translate(lang, `mail.${key}.body`, params) };
  };
  const others = people.filter((person) => person.role === 'clinic_it_admins' && person.status === 'active' && person.id !== userId && person.id !== grantedBy);
  const toOthers = others.map((admin) => message(admin, 'it_admin_granted_other'));
  return invited ? toOthers : [message(user, 'it_admin_granted'), ...toOthers];
}

export interface ItAdminGrant {
  userId: string;
  grantedBy: string;
  clinicId: string;
  /** A new user invited as IT admin: the invite tells them, the notice goes to the other IT admins only. */
  invited?: boolean;
}

/** Writes them now and sends them after the answer; a failure to send is logged (the grant stands, and is audited). */
export async function notifyItAdminGranted(ctx: AppContext, grant: ItAdminGrant): Promise<void> {
  for (const message of await itAdminGrantNotices(ctx, grant)) {
    void ctx.mailer.sendLater(async () => message).catch((error: unknown) => logOf(ctx).error({ err: error }, 'IT admin grant notice failed'));
  }
}
