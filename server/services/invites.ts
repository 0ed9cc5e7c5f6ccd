// Invitations: a 7-day link per user; a new invite revokes the previous link.
import type { AppContext } from '../context';
import { type Lang, translate } from '../i18n';
import * as invites from '../repositories/invites';
import { revokeOpenLinks } from '../repositories/user-tokens';
import { hashToken, newToken } from '../security/tokens';

export const INVITE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Invitee {
  id: string;
  email: string;
  first_name: string;
  clinic_id: string;
}

/** Revokes open links, issues a new one, marks the user invited and sends the e-mail. */
export async function issueInvite(ctx: AppContext, user: Invitee, lang: Lang): Promise<Date> {
  const now = ctx.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + INVITE_DAYS * DAY_MS);
  const names = await ctx.db.transaction().execute(async (tx) => {
    await revokeOpenLinks(tx, [user.id], now, 'invite');
    await invites.insertInvite(tx, user.id, hashToken(token), expiresAt, now);
    return invites.inviteeNames(tx, user.id);
  });
  const link = `${ctx.config.publicUrl}/approve-account?token=${encodeURIComponent(token)}`;
  // The full name as saved: the salutation ("Guten Tag Eva Roth,") must not depend on gender or a first name alone.
  const name = `${names.first_name} ${names.last_name}`.trim();
  const params = { name, clinic: names.name, link, days: INVITE_DAYS };
  await ctx.mailer.send({
    to: user.email,
    subject: translate(lang, 'mail.invite.subject', params),
    text: translate(lang, 'mail.invite.body', params),
  });
  return expiresAt;
}

/** Invited users whose last link ran out become invite_expired (run before reading users). */
export async function expireInvites(ctx: AppContext, clinicId: string): Promise<void> {
  await invites.expireInvites(ctx.db, clinicId, ctx.clock.now());
}
