// Two-factor sign-in for the signed-in user (set up, switch off, new recovery codes) and the IT admin's reset of a
// user's second factor. The second sign-in step itself is in auth.ts, beside the first; the rules are
// server/services/two-factor.ts.
import type { TwoFactorConfirmation } from '../../generated/model/twoFactorConfirmation';
import type { TwoFactorEnrolmentRequest } from '../../generated/model/twoFactorEnrolmentRequest';
import type { TwoFactorPasswordRequest } from '../../generated/model/twoFactorPasswordRequest';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import { done, success, type Handler, type Handlers } from '../http/handler';
import { translate } from '../i18n';
import * as twoFactor from '../services/two-factor';

export function twoFactorHandlers(ctx: AppContext) {
  const startTwoFactorEnrolment: Handler<{ Body: TwoFactorEnrolmentRequest }> = async (request) =>
    success(await twoFactor.startEnrolment(ctx, actorOf(request), request.auth!, request.body.currentPassword));

  const confirmTwoFactor: Handler<{ Body: TwoFactorConfirmation }> = async (request) => {
    const recoveryCodes = await twoFactor.confirmEnrolment(ctx, actorOf(request), request.body.code);
    return success({ recoveryCodes }, translate(request.lang, 'two_factor.enabled'));
  };

  const disableTwoFactor: Handler<{ Body: TwoFactorPasswordRequest }> = async (request) => {
    await twoFactor.disableSecondFactor(ctx, actorOf(request), request.body.currentPassword);
    return done(translate(request.lang, 'two_factor.disabled'));
  };

  const renewRecoveryCodes: Handler<{ Body: TwoFactorPasswordRequest }> = async (request) => {
    const recoveryCodes = await twoFactor.renewRecoveryCodes(ctx, actorOf(request), request.body.currentPassword);
    return success({ recoveryCodes }, translate(request.lang, 'two_factor.codes_renewed'));
  };

  const resetTwoFactor: Handler<{ Params: { id: string } }> = async (request) => {
    await twoFactor.resetSecondFactor(ctx, actorOf(request), request.params.id);
    return done(translate(request.lang, 'two_factor.reset'));
  };

  return { startTwoFactorEnrolment, confirmTwoFactor, disableTwoFactor, renewRecoveryCodes, resetTwoFactor } satisfies Handlers;
}
