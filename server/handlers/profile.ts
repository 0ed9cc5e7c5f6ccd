// The signed-in user's own profile, password and the avatar images of the clinic's staff.
import type { PasswordChange } from '../../generated/model/passwordChange';
import type { ProfileForm } from '../../generated/model/profileForm';
import type { AppContext } from '../context';
import type { UserUpdate } from '../db/tables';
import { HttpError, invalid, notFound } from '../http/errors';
import { done, success, type Handler, type Handlers } from '../http/handler';
import { type MessageKey, translate } from '../i18n';
import type { FastifyRequest } from 'fastify';
import { hashPassword, verifyPassword } from '../security/password-hash';
import { policyFor } from '../security/policy';
import { confirmPassword } from '../security/throttle';
import { notifyPasswordChanged } from '../services/account-notices';
import { audit } from '../services/audit';
import { readAvatarUpload, type AvatarUpload } from '../services/avatars';
import { requestEmailChange } from '../services/email-change';
import { emailTaken, emailTakenError, isUniqueViolation } from '../services/users';
import { revokeOpenLinks } from '../services/user-tokens';
import { assertNewPassword, clinicUser, endUserSessions, loadProfile } from '../services/sessions';
import { removeUnreferenced } from '../storage';

/** How long a sign-in with an expired password stands for the current password at /new-password. */
const FRESH_SIGN_IN_MS = 15 * 60 * 1000;

/** The multipart body as the parser leaves it: text fields as strings, the file part as a Buffer. */
type ProfileFormBody = Omit<ProfileForm, 'avatar'> & { avatar?: unknown };

const PROFILE_FIELDS = ['firstName', 'lastName', 'physicianName', 'email', 'lang', 'avatar', 'removeAvatar'] as const;

export function profileHandlers(ctx: AppContext): Handlers {
  const getProfile: Handler = async (request) => {
    const { userId, clinicId } = request.auth!;
    return success(await loadProfile(ctx, userId, clinicId));
  };

  const updateProfile: Handler<{ Body: ProfileFormBody | undefined }> = async (request) => {
    const { userId, clinicId } = request.auth!;
    const body: ProfileFormBody = request.body && typeof request.body === 'object' ? request.body : {};
    const given = PROFILE_FIELDS.filter((field) => body[field] !== undefined);
    if (!given.length) throw new HttpError(422, 'profile.nothing_to_change', 'profile.nothing_to_change');
    // Before a required new password, only the language may change (the one chosen on the sign-in page is saved).
    if (request.auth!.passwordChangeRequired && given.some((field) => field !== 'lang')) {
      throw new HttpError(403, 'auth.password_change_required', 'auth.password_change_required');
    }

    const user = await clinicUser(ctx.db, userId, clinicId);

    const now = ctx.clock.now();
    const changes: UserUpdate = {};
    const errors: Record<string, MessageKey[]> = {};
    for (const field of ['firstName', 'lastName'] as const) {
      const value = body[field];
      if (value === undefined) continue;
      const trimmed = value.trim();
      if (!trimmed) errors[field] = ['validation.required'];
      else changes[field === 'firstName' ? 'first_name' : 'last_name'] = trimmed;
    }
    if (body.physicianName !== undefined) changes.physician_name = body.physicianName.trim() || null;
    if (body.lang !== undefined) changes.lang = body.lang;

    // A new address needs the current password and counts once confirmed from its mailbox (issue 27, defect 1).
    let newEmail: string | null = null;
    if (body.email !== undefined) {
      const email = body.email.trim();
      if (!email) errors.email = ['validation.email'];
      else if (email.toLowerCase() !== user.email.toLowerCase()) {
        if (await emailTaken(ctx.db, email, user.id)) throw emailTakenError();
        newEmail = email;
      } else if (email !== user.email) {
        changes.email = email; // only the spelling of the same address
      }
    }
    if (newEmail !== null) {
      if (!body.currentPassword) errors.currentPassword = ['validation.required'];
      else if (!(await confirmPassword(ctx, user, body.currentPassword))) {
        errors.currentPassword = ['validation.current_password_wrong'];
        await audit(ctx.db, request, {
          action: 'updateProfile',
          outcome: 'failure',
          targetType: 'user',
          targetId: user.id,
          detail: { reason: 'wrong_current_password' },
        });
      }
    }
    if (Object.keys(errors).length) throw invalid(errors);

    // The image is checked (content, size) before anything is stored.
    let avatar: AvatarUpload | null = null;
    if (body.avatar !== undefined) avatar = readAvatarUpload(body.avatar);
    const removeAvatar = !avatar && body.removeAvatar === '1';

    let newAvatarPath: string | null = null;
    if (avatar) {
      newAvatarPath = await ctx.files.put(clinicId, 'avatars', avatar.data);
      changes.avatar_path = newAvatarPath;
      changes.avatar_type = avatar.type;
    } else if (removeAvatar) {
      changes.avatar_path = null;
      changes.avatar_type = null;
    }

    try {
      if (Object.keys(changes).length) {
        await ctx.db
          .updateTable('users')
          .set({ ...changes, updated_at: now })
          .where('id', '=', user.id)
          .where('clinic_id', '=', clinicId)
          .execute();
      }
    } catch (error) {
      if (newAvatarPath) await removeUnreferenced(request.log, `the avatar ${newAvatarPath}`, () => ctx.files.remove(newAvatarPath!));
      if (isUniqueViolation(error)) throw emailTakenError();
      throw error;
    }
    if (newEmail !== null) await requestEmailChange(ctx, request, { userId: user.id, newEmail, byAdmin: false });
    const replaced = user.avatar_path;
    if ((avatar || removeAvatar) && replaced) await removeUnreferenced(request.log, `the replaced avatar ${replaced}`, () => ctx.files.remove(replaced));

    await audit(ctx.db, request, {
      action: 'updateProfile',
      outcome: 'success',
      targetType: 'user',
      targetId: user.id,
      detail: { fields: given },
    });
    const message = newEmail === null ? translate(request.lang, 'profile.updated') : translate(request.lang, 'profile.email_confirmation_sent', { email: newEmail });
    return success(await loadProfile(ctx, user.id, clinicId), message);
  };

  /** A password change asked of a session that signed in with its expired password within the last 15 minutes. */
  const freshlySignedInToRenew = async (request: FastifyRequest): Promise<boolean> => {
    const { sessionId, passwordChangeRequired } = request.auth!;
    if (passwordChangeRequired !== 'expired') return false;
    const session = await ctx.db.selectFrom('auth_sessions').select('created_at').where('id', '=', sessionId).executeTakeFirst();
    return session !== undefined && ctx.clock.now().getTime() - session.created_at.getTime() <= FRESH_SIGN_IN_MS;
  };

  const changePassword: Handler<{ Body: PasswordChange }> = async (request) => {
    const { userId, clinicId, sessionId } = request.auth!;
    const { currentPassword, password, passwordConfirmation } = request.body;
    const user = await ctx.db
      .selectFrom('users')
      .select(['id', 'email', 'password_hash'])
      .where('id', '=', userId)
      .where('clinic_id', '=', clinicId)
      .executeTakeFirst();
    if (!user) throw notFound();
    const errors: Record<string, MessageKey[]> = {};
    // Right after signing in with an expired password, the sign-in proved it: /new-password does not ask again.
    const proven = !currentPassword && (await freshlySignedInToRenew(request));
    // Guessing the current password through this call counts on the user's own re-authentication key.
    const currentOk = proven || (currentPassword ? await confirmPassword(ctx, user, currentPassword) : false);
    if (!currentPassword && !proven) {
      errors.currentPassword = ['validation.required'];
    } else if (!currentOk) {
      errors.currentPassword = ['validation.current_password_wrong'];
      await audit(ctx.db, request, {
        action: 'changePassword',
        outcome: 'failure',
        targetType: 'user',
        targetId: user.id,
        detail: { reason: 'wrong_current_password' },
      });
    } else if (currentPassword ? password === currentPassword : await verifyPassword(user.password_hash, password)) {
      errors.password = ['validation.password_unchanged'];
    }
    const policy = await policyFor(ctx.db, clinicId, userId);
    assertNewPassword({ password, passwordConfirmation, strength: policy.strength, email: user.email }, errors);

    const hash = await hashPassword(password);
    const now = ctx.clock.now();
    await ctx.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now, must_change_password: false, updated_at: now })
        .where('id', '=', user.id)
        .execute();
      await endUserSessions(tx, user.id, 'password_changed', now, { except: sessionId });
      // A reset link asked for earlier must not set the password back afterwards.
      await revokeOpenLinks(tx, [user.id], now, 'reset');
    });
    await audit(ctx.db, request, { action: 'changePassword', outcome: 'success', targetType: 'user', targetId: user.id });
    notifyPasswordChanged(ctx, request, user.id);
    return done(translate(request.lang, 'password.changed'));
  };

  const getUserAvatar: Handler<{ Params: { id: string } }> = async (request, reply) => {
    const { clinicId } = request.auth!;
    const user = await ctx.db
      .selectFrom('users')
      .select(['avatar_path', 'avatar_type'])
      .where('id', '=', request.params.id)
      .where('clinic_id', '=', clinicId)
      .executeTakeFirst();
    if (!user?.avatar_path) throw notFound();
    const file = await ctx.files.open(user.avatar_path);
    if (!file) throw notFound();
    const type = user.avatar_type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
    reply
      .header('Content-Type', type)
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', 'inline')
      .header('Content-Length', file.size);
    return reply.send(file.stream);
  };

  return { getProfile, updateProfile, changePassword, getUserAvatar };
}
