// A changed e-mail address counts only once its owner confirms it from the new mailbox (issue 27, defect 1):
// otherwise a few minutes at an unlocked clinic PC, or an IT admin, could move an account's password resets to
// an address of their choosing. The request mails a link (kind "email", valid a day) to the new address and a
// notice to the old one; the confirmation changes the address, signs the account out everywhere (as any e-mail change),
// revokes its open reset links and tells the old address again.
import type { EmailConfirmationInfoData } from '../../generated/model/emailConfirmationInfoData';
import type { Origin } from '../actor';
import { type AppContext, logOf } from '../context';
import { HttpError } from '../http/errors';
import { translate, type Lang, type MessageKey } from '../i18n';
import { accountOwner, setEmail, type AccountOwner } from '../repositories/accounts';
import { endUserSessions } from '../repositories/sessions';
import { consumeLink, insertLink, openEmailLink, revokeOpenLinks } from '../repositories/user-tokens';
import { hashToken, newToken } from '../security/tokens';
import { noticeTime } from './account-notices';
import { audit, type AuditSource } from './audit';
import { auditLinkUse } from './user-tokens';
import { emailTaken, emailTakenError, isUniqueViolation } from './users';

/** How long a confirmation link works: the new mailbox may be read the next morning. */
export const EMAIL_LINK_MS = 24 * 60 * 60 * 1000;

/** Accounts whose address may change by confirmation (an open invite simply follows a new address instead). */
const CONFIRMABLE = ['active', 'deactivated'] as const;

const emailLinkInvalid = () => new HttpError(404, 'email_change.invalid_token', 'email_change.invalid_token');

function mail(owner: AccountOwner, to: string, key: 'email_confirm' | 'email_change_requested' | 'email_changed', params: Record<string, string>) {
  const lang: Lang = owner.lang === 'de' ? 'de' : 'en';
  const all = { name: `${owner.first_name} ${owner.last_name}`.trim(), clinic: owner.clinic, ...params };
  return {
    to,
    subject: translate(lang, `mail.${key}.subject` as MessageKey, all),
    text: translate(lang, `mail.${key}.body` as MessageKey, all),
  };
}

const whenIn = (owner: AccountOwner, at: Date) => noticeTime(owner.lang === 'de' ? 'de' : 'en', at);

/**
 * Asks the owner to confirm `newEmail`: an earlier open request is revoked, the link goes to the new address
 * and a notice to the current one. The address itself is unchanged until the link is used.
 */
export async function requestEmailChange(
  ctx: AppContext,
  source: AuditSource,
  { userId, newEmail, byAdmin }: { userId: string; newEmail: string; byAdmin: boolean },
): Promise<void> {
  const now = ctx.clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + EMAIL_LINK_MS);
  await ctx.db.transaction().execute(async (tx) => {
    await revokeOpenLinks(tx, [userId], now, 'email');
    await insertLink(tx, { userId, kind: 'email', email: newEmail, tokenHash: hashToken(token), now, expiresAt });
    await audit(tx, source, {
      action: 'email_change.requested',
      outcome: 'success',
      targetType: 'user',
      targetId: userId,
      detail: { byAdmin },
    });
  });
  const owner = await accountOwner(ctx.db, userId);
  if (!owner) return;
  const link = `${ctx.config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  const send = (message: ReturnType<typeof mail>) =>
    ctx.mailer.sendLater(async () => message).catch((error: unknown) => logOf(ctx).error({ err: error }, 'e-mail change mail failed'));
  void send(mail(owner, newEmail, 'email_confirm', { email: owner.email, newEmail, link, until: whenIn(owner, expiresAt) }));
  void send(
    mail(owner, owner.email, 'email_change_requested', {
      email: owner.email,
      newEmail,
      when: whenIn(owner, now),
      by: translate(owner.lang === 'de' ? 'de' : 'en', byAdmin ? 'mail.email_change_requested.by_admin' : 'mail.email_change_requested.by_self'),
    }),
  );
}

/** The open, unexpired confirmation link of a token, with the account it changes; null when there is none. */
async function findEmailLink(ctx: AppContext, token: string) {
  const link = await openEmailLink(ctx.db, hashToken(token));
  if (!link || !link.newEmail || link.expires_at <= ctx.clock.now()) return null;
  if (!(CONFIRMABLE as readonly string[]).includes(link.status)) return null;
  return { ...link, newEmail: link.newEmail };
}

/** What the confirmation page shows: the current and the new address, and until when the link works (404 when it does not). */
export async function emailLinkInfo(ctx: AppContext, token: string): Promise<EmailConfirmationInfoData> {
  const link = await findEmailLink(ctx, token);
  if (!link) throw emailLinkInvalid();
  return { email: link.email, newEmail: link.newEmail, expiresAt: link.expires_at.toISOString() };
}

/** Uses the link: the address changes, every session ends, open reset links stop working; the old address is told. */
export async function confirmEmailChange(ctx: AppContext, origin: Origin, token: string): Promise<void> {
  const link = await findEmailLink(ctx, token);
  if (!link) throw emailLinkInvalid();
  if (await emailTaken(ctx.db, link.newEmail, link.userId)) throw emailTakenError();
  const owner = await accountOwner(ctx.db, link.userId);
  const now = ctx.clock.now();
  // Another account may take the address between the check above and the update: the unique index says so.
  const used = await ctx.db
    .transaction()
    .execute(async (tx) => {
      if (!(await consumeLink(tx, link.tokenId, now))) return false;
      await setEmail(tx, link.userId, link.newEmail, now);
      await endUserSessions(tx, link.userId, 'email_changed', now);
      // A reset link mailed to the old address must not open the account afterwards.
      await revokeOpenLinks(tx, [link.userId], now, 'reset');
      await auditLinkUse(tx, origin, link, 'email_change.confirmed');
      return true;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailTakenError() : error;
    });
  if (!used) throw emailLinkInvalid();
  if (owner) {
    void ctx.mailer
      .sendLater(async () => mail(owner, owner.email, 'email_changed', { email: owner.email, newEmail: link.newEmail, when: whenIn(owner, now) }))
      .catch((error: unknown) => logOf(ctx).error({ err: error }, 'e-mail changed notice failed'));
  }
}
