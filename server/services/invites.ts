// Invitations: a 7-day link per user; a new invite revokes the previous link.
import type { AppContext } from '../context';
import { type Lang, translate } from '../i18n';
import { hashToken, newToken } from '../security/tokens';
import { revokeOpenLinks } from './user-tokens';

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
  const clinic = await ctx.db.transaction().execute(async (tx) => {
    await revokeOpenLinks(tx, [user.id], now, 'invite');
    await tx
      .insertInto('user_tokens')
      .values({ user_id: user.id, kind: 'invite', token_hash: hashToken(token), expires_at: expiresAt })
      .execute();
    await tx
      .updateTable('users')
      .set({ status: 'pending', invite_status: 'pending', updated_at: now })
      .where('id', '=', user.id)
      .execute();
    return tx
      .selectFrom('clinics as c')
      .innerJoin('users as u', 'u.clinic_id', 'c.id')
      .select(['c.name', 'u.first_name', 'u.last_name'])
      .where('u.id', '=', user.id)
      .executeTakeFirstOrThrow();
  });
  const link = `${ctx.config.publicUrl}/approve-account?token=${encodeURIComponent(token)}`;
  // The full name as saved: the salutation ("Guten Tag Eva Roth,") must not depend on gender or a first name alone.
  const name = `${clinic.first_name} ${clinic.last_name}`.trim();
  const params = { name, clinic: clinic.name, link, days: INVITE_DAYS };
  await ctx.mailer.send({
    to: user.email,
    subject: translate(lang, 'mail.invite.subject', params),
    text: translate(lang, 'mail.invite.body', params),
  });
  return expiresAt;
}

/** Invited users whose last link ran out become invite_expired (run before reading users). */
export async function expireInvites(ctx: AppContext, clinicId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db
    .updateTable('users')
    .set({ status: 'invite_expired', invite_status: 'invite_expired' })
    .where('clinic_id', '=', clinicId)
    .where('status', '=', 'pending')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('user_tokens as t')
            .select('t.id')
            .whereRef('t.user_id', '=', 'users.id')
            .where('t.kind', '=', 'invite')
            .where('t.used_at', 'is', null)
            .where('t.revoked_at', 'is', null)
            .where('t.expires_at', '>', now),
        ),
      ),
    )
    .execute();
}
