// Password reset links (user_tokens of kind "reset"): one open link per user, a new one revokes the others.
// Asked for on the sign-in page ("Forgot password?", valid an hour) or sent by a forced reset of the IT admin,
// which also clears the password (valid a day: the e-mail may be read the next morning). Using one sets a new
// password, ends every session and unlocks the account.
import type { ResetTokenInfoData } from '../../generated/model/resetTokenInfoData';
import type { Origin } from '../actor';
import { type AppContext, logOf } from '../context';
import type { Queryable } from '../db/tables';
import { HttpError } from '../http/errors';
import { translate } from '../i18n';
import { accountByEmail, setPassword } from '../repositories/accounts';
import { endUserSessions } from '../repositories/sessions';
import { consumeLink, insertLink, openAccountLink, revokeOpenLinks } from '../repositories/user-tokens';
import { hashPassword } from '../security/password-hash';
import { policyFor } from '../security/policy';
import { accountKey, addressKey, assertNotThrottled, clearAccountFailures, lockedFor, recordFailure, type ThrottleRule } from '../security/throttle';
import { hashToken, newToken } from '../security/tokens';
import { notifyPasswordChanged } from './account-notices';
import { audit } from './audit';
import { assertNewPassword } from './passwords';
import { auditLinkUse } from './user-tokens';

const MINUTE = 60_000;
const HOUR_MS = 60 * MINUTE;
/** A link asked for on the sign-in page. */
export const RESET_LINK_MS = HOUR_MS;
/** A link sent with a forced reset. */
export const FORCED_RESET_LINK_MS = 24 * HOUR_MS;

/** Reset requests from one address: 20 within 15 minutes, then 429 for 15 minutes. */
const RESET_ADDRESS_RULE: ThrottleRule = { limit: 20, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** Reset e-mails to one account: at most 5 within 15 minutes (further requests get the same answer, no mail). */
const RESET_MAIL_RULE: ThrottleRule = { limit: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

const resetInvalid = () => new HttpError(404, 'reset.invalid_token', 'reset.invalid_token');

/** Revokes the users' open reset links and issues a new one; its token, for the e-mail's link only. */
export async function issueResetLink(db: Queryable, userId: string, now: Date, validMs: number): Promise<string> {
  const token = newToken();
  await revokeOpenLinks(db, [userId], now, 'reset');
  await insertLink(db, { userId, kind: 'reset', tokenHash: hashToken(token), now, expiresAt: new Date(now.getTime() + validMs) });
  return token;
}

/** The page a reset link opens. */
export const resetLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/new-password?token=${encodeURIComponent(token)}`;

/**
 * "Forgot password?": a link by e-mail to an active account. The caller learns nothing: the request does the same
 * work before its answer whether the address has an account or not (the same queries and one audit row); the link
 * and its e-mail are made after the answer. The e-mail limit is kept per address asked for, so it too behaves
 * alike for addresses without an account. 429 while the caller's address has asked too often.
 */
export async function requestPasswordReset(ctx: AppContext, origin: Origin, email: string): Promise<void> {
  const ipKey = `reset:${addressKey(origin.ip ?? '')}`;
  await assertNotThrottled(ctx, [ipKey]);
  // Every request counts for the address (not only failures): the answer never tells which is which.
  await recordFailure(ctx, ipKey, RESET_ADDRESS_RULE);

  const mailKey = `reset:${accountKey(email)}`;
  const mailAllowed = (await lockedFor(ctx, [mailKey])) === 0;
  if (mailAllowed) await recordFailure(ctx, mailKey, RESET_MAIL_RULE);
  const found = await accountByEmail(ctx.db, email);
  const user = found?.status === 'active' ? found : null;
  const sending = user !== null && mailAllowed;
  await audit(ctx.db, origin, {
    action: 'resetPassword',
    outcome: sending ? 'success' : user ? 'denied' : 'failure',
    clinicId: user?.clinic_id ?? null,
    targetType: user ? 'user' : undefined,
    targetId: user?.id,
    ...(sending ? {} : { detail: { reason: user ? 'throttled' : 'no_active_account' } }),
  });
  if (!sending || !user) return;
  void ctx.mailer
    .sendLater(async () => {
      const token = await ctx.db.transaction().execute((tx) => issueResetLink(tx, user.id, ctx.clock.now(), RESET_LINK_MS));
      // The e-mail goes out in the user's own language (the one the profile chose).
      const lang = user.lang === 'de' ? 'de' : 'en';
      const link = resetLinkUrl(ctx.config.publicUrl, token);
      const params = { name: `${user.first_name} ${user.last_name}`.trim(), link, minutes: RESET_LINK_MS / MINUTE };
      return { to: user.email, subject: translate(lang, 'mail.reset.subject', params), text: translate(lang, 'mail.reset.body', params) };
    })
    // The answer is gone already, the same as for an unknown address; the fault is logged.
    .catch((error: unknown) => logOf(ctx).error({ err: error }, 'reset link or e-mail failed'));
}

/** The open, unexpired reset link of an active account; 404 for any other. */
async function openResetLink(ctx: AppContext, token: string) {
  const link = await openAccountLink(ctx.db, hashToken(token), 'reset');
  if (!link || link.status !== 'active' || link.expires_at <= ctx.clock.now()) throw resetInvalid();
  return link;
}

/** What the new-password page shows of a reset link: whose it is, the strength asked for, until when it works. */
export async function resetLinkInfo(ctx: AppContext, token: string): Promise<ResetTokenInfoData> {
  const link = await openResetLink(ctx, token);
  const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
  return { email: link.email, passwordStrength: policy.strength, expiresAt: link.expires_at.toISOString() };
}

/**
 * Sets the new password from a reset link: once (of two requests with one link, one), every session ends, and the
 * account is unlocked from every address; the owner is told by e-mail.
 */
export async function resetPassword(
  ctx: AppContext,
  origin: Origin,
  { token, password, passwordConfirmation }: { token: string; password: string; passwordConfirmation: string },
): Promise<void> {
  const link = await openResetLink(ctx, token);
  const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
  await assertNewPassword({ password, passwordConfirmation, strength: policy.strength, email: link.email, firstName: link.first_name, lastName: link.last_name, lang: origin.lang });

  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  const used = await ctx.db.transaction().execute(async (tx) => {
    if (!(await consumeLink(tx, link.tokenId, now))) return false;
    await setPassword(tx, link.userId, hash, now);
    await endUserSessions(tx, link.userId, 'password_reset', now);
    return true;
  });
  if (!used) throw resetInvalid();
  // A successful reset unlocks the account, from every address.
  await clearAccountFailures(ctx, link.email);
  await auditLinkUse(ctx.db, origin, link, 'resetConfirmation');
  notifyPasswordChanged(ctx, link.userId);
}
