// The signed-in user's own profile and password, and the avatar images of the clinic's staff. The rules are
// server/services/profile.ts and passwords.ts.
import type { PasswordChange } from '../../generated/model/passwordChange';
import type { AppContext } from '../context';
import { actorOf } from '../http/actor';
import { done, success, type Handler, type Handlers } from '../http/handler';
import { translate } from '../i18n';
import * as passwords from '../services/passwords';
import * as profiles from '../services/profile';

export function profileHandlers(ctx: AppContext) {
  const getProfile: Handler = async (request) => {
    const actor = actorOf(request);
    return success(await profiles.loadProfile(ctx, actor.userId, actor.clinicId, request.auth!.twoFactorEnrolmentRequired));
  };

  const updateProfile: Handler<{ Body: profiles.ProfileChange | undefined }> = async (request) => {
    const body = request.body && typeof request.body === 'object' ? request.body : {};
    const { profile, newEmail } = await profiles.updateProfile(ctx, actorOf(request), request.auth!, body);
    const message = newEmail === null ? translate(request.lang, 'profile.updated') : translate(request.lang, 'profile.email_confirmation_sent', { email: newEmail });
    return success(profile, message);
  };

  const changePassword: Handler<{ Body: PasswordChange }> = async (request) => {
    await passwords.changePassword(ctx, actorOf(request), request.auth!, request.body);
    return done(translate(request.lang, 'password.changed'));
  };

  const getUserAvatar: Handler<{ Params: { id: string } }> = async (request, reply) => {
    const { file, type } = await profiles.avatarOf(ctx, actorOf(request), request.params.id);
    reply
      .header('Content-Type', type)
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', 'inline')
      .header('Content-Length', file.size);
    return reply.send(file.stream);
  };

  return { getProfile, updateProfile, changePassword, getUserAvatar } satisfies Handlers;
}
