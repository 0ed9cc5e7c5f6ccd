// Sign-in, logout, password recovery and invitations (the public account calls).
import type { FastifyRequest } from 'fastify';
import type { AcceptInvite } from '../../generated/model/acceptInvite';
import type { GetResetConfirmationParams } from '../../generated/model/getResetConfirmationParams';
import type { GetUserInviteParams } from '../../generated/model/getUserInviteParams';
import type { Invite } from '../../generated/model/invite';
import type { ResetConfirmation } from '../../generated/model/resetConfirmation';
import type { EmailConfirmation } from '../../generated/model/emailConfirmation';
import type { EmailConfirmationInfoData } from '../../generated/model/emailConfirmationInfoData';
import type { GetEmailConfirmationParams } from '../../generated/model/getEmailConfirmationParams';
import type { ResetPasswordRequest } from '../../generated/model/resetPasswordRequest';
import type { ResetTokenInfoData } from '../../generated/model/resetTokenInfoData';
import type { Role } from '../../generated/model/role';
import type { SignInRequest } from '../../generated/model/signInRequest';
import type { SignInResponseData } from '../../generated/model/signInResponseData';
import type { AppContext } from '../context';
import { conflict, HttpError, invalid, unauthorized } from '../http/errors';
import { done, success, type Handler, type Handlers } from '../http/handler';
import { translate } from '../i18n';
import { hashPassword, verifyPassword } from '../security/password-hash';
import { policyFor } from '../security/policy';
import {
  accountKey,
  addressKey,
  assertNotThrottled,
  clearAccountFailures,
  clearFailures,
  failAndSlowDown,
  isKnownAddress,
  lockedFor,
  pairKey,
  recordFailure,
  signInKeys,
  throttled,
  type ThrottleRule,
} from '../security/throttle';
import { hashToken } from '../security/tokens';
import { consumeLink, pendingEmailOf } from '../services/user-tokens';
import { issueResetLink, RESET_LINK_MS, resetLinkUrl } from '../services/reset-links';
import { notifyPasswordChanged } from '../services/account-notices';
import { audit } from '../services/audit';
import { confirmEmailChange, emailLinkInvalid, findEmailLink } from '../services/email-change';
import { notify } from '../services/notifications';
import { announce, event } from '../realtime/announce';
import {
  assertNewPassword,
  createSession,
  endSession,
  endUserSessions,
  toProfile,
  warnOfPasswordExpiry,
} from '../services/sessions';

/** Versions of the legal texts a user accepts on account setup (the SPA's /eula and /privacy-policy). */
export const EULA_VERSION = '2026-01';
export const PRIVACY_NOTICE_VERSION = '2026-01';

const MINUTE = 60_000;
/** Reset requests from one address: 20 within 15 minutes, then 429 for 15 minutes. */
const RESET_ADDRESS_RULE: ThrottleRule = { limit: 20, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
/** Reset e-mails to one account: at most 5 within 15 minutes (further requests get the same answer, no mail). */
const RESET_MAIL_RULE: ThrottleRule = { limit: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };

const normalEmail = (email: string) => email.trim().toLowerCase();

const invalidCredentials = () => unauthorized('auth.invalid_credentials', 'auth.invalid_credentials');
const inviteNotFound = () => new HttpError(404, 'invite.not_found', 'invite.not_found');
const resetInvalid = () => new HttpError(404, 'reset.invalid_token', 'reset.invalid_token');

function userAgentOf(request: FastifyRequest): string | null {
  const value = request.headers['user-agent'];
  return typeof value === 'string' ? value : null;
}

export function authHandlers(ctx: AppContext): Handlers {
  const findUserByEmail = (email: string) =>
    ctx.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', normalEmail(email)))
      .executeTakeFirst();

  // An open (unused, unrevoked) link of a kind, with its user; expiry is left to the caller.
  const findLink = (token: string, kind: 'invite' | 'reset') =>
    ctx.db
      .selectFrom('user_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .innerJoin('clinics as c', 'c.id', 'u.clinic_id')
      .select([
        't.id as tokenId',
        't.expires_at',
        'u.id as userId',
        'u.clinic_id',
        'u.email',
        'u.first_name',
        'u.last_name',
        'u.role',
        'u.status',
        'c.name as clinicName',
      ])
      .where('t.token_hash', '=', hashToken(token))
      .where('t.kind', '=', kind)
      .where('t.used_at', 'is', null)
      .where('t.revoked_at', 'is', null)
      .executeTakeFirst();

  const findInvite = async (token: string) => {
    const link = await findLink(token, 'invite');
    // Only users still waiting for their account have a usable invite (not e.g. a deactivated one).
    return link && (link.status === 'pending' || link.status === 'invite_expired') ? link : null;
  };

  const findReset = async (token: string) => {
    const link = await findLink(token, 'reset');
    return link && link.status === 'active' && link.expires_at > ctx.clock.now() ? link : null;
  };

  const signIn: Handler<{ Body: SignInRequest }> = async (request) => {
    const { email, password } = request.body;
    const remember = request.body.remember ?? true;
    const user = await findUserByEmail(email);
    // Where the account signed in before, only its own failures from there can hold it back: colleagues
    // behind the clinic's shared address are not locked out by someone else's guesses.
    const knownAddress = await isKnownAddress(ctx, user?.id ?? null, request.ip);
    const keys = signInKeys(email, request.ip, knownAddress);
    const lockedSeconds = await lockedFor(ctx, keys.check);
    if (lockedSeconds > 0) {
      await audit(ctx.db, request, { action: 'signIn', outcome: 'denied', detail: { reason: 'throttled' } });
      throw throttled(lockedSeconds);
    }

    // The hash is checked whatever the account's state, so that answers take the same time.
    const passwordOk = await verifyPassword(user?.password_hash ?? null, password);
    if (!user || !passwordOk || user.status !== 'active') {
      await audit(ctx.db, request, {
        action: 'signIn',
        outcome: 'failure',
        clinicId: user?.clinic_id ?? null,
        targetType: user ? 'user' : undefined,
        targetId: user?.id,
        detail: { reason: !user ? 'unknown_account' : !passwordOk ? 'wrong_password' : `status_${user.status}` },
      });
      await failAndSlowDown(ctx, keys.count);
      throw invalidCredentials();
    }

    // The account's own count from this address starts again; its count over all addresses does not, or
    // one success would reset guessing spread over many addresses.
    await clearFailures(ctx, pairKey(email, request.ip));
    const now = ctx.clock.now();
    const session = await createSession(ctx, user, { remember, ip: request.ip, userAgent: userAgentOf(request) });
    await ctx.db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute();
    await audit(ctx.db, request, {
      action: 'signIn',
      outcome: 'success',
      clinicId: user.clinic_id,
      actorId: user.id,
      actorRole: user.role,
      targetType: 'user',
      targetId: user.id,
      detail: { remember },
    });
    const clinic = await ctx.db.selectFrom('clinics').select('name').where('id', '=', user.clinic_id).executeTakeFirstOrThrow();
    const policy = await policyFor(ctx.db, user.clinic_id, user.id);
    await warnOfPasswordExpiry(ctx, user, policy, now);
    const data: SignInResponseData = {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      profile: { ...toProfile({ ...user, last_sign_in_at: now }, clinic.name, policy, now), pendingEmail: await pendingEmailOf(ctx.db, user.id, now) },
    };
    return success(data);
  };

  const logout: Handler = async (request) => {
    const auth = request.auth!;
    await endSession(ctx.db, auth.sessionId, 'logout', ctx.clock.now());
    await audit(ctx.db, request, { action: 'logout', outcome: 'success', targetType: 'user', targetId: auth.userId });
    return done(translate(request.lang, 'auth.logged_out'));
  };

  const resetPassword: Handler<{ Body: ResetPasswordRequest }> = async (request) => {
    const ipKey = `reset:${addressKey(request.ip)}`;
    await assertNotThrottled(ctx, [ipKey]);
    // Every request counts for the address (not only failures): the answer never tells which is which.
    await recordFailure(ctx, ipKey, RESET_ADDRESS_RULE);
    const answer = done(translate(request.lang, 'reset.requested'));

    // A request does the same work before its answer whether the address has an account or not (the
    // same queries and one audit row); the link and its e-mail are made after the answer. Neither the
    // answer nor its time tells which addresses have accounts. The e-mail limit is kept per address asked
    // for, so it too behaves alike for addresses without an account.
    const mailKey = `reset:${accountKey(request.body.email)}`;
    const mailAllowed = (await lockedFor(ctx, [mailKey])) === 0;
    if (mailAllowed) await recordFailure(ctx, mailKey, RESET_MAIL_RULE);
    const found = await findUserByEmail(request.body.email);
    const user = found?.status === 'active' ? found : null;
    const sending = user !== null && mailAllowed;
    await audit(ctx.db, request, {
      action: 'resetPassword',
      outcome: sending ? 'success' : user ? 'denied' : 'failure',
      clinicId: user?.clinic_id ?? null,
      targetType: user ? 'user' : undefined,
      targetId: user?.id,
      ...(sending ? {} : { detail: { reason: user ? 'throttled' : 'no_active_account' } }),
    });
    if (!sending || !user) return answer;
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
      .catch((error: unknown) => request.log.error({ err: error }, 'reset link or e-mail failed'));
    return answer;
  };

  const getResetConfirmation: Handler<{ Querystring: GetResetConfirmationParams }> = async (request) => {
    const link = await findReset(request.query.token);
    if (!link) throw resetInvalid();
    const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
    const data: ResetTokenInfoData = {
      email: link.email,
      passwordStrength: policy.strength,
      expiresAt: link.expires_at.toISOString(),
    };
    return success(data);
  };

  const resetConfirmation: Handler<{ Body: ResetConfirmation }> = async (request) => {
    const { token, password, passwordConfirmation } = request.body;
    const link = await findReset(token);
    if (!link) throw resetInvalid();
    const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
    assertNewPassword({ password, passwordConfirmation, strength: policy.strength, email: link.email });

    const hash = await hashPassword(password);
    const now = ctx.clock.now();
    const used = await ctx.db.transaction().execute(async (tx) => {
      if (!(await consumeLink(tx, link.tokenId, now))) return false;
      await tx
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now, must_change_password: false, updated_at: now })
        .where('id', '=', link.userId)
        .execute();
      await endUserSessions(tx, link.userId, 'password_reset', now);
      return true;
    });
    if (!used) throw resetInvalid();
    // A successful reset unlocks the account, from every address.
    await clearAccountFailures(ctx, link.email);
    await audit(ctx.db, request, {
      action: 'resetConfirmation',
      outcome: 'success',
      clinicId: link.clinic_id,
      actorId: link.userId,
      actorRole: link.role,
      targetType: 'user',
      targetId: link.userId,
    });
    notifyPasswordChanged(ctx, request, link.userId);
    return done(translate(request.lang, 'reset.done'));
  };

  const getEmailConfirmation: Handler<{ Querystring: GetEmailConfirmationParams }> = async (request) => {
    const link = await findEmailLink(ctx, request.query.token);
    if (!link) throw emailLinkInvalid();
    const data: EmailConfirmationInfoData = { email: link.email, newEmail: link.newEmail, expiresAt: link.expires_at.toISOString() };
    return success(data);
  };

  const confirmEmail: Handler<{ Body: EmailConfirmation }> = async (request) => {
    await confirmEmailChange(ctx, request, request.body.token);
    return done(translate(request.lang, 'email_change.confirmed'));
  };

  const getUserInvite: Handler<{ Querystring: GetUserInviteParams }> = async (request) => {
    const link = await findInvite(request.query.token);
    if (!link) throw inviteNotFound();
    const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
    const data: Invite = {
      email: link.email,
      firstName: link.first_name,
      lastName: link.last_name,
      role: link.role as Role,
      clinicName: link.clinicName,
      // Who sent the link is not recorded with it (see the report of issue 3).
      invitedBy: null,
      passwordStrength: policy.strength,
      expiresAt: link.expires_at.toISOString(),
      expired: link.expires_at <= ctx.clock.now(),
      eulaVersion: EULA_VERSION,
      privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
    };
    return success(data);
  };

  const acceptInvite: Handler<{ Body: AcceptInvite }> = async (request) => {
    const { token, password, passwordConfirmation } = request.body;
    // The contract already insists on `true`; kept here so the rule holds whatever validates the body.
    const consent: Record<string, ('validation.eula_required' | 'validation.privacy_required')[]> = {};
    if ((request.body.acceptEula as boolean) !== true) consent.acceptEula = ['validation.eula_required'];
    if ((request.body.acceptPrivacyNotice as boolean) !== true) consent.acceptPrivacyNotice = ['validation.privacy_required'];

    const link = await findInvite(token);
    if (!link) throw inviteNotFound();
    if (link.expires_at <= ctx.clock.now()) throw conflict('invite.expired', 'invite.expired');
    const policy = await policyFor(ctx.db, link.clinic_id, link.userId);
    assertNewPassword({ password, passwordConfirmation, strength: policy.strength, email: link.email }, consent);
    if (Object.keys(consent).length) throw invalid(consent);

    const hash = await hashPassword(password);
    const now = ctx.clock.now();
    const accepted = await ctx.db.transaction().execute(async (tx) => {
      if (!(await consumeLink(tx, link.tokenId, now))) return false;
      await tx
        .updateTable('users')
        .set({
          password_hash: hash,
          password_changed_at: now,
          must_change_password: false,
          status: 'active',
          invite_status: 'accepted',
          eula_accepted_at: now,
          eula_version: EULA_VERSION,
          privacy_accepted_at: now,
          privacy_version: PRIVACY_NOTICE_VERSION,
          updated_at: now,
        })
        .where('id', '=', link.userId)
        .execute();
      return true;
    });
    if (!accepted) throw inviteNotFound();
    announce(ctx, [event('users.changed', link.clinic_id, { userIds: [link.userId] })]);
    await audit(ctx.db, request, {
      action: 'acceptInvite',
      outcome: 'success',
      clinicId: link.clinic_id,
      actorId: link.userId,
      actorRole: link.role,
      targetType: 'user',
      targetId: link.userId,
      detail: { eulaVersion: EULA_VERSION, privacyNoticeVersion: PRIVACY_NOTICE_VERSION },
    });
    try {
      await notify(ctx, {
        clinicId: link.clinic_id,
        to: { role: 'clinic_it_admins' },
        event: 'invite_accepted',
        params: { name: `${link.first_name} ${link.last_name}`.trim() },
        link: '/admin/physicians',
      });
    } catch (error) {
      // The account is active either way; a notification e-mail that fails must not undo that answer.
      request.log.error({ err: error }, 'invite_accepted notification failed');
    }
    return done(translate(request.lang, 'invite.accepted'));
  };

  return {
    signIn,
    logout,
    resetPassword,
    getResetConfirmation,
    resetConfirmation,
    getEmailConfirmation,
    confirmEmailChange: confirmEmail,
    getUserInvite,
    acceptInvite,
  };
}
