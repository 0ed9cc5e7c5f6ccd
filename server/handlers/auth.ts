// Sign-in, logout, password recovery, e-mail confirmation and invitations (the public account calls).
import type { FastifyRequest } from 'fastify';
import type { AcceptInvite } from '../../generated/model/acceptInvite';
import type { EmailConfirmation } from '../../generated/model/emailConfirmation';
import type { GetEmailConfirmationParams } from '../../generated/model/getEmailConfirmationParams';
import type { GetResetConfirmationParams } from '../../generated/model/getResetConfirmationParams';
import type { GetUserInviteParams } from '../../generated/model/getUserInviteParams';
import type { ResetConfirmation } from '../../generated/model/resetConfirmation';
import type { ResetPasswordRequest } from '../../generated/model/resetPasswordRequest';
import type { SecondFactorRequest } from '../../generated/model/secondFactorRequest';
import type { SignInRequest } from '../../generated/model/signInRequest';
import type { AppContext } from '../context';
import { actorOf, originOf } from '../http/actor';
import { done, success, type Handler, type Handlers } from '../http/handler';
import { translate } from '../i18n';
import * as emailChange from '../services/email-change';
import * as invites from '../services/invite-acceptance';
import * as resets from '../services/reset-links';
import * as signing from '../services/sign-in';

/** The caller of a sign-in step, with the browser it names. */
function signInOriginOf(request: FastifyRequest): signing.SignInOrigin {
  const userAgent = request.headers['user-agent'];
  return { ...originOf(request), userAgent: typeof userAgent === 'string' ? userAgent : null };
}

export function authHandlers(ctx: AppContext) {
  const signIn: Handler<{ Body: SignInRequest }> = async (request) => success(await signing.signIn(ctx, signInOriginOf(request), request.body));

  const signInSecondFactor: Handler<{ Body: SecondFactorRequest }> = async (request) =>
    success(await signing.signInSecondFactor(ctx, signInOriginOf(request), request.body));

  const logout: Handler = async (request) => {
    await signing.logout(ctx, actorOf(request));
    return done(translate(request.lang, 'auth.logged_out'));
  };

  const resetPassword: Handler<{ Body: ResetPasswordRequest }> = async (request) => {
    await resets.requestPasswordReset(ctx, originOf(request), request.body.email);
    return done(translate(request.lang, 'reset.requested'));
  };

  const getResetConfirmation: Handler<{ Querystring: GetResetConfirmationParams }> = async (request) =>
    success(await resets.resetLinkInfo(ctx, request.query.token));

  const resetConfirmation: Handler<{ Body: ResetConfirmation }> = async (request) => {
    await resets.resetPassword(ctx, originOf(request), request.body);
    return done(translate(request.lang, 'reset.done'));
  };

  const getEmailConfirmation: Handler<{ Querystring: GetEmailConfirmationParams }> = async (request) =>
    success(await emailChange.emailLinkInfo(ctx, request.query.token));

  const confirmEmailChange: Handler<{ Body: EmailConfirmation }> = async (request) => {
    await emailChange.confirmEmailChange(ctx, originOf(request), request.body.token);
    return done(translate(request.lang, 'email_change.confirmed'));
  };

  const getUserInvite: Handler<{ Querystring: GetUserInviteParams }> = async (request) => success(await invites.inviteOf(ctx, request.query.token));

  const acceptInvite: Handler<{ Body: AcceptInvite }> = async (request) => {
    await invites.acceptInvite(ctx, originOf(request), request.body);
    return done(translate(request.lang, 'invite.accepted'));
  };

  return {
    signIn,
    signInSecondFactor,
    logout,
    resetPassword,
    getResetConfirmation,
    resetConfirmation,
    getEmailConfirmation,
    confirmEmailChange,
    getUserInvite,
    acceptInvite,
  } satisfies Handlers;
}
