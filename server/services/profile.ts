// The signed-in user's own Profile as the contract describes it, its changes (names, language, address, avatar),
// and the avatar images of the clinic's staff.
import type { Profile } from '../../generated/model/profile';
import type { ProfileForm } from '../../generated/model/profileForm';
import type { Role } from '../../generated/model/role';
import type { Actor } from '../actor';
import { type AppContext, logOf } from '../context';
import type { Queryable, UserRow, UserUpdate } from '../db/tables';
import { HttpError, invalid, notFound } from '../http/errors';
import type { MessageKey } from '../i18n';
import { clinicAccount } from '../repositories/accounts';
import { clinicName } from '../repositories/clinic';
import { unusedRecoveryCodes } from '../repositories/two-factor';
import { pendingEmailOf } from '../repositories/user-tokens';
import { updateStaff } from '../repositories/users';
import { nextPasswordChange, passwordChangeReason, policyFor, twoFactorRequired, type UserPolicy } from '../security/policy';
import { removeUnreferenced } from '../storage';
import type { StoredFile } from '../storage/store';
import { audit } from './audit';
import { avatarUrl, readAvatarUpload, type AvatarUpload } from './avatars';
import { requestEmailChange } from './email-change';
import { confirmCurrentPassword } from './passwords';
import type { SessionState } from './sessions';
import { emailTaken, emailTakenError, isUniqueViolation } from './users';

/** Maps a user row, its clinic's name and its policy to the contract's Profile. */
export function toProfile(user: UserRow, clinicName: string, policy: UserPolicy, now: Date): Profile {
  const next = nextPasswordChange(user.password_changed_at, policy);
  return {
    id: user.id,
    lang: user.lang === 'de' ? 'de' : 'en',
    role: user.role as Role,
    avatar: avatarUrl(user.id, user.avatar_path),
    physicianName: user.physician_name,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    clinicId: user.clinic_id,
    clinicName,
    passwordStrength: policy.strength,
    passwordChangeRequired: passwordChangeReason(user.must_change_password, user.password_changed_at, policy, now),
    nextPasswordChange: next ? next.toISOString() : null,
    logoutAfterSeconds: policy.idleMs === null ? null : Math.max(60, Math.round(policy.idleMs / 1000)),
  };
}

/**
 * The Profile with what needs a query of its own: an address waiting for confirmation, the recovery codes left.
 * `setupRequired`: the caller's session must set up a second factor before anything else.
 */
export async function profileOf(ctx: AppContext, user: UserRow, clinicName: string, policy: UserPolicy, now: Date, setupRequired: boolean): Promise<Profile> {
  return {
    ...toProfile(user, clinicName, policy, now),
    pendingEmail: await pendingEmailOf(ctx.db, user.id, now),
    twoFactor: {
      enabled: user.totp_enabled_at !== null,
      required: twoFactorRequired(policy, user.role),
      setupRequired: setupRequired && user.totp_enabled_at === null,
      recoveryCodesLeft: user.totp_enabled_at === null ? 0 : await unusedRecoveryCodes(ctx.db, user.id),
    },
  };
}

/** The user row of a user of `clinicId` (404 when there is none). */
export async function clinicUser(db: Queryable, userId: string, clinicId: string): Promise<UserRow> {
  const user = await clinicAccount(db, userId, clinicId);
  if (!user) throw notFound();
  return user;
}

/** The Profile of a user of `clinicId` (404 when there is none), as the caller's session sees it. */
export async function loadProfile(ctx: AppContext, userId: string, clinicId: string, setupRequired = false): Promise<Profile> {
  const user = await clinicUser(ctx.db, userId, clinicId);
  const clinic = await clinicName(ctx.db, clinicId);
  const policy = await policyFor(ctx.db, clinicId, userId);
  return profileOf(ctx, user, clinic, policy, ctx.clock.now(), setupRequired);
}

/** The multipart body as the parser leaves it: text fields as strings, the file part as a Buffer. */
export type ProfileChange = Omit<ProfileForm, 'avatar'> & { avatar?: unknown };

const PROFILE_FIELDS = ['firstName', 'lastName', 'physicianName', 'email', 'lang', 'avatar', 'removeAvatar'] as const;

/**
 * Changes the actor's own profile. Before a required new password or second factor only the language may change
 * (the one chosen on the sign-in page is saved). A new address needs the current password and counts once
 * confirmed from its mailbox (issue 27, defect 1): `newEmail` names the address a link was sent to.
 */
export async function updateProfile(
  ctx: AppContext,
  actor: Actor,
  session: SessionState,
  body: ProfileChange,
): Promise<{ profile: Profile; newEmail: string | null }> {
  const given = PROFILE_FIELDS.filter((field) => body[field] !== undefined);
  if (!given.length) throw new HttpError(422, 'profile.nothing_to_change', 'profile.nothing_to_change');
  if (session.passwordChangeRequired && given.some((field) => field !== 'lang')) {
    throw new HttpError(403, 'auth.password_change_required', 'auth.password_change_required');
  }
  if (session.twoFactorEnrolmentRequired && given.some((field) => field !== 'lang')) {
    throw new HttpError(403, 'auth.two_factor_required', 'auth.two_factor_required');
  }

  const { clinicId } = actor;
  const user = await clinicUser(ctx.db, actor.userId, clinicId);
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
    else if (!(await confirmCurrentPassword(ctx, actor, user, body.currentPassword, 'updateProfile'))) {
      errors.currentPassword = ['validation.current_password_wrong'];
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
    if (Object.keys(changes).length) await updateStaff(ctx.db, clinicId, user.id, { ...changes, updated_at: now });
  } catch (error) {
    if (newAvatarPath) await removeUnreferenced(logOf(ctx), `the avatar ${newAvatarPath}`, () => ctx.files.remove(newAvatarPath!));
    if (isUniqueViolation(error)) throw emailTakenError();
    throw error;
  }
  if (newEmail !== null) await requestEmailChange(ctx, actor, { userId: user.id, newEmail, byAdmin: false });
  const replaced = user.avatar_path;
  if ((avatar || removeAvatar) && replaced) await removeUnreferenced(logOf(ctx), `the replaced avatar ${replaced}`, () => ctx.files.remove(replaced));

  await audit(ctx.db, actor, {
    action: 'updateProfile',
    outcome: 'success',
    targetType: 'user',
    targetId: user.id,
    detail: { fields: given },
  });
  return { profile: await loadProfile(ctx, user.id, clinicId, session.twoFactorEnrolmentRequired), newEmail };
}

/** The avatar image of a user of the actor's clinic (404 for anyone else's, and where there is none). */
export async function avatarOf(ctx: AppContext, actor: Actor, userId: string): Promise<{ file: StoredFile; type: 'image/png' | 'image/jpeg' }> {
  const user = await clinicAccount(ctx.db, userId, actor.clinicId);
  if (!user?.avatar_path) throw notFound();
  const file = await ctx.files.open(user.avatar_path);
  if (!file) throw notFound();
  return { file, type: user.avatar_type === 'image/jpeg' ? 'image/jpeg' : 'image/png' };
}
